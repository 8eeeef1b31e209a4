#!/usr/bin/env python3
"""End-to-end tests of every `tack` command on the built binary (run by scripts/check.sh).

Each check runs the binary on files under Vectors/ and asserts its standard output,
standard error and exit status: usage errors (exit 2 with the command's usage), input
errors (exit 1, the OS reason, the bad PEM block's index beside the good certificates),
`pin` (raw-key mistakes recognised, one JSON shape), `show` (text and JSON), `scan`
(JSON lines in input order, error lines, Base64 lines on stdin, the system CA bundle's
pins equal `tack pin`'s), and `lint` (every seeded mistake in Vectors/lint/mistakes at
its line, nothing in Vectors/lint/fixed, --disable, SARIF 2.1.0's required structure).

Usage: scripts/cli-e2e.py PATH-TO-tack
"""
import base64
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VECTORS = os.path.join(ROOT, "Vectors")
CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"
failures = []
checks = 0


def run(*args, stdin=None):
    result = subprocess.run([TACK, *args], input=stdin, capture_output=True, cwd=ROOT)
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def check(condition, what, detail=""):
    global checks
    checks += 1
    if not condition:
        failures.append(f"{what}\n    {detail}".rstrip())


def expect(args, status, stdout_has=(), stderr_has=(), stdin=None, what=None):
    code, out, err = run(*args, stdin=stdin)
    label = what or "tack " + " ".join(args)
    check(code == status, f"{label}: exit {code}, expected {status}", err.strip()[:400])
    for text in stdout_has:
        check(text in out, f"{label}: stdout lacks {text!r}", out[:400])
    for text in stderr_has:
        check(text in err, f"{label}: stderr lacks {text!r}", err[:400])
    for stream in (out, err):
        check("Fatal error" not in stream and "Swift runtime" not in stream, f"{label}: a Swift runtime message", stream[:400])
    return out, err


def vector(*parts):
    return os.path.join("Vectors", *parts)


# MARK: usage and help


def test_usage():
    expect([], 2, stderr_has=["USAGE: tack <command>"], what="bare tack")
    expect(["frobnicate"], 2, stderr_has=["unknown command frobnicate", "USAGE: tack <command>"])
    expect(["help"], 0, stdout_has=["COMMANDS:", "EXAMPLES:"])
    expect(["version"], 0, stdout_has=["tack "])
    for command in ["pin", "show", "scan", "lint", "plist", "policy", "rotation", "vectors"]:
        out, _ = expect([command, "--help"], 0, stdout_has=[f"USAGE: tack {command}"])
        if command != "vectors":
            check("EXAMPLES:" in out, f"tack {command} --help has no example")
        expect(["help", command], 0, stdout_has=[f"USAGE: tack {command}"])
    # Unknown flags and missing arguments: the message, the command's usage, exit 2.
    for args, message in [
        (["pin", "--bogus", "x"], "unknown option --bogus"),
        (["pin"], "needs at least one FILE"),
        (["pin", "--format"], "--format needs a value"),
        (["pin", "--format", "yaml", "x"], "unknown format yaml"),
        (["pin", "--raw-key", "x"], "--raw-key needs --key-type"),
        (["show"], "needs at least one FILE"),
        (["show", "--now", "yesterday", "x"], "--now needs a time"),
        (["scan", "--jobs", "0"], "--jobs needs a number"),
        (["lint"], "needs at least one PATH"),
        (["lint", "--disable", "no-such-rule", "x"], "unknown rule no-such-rule"),
        (["vectors"], "needs a suite"),
        (["plist", vector("certs", "chain-example.pem")], "needs --domain"),
        (["plist", "--domain", "*.example.com", vector("certs", "chain-example.pem")], "is not a host name"),
        (["policy"], "needs a subcommand"),
        (["policy", "convert", "--from", "okhttp", "--to", "json", "x"], "--from needs"),
        (["rotation", "policy.json"], "needs a POLICY and at least one CHAIN"),
    ]:
        command = args[0]
        expect(args, 2, stderr_has=[message, f"USAGE: tack {command}"])


# MARK: input errors shared by the readers


def test_input_errors():
    with tempfile.TemporaryDirectory() as work:
        expect(["pin", os.path.join(work, "missing.pem")], 1, stderr_has=["missing.pem: no such file or directory"])
        expect(["pin", work], 1, stderr_has=[f"{work}: is a directory"])
        expect(["pin", "/dev/null"], 1, stderr_has=["/dev/null: empty input"])
        if os.geteuid() != 0:  # root reads anything
            locked = os.path.join(work, "locked.pem")
            with open(locked, "w") as handle:
                handle.write("x")
            os.chmod(locked, 0)
            expect(["pin", locked], 1, stderr_has=["permission denied"])
        expect(["pin", "README.md"], 1, stderr_has=["README.md: neither PEM nor DER: the file is plain text"])
        # One bad PEM block among good ones: the good pins print, the bad block is named.
        with open(os.path.join(VECTORS, "certs", "chain-example.pem")) as handle:
            chain = handle.read()
        blocks = re.findall(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----\n", chain, re.S)
        body = blocks[1].splitlines()
        body[3] = "A" * len(body[3])  # valid Base64, broken DER
        mixed = os.path.join(work, "mixed.pem")
        with open(mixed, "w") as handle:
            handle.write(blocks[0] + "\n".join(body) + "\n" + blocks[2])
        out, err = expect(["pin", mixed], 1, stderr_has=["mixed.pem: certificate #2 (PEM block at byte"])
        pins = [line.split()[0] for line in out.splitlines()]
        expected = [open(os.path.join(VECTORS, "certs", f"chain-{name}.pin")).read().strip() for name in ("leaf", "root")]
        check(pins == expected, "pin: the good certificates beside a bad block", f"{pins} != {expected}")
        out, _ = expect(["show", mixed], 1, stderr_has=["certificate #2"])
        check(out.count("Certificate ") == 2, "show: the good certificates beside a bad block", out[:300])


# MARK: pin


def test_pin():
    leaf_pin = open(os.path.join(VECTORS, "certs", "p256-leaf.pin")).read().strip()
    rawkey = vector("certs", "p256-leaf.rawkey.hex")
    out, _ = expect(["pin", "--raw-key", rawkey, "--key-type", "p256"], 0, stdout_has=[leaf_pin, "SPKI header (26 bytes)"])
    # The likely mistakes with --raw-key, each recognised with the input's own pin.
    expect(["pin", "--raw-key", vector("certs", "p256-leaf.pem"), "--key-type", "p256"], 1,
           stderr_has=["this is a PEM certificate, not a raw key", leaf_pin])
    expect(["pin", "--raw-key", vector("certs", "p256-leaf.spki.der"), "--key-type", "p256"], 1,
           stderr_has=["this is already a SubjectPublicKeyInfo; drop --raw-key", leaf_pin])
    expect(["pin", "--raw-key", rawkey, "--key-type", "rsa"], 1, stderr_has=["try --key-type p256"])
    expect(["pin", "--raw-key", rawkey, "--key-type", "p384"], 1, stderr_has=["is 65 bytes, expected 97"])
    expect(["pin", "--raw-key", vector("certs", "ed25519-leaf.rawkey.hex"), "--key-type", "p256"], 1,
           stderr_has=["is 32 bytes, expected 65"])
    expect(["pin", "--raw-key", "README.md", "--key-type", "ed25519"], 1, stderr_has=["plain text but neither hex nor Base64"])
    with tempfile.NamedTemporaryFile(suffix=".der") as der:
        der.write(subprocess.run(["openssl", "x509", "-in", os.path.join(VECTORS, "certs", "p256-leaf.pem"), "-outform", "der"],
                                 capture_output=True, check=True).stdout)
        der.flush()
        expect(["pin", "--raw-key", der.name, "--key-type", "rsa"], 1, stderr_has=["this is a DER certificate", leaf_pin])
    # --format json: always an array of objects.
    for args in (["pin", "--format", "json", vector("certs", "chain-example.pem")],
                 ["pin", "--format", "json", "--raw-key", rawkey, "--key-type", "p256"]):
        out, _ = expect(args, 0)
        document = json.loads(out)
        check(isinstance(document, list) and all(isinstance(item, dict) and "spkiSHA256Base64" in item for item in document),
              "pin --format json is an array of objects", out[:200])


# MARK: show


def test_show():
    out, _ = expect(["show", "--now", "2026-01-01T00:00:00Z", vector("certs", "chain-example.pem")], 0,
                    stdout_has=["Certificate 1 of 3", "Subject:            CN=www.example.com", "DNS:www.example.com",
                                "EC P-256 (256 bits)", "ecdsa-with-SHA256", "zvkGh57k0jgGHxyiZ2bc8g7xNi7xSJXbZDRxa6i95i0=",
                                "basicConstraints (critical): CA:FALSE", "3287 days left"])
    out, _ = expect(["show", "--now", "2036-01-01T00:00:00Z", vector("certs", "chain-leaf.pem")], 0,
                    stdout_has=["expired 365 days ago"])
    out, _ = expect(["show", "--json", "--now", "2026-01-01T00:00:00Z", vector("certs", "chain-example.pem")], 0)
    records = json.loads(out)
    check(len(records) == 3, "show --json: three records")
    leaf = records[0]
    for key in ("subject", "issuer", "serial", "not_before", "not_after", "key_type", "key_bits", "spki_sha256",
                "sha256", "dns_names", "extensions", "days_left"):
        check(key in leaf, f"show --json lacks {key}")
    check(leaf.get("days_left") == 3287, "show --json days_left", str(leaf.get("days_left")))
    check(leaf.get("dns_names") == ["www.example.com", "example.com"], "show --json dns_names", str(leaf.get("dns_names")))
    check(any(ext["name"] == "basicConstraints" and ext["critical"] for ext in leaf.get("extensions", [])),
          "show --json: the critical basicConstraints extension")
    fingerprint = subprocess.run(["openssl", "x509", "-in", os.path.join(VECTORS, "certs", "chain-leaf.pem"), "-noout",
                                  "-fingerprint", "-sha256"], capture_output=True, text=True, check=True).stdout
    check(leaf.get("sha256") == fingerprint.split("=")[1].strip().replace(":", "").lower(), "show --json sha256 = openssl's")


# MARK: scan


def test_scan():
    out, err = expect(["scan", vector("certs", "malformed", "truncated.der"), vector("certs", "chain-example.pem")], 1,
                      stderr_has=["scanned 4 certificates (1 failed)", "certificates/s"])
    lines = [json.loads(line) for line in out.splitlines()]
    check(len(lines) == 4 and "error" in lines[0] and "offset" in lines[0], "scan: an error line first", out[:300])
    check([line.get("subject", "").split(",")[0] for line in lines[1:]] ==
          ["CN=www.example.com", "CN=Tack Example Intermediate CA", "CN=Tack Example Root CA"], "scan: input order")
    # Base64 DER lines on standard input, with a bad line in the middle; one line out per line in.
    ders = []
    for name in ("p256-leaf", "rsa2048-leaf", "ed25519-leaf"):
        path = os.path.join(VECTORS, "certs", name + ".pem")
        if os.path.exists(path):
            ders.append(subprocess.run(["openssl", "x509", "-in", path, "-outform", "der"], capture_output=True,
                                       check=True).stdout)
    text = "\n".join([base64.b64encode(ders[0]).decode(), "not base64!", *[base64.b64encode(d).decode() for d in ders[1:]]]) + "\n"
    for jobs in ("1", "2"):
        out, _ = expect(["scan", "--jobs", jobs, "--quiet"], 1, stdin=text.encode(), what=f"scan --jobs {jobs} < lines")
        lines = [json.loads(line) for line in out.splitlines()]
        check(len(lines) == len(ders) + 1, "scan: one line out per line in", out[:300])
        check("error" in lines[1] and lines[1]["index"] == 2, "scan: the bad line reported in place", str(lines[1]))
    # The system CA bundle: every certificate, pins equal to tack pin's.
    if os.path.exists(CA_BUNDLE):
        out, err = expect(["scan", CA_BUNDLE], 0, stderr_has=["certificates/s"])
        scanned = [json.loads(line)["spki_sha256"] for line in out.splitlines()]
        code, pin_out, _ = run("pin", CA_BUNDLE)
        pinned = [line.split()[0] for line in pin_out.splitlines()]
        check(code == 0 and scanned == pinned and len(scanned) > 100, "scan of the CA bundle: pins equal tack pin's",
              f"{len(scanned)} scanned, {len(pinned)} pinned")
        # The same bundle as Base64 lines on stdin, on one thread: the same output.
        blocks = re.findall(r"-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", open(CA_BUNDLE).read(), re.S)
        stdin = "".join("".join(block.split()) + "\n" for block in blocks).encode()
        code, lines_out, _ = run("scan", "--jobs", "1", "--quiet", stdin=stdin)
        check(code == 0 and [json.loads(l)["spki_sha256"] for l in lines_out.splitlines()] == scanned,
              "scan: Base64 lines on one thread equal the PEM scan on every core")
    elif os.environ.get("CI") == "true":
        failures.append(f"{CA_BUNDLE} missing")


# MARK: lint


def expected_findings(path):
    """(line, rule) for each `expect: RULE` marker in a sample file."""
    found = []
    for number, line in enumerate(open(path, encoding="utf-8"), start=1):
        for rule in re.findall(r"expect: ([a-z0-9-]+)", line):
            found.append((number, rule))
    return found


def test_lint():
    mistakes = os.path.join("Vectors", "lint", "mistakes")
    fixed = os.path.join("Vectors", "lint", "fixed")
    out, err = expect(["lint", mistakes], 1)
    reported = []
    for line in out.splitlines():
        match = re.fullmatch(r"(.+?):(\d+):(\d+): (error|warning): (.+) \[([a-z0-9-]+)\]", line)
        check(match is not None, "lint: compiler-style line", line)
        if match:
            reported.append((os.path.basename(match.group(1)), int(match.group(2)), match.group(6), match.group(4)))
    expected = []
    for name in sorted(os.listdir(os.path.join(ROOT, mistakes))):
        expected += [(name, line, rule) for line, rule in expected_findings(os.path.join(ROOT, mistakes, name))]
    check(sorted((n, l, r) for n, l, r, _ in reported) == sorted(expected), "lint: exactly the seeded mistakes, at their lines",
          f"missing {sorted(set(expected) - {(n, l, r) for n, l, r, _ in reported})}, "
          f"extra {sorted({(n, l, r) for n, l, r, _ in reported} - set(expected))}")
    rules_seen = {rule for _, _, rule in expected}
    check(len(rules_seen) == 10, "lint: the samples seed every rule", str(sorted(rules_seen)))
    check(all(level == "warning" for _, _, rule, level in reported if rule == "deprecated-trust-api")
          and all(level == "error" for _, _, rule, level in reported if rule != "deprecated-trust-api"),
          "lint: deprecated calls are warnings, the rest errors")
    out, err = expect(["lint", fixed], 0)
    check(out == "", "lint: nothing in the fixed files", out[:400])
    # Warnings alone exit 0; --disable removes a rule.
    out, _ = expect(["lint", "--disable", "ats-arbitrary-loads,pin-backup-missing,pin-unknown-key,pin-malformed",
                     "--disable", "credential-without-trust", "--disable", "ssl-policy-nil-host",
                     "--disable", "system-anchors-disabled", "--disable", "spki-header-missing",
                     "--disable", "pkcs12-passphrase-literal", mistakes], 0)
    check(out.count("[deprecated-trust-api]") == 3 and out.count("\n") == 3, "lint --disable: only the warnings left", out)
    expect(["lint", "README.md"], 1, stderr_has=["not a Swift source or property list"])
    expect(["lint", "no/such/dir"], 1, stderr_has=["no such file or directory"])
    # SARIF 2.1.0.
    out, _ = expect(["lint", "--sarif", mistakes], 1)
    validate_sarif(json.loads(out), len(expected))


def validate_sarif(log, result_count):
    """The structure SARIF 2.1.0 requires (OASIS SARIF v2.1.0 §3.13-§3.30), plus what
    code-scanning services need to annotate a pull request."""
    def require(condition, what):
        check(condition, "SARIF: " + what)
        return condition
    require(log.get("version") == "2.1.0", "version is 2.1.0 (§3.13.2)")
    require(isinstance(log.get("$schema"), str) and "sarif" in log["$schema"], "$schema names the SARIF schema (§3.13.3)")
    runs = log.get("runs")
    if not require(isinstance(runs, list) and len(runs) == 1, "runs is an array with one run (§3.13.4)"):
        return
    run_ = runs[0]
    driver = run_.get("tool", {}).get("driver", {})
    require(isinstance(driver.get("name"), str) and driver["name"], "tool.driver.name (§3.18.2, §3.19.8)")
    rules = driver.get("rules", [])
    rule_ids = [rule.get("id") for rule in rules]
    require(all(isinstance(i, str) for i in rule_ids) and len(set(rule_ids)) == len(rule_ids), "rules have unique ids (§3.49.3)")
    for rule in rules:
        require(rule.get("defaultConfiguration", {}).get("level") in ("error", "warning", "note", "none"),
                "rule defaultConfiguration.level (§3.50.3)")
    results = run_.get("results")
    if not require(isinstance(results, list) and len(results) == result_count, f"{result_count} results (§3.14.23)"):
        return
    for result in results:
        require(isinstance(result.get("message", {}).get("text"), str) and result["message"]["text"], "result.message.text (§3.27.11)")
        require(result.get("ruleId") in rule_ids, "result.ruleId names a rule (§3.27.5)")
        index = result.get("ruleIndex")
        require(isinstance(index, int) and 0 <= index < len(rules) and rules[index]["id"] == result.get("ruleId"),
                "result.ruleIndex points at its rule (§3.27.6)")
        require(result.get("level") in ("error", "warning", "note", "none"), "result.level (§3.27.10)")
        locations = result.get("locations")
        if not require(isinstance(locations, list) and len(locations) == 1, "result.locations (§3.27.12)"):
            continue
        physical = locations[0].get("physicalLocation", {})
        uri = physical.get("artifactLocation", {}).get("uri")
        require(isinstance(uri, str) and uri and not uri.startswith("/"), "artifactLocation.uri is a relative reference (§3.4.3)")
        region = physical.get("region", {})
        require(isinstance(region.get("startLine"), int) and region["startLine"] >= 1, "region.startLine >= 1 (§3.30.5)")
        require(isinstance(region.get("startColumn"), int) and region["startColumn"] >= 1, "region.startColumn >= 1 (§3.30.6)")


# MARK: plist, policy convert, rotation


def test_plist():
    import plistlib
    out, _ = expect(["plist", vector("certs", "chain-example.pem"), "--domain", "example.com", "--include-subdomains"], 0,
                    stdout_has=["<key>NSAppTransportSecurity</key>", "<key>NSPinnedCAIdentities</key>"])
    body = out[out.index("<key>NSAppTransportSecurity</key>"):]
    document = plistlib.loads(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>" + body + "</dict></plist>").encode())
    rule = document["NSAppTransportSecurity"]["NSPinnedDomains"]["example.com"]
    pins = [open(os.path.join(VECTORS, "certs", f"chain-{name}.pin")).read().strip() for name in ("intermediate", "root")]
    check(rule.get("NSIncludesSubdomains") is True and [p["SPKI-SHA256-BASE64"] for p in rule["NSPinnedCAIdentities"]] == pins,
          "plist: the chain's CA identities", str(rule))
    with tempfile.TemporaryDirectory() as work:
        info = os.path.join(work, "Info.plist")
        with open(info, "w") as handle:
            handle.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n" + body + "\n</dict>\n</plist>\n")
        lint_out, _ = expect(["lint", info], 0)
        check(lint_out == "", "plist output passes tack lint", lint_out)
    leaf = vector("certs", "chain-leaf.pem")
    expect(["plist", leaf, "--leaf", "--domain", "api.example.com"], 1, stderr_has=["refusing a rule with a single pin", "--backup-pin"])
    out, _ = expect(["plist", leaf, "--leaf", "--domain", "api.example.com", "--allow-single-pin"], 0, stdout_has=["NSPinnedLeafIdentities"])
    out, _ = expect(["plist", leaf, "--leaf", "--domain", "api.example.com", "--backup-pin",
                     "sha256/ONgpIUVEH2m4p8nAMbENgGUbgmIxnctaN38DI2GqL7g="], 0, stdout_has=["ONgpIUVEH2m4p8nAMbENgGUbgmIxnctaN38DI2GqL7g="])
    expect(["plist", leaf, "--domain", "api.example.com"], 1, stderr_has=["holds only a leaf"])


def test_policy_convert():
    import plistlib
    source = vector("policies", "example.json")
    out, err = expect(["policy", "convert", "--from", "json", "--to", "plist", source], 0,
                      stderr_has=["does not translate: example.com: ATS sends no reports"])
    ats = plistlib.loads(out.encode())["NSAppTransportSecurity"]["NSPinnedDomains"]["example.com"]
    check([p["SPKI-SHA256-BASE64"] for p in ats["NSPinnedCAIdentities"]] ==
          ["8j0L1iaoc4jfXRiN21BhnBm1m79/xl/gv2BgQiHHkNU=", "OhSDq7eqbTdv7vIivt9Wwc5nfvTt1HyGCGQJnrQ4akU="], "policy convert json -> plist")
    with tempfile.TemporaryDirectory() as work:
        plist_path = os.path.join(work, "Info.plist")
        with open(plist_path, "w") as handle:
            handle.write(out)
        # plist -> json -> plist round trip keeps the pins.
        json_out, _ = expect(["policy", "convert", "--from", "plist", "--to", "json", plist_path], 0)
        policy = json.loads(json_out)
        check(policy["domains"]["example.com"]["includeSubdomains"] is True, "policy convert plist -> json", json_out)
        trustkit, err = expect(["policy", "convert", "--from", "json", "--to", "trustkit", source], 0,
                               stderr_has=["TrustKit subdomains are any depth"])
        config = plistlib.loads(trustkit.encode())["TSKConfiguration"]["TSKPinnedDomains"]["example.com"]
        check(config["TSKIncludeSubdomains"] is True and len(config["TSKPublicKeyHashes"]) == 2, "policy convert json -> trustkit")
        trustkit_path = os.path.join(work, "trustkit.plist")
        with open(trustkit_path, "w") as handle:
            handle.write(trustkit)
        back, _ = expect(["policy", "convert", "--from", "trustkit", "--to", "json", trustkit_path], 0)
        check("**.example.com" in json.loads(back)["domains"], "policy convert trustkit -> json keeps any-depth", back)
    out, err = expect(["policy", "convert", "--from", "json", "--to", "okhttp", source], 0,
                      stdout_has=['.add("example.com", "sha256/8j0L1iaoc4jfXRiN21BhnBm1m79/xl/gv2BgQiHHkNU="',
                                  '.add("*.example.com"', "CertificatePinner.Builder()"])
    expect(["policy", "convert", "--from", "json", "--to", "plist", vector("policies", "malformed.json")], 1,
           stderr_has=["the policy was refused"])


def test_rotation():
    args = ["rotation", "--roots", vector("certs", "chain-root.pem"), "--at", "2026-06-01T00:00:00Z",
            vector("policies", "example.json")]
    out, err = expect(args + [vector("certs", "chain-example.pem")], 0,
                      stdout_has=["pass  Vectors/certs/chain-example.pem: on caIdentities[0]", "passes on a single pin",
                                  "no backup pin matches any candidate"])
    out, err = expect(args + [vector("certs", "chain-example.pem"), vector("certs", "p256-leaf.pem")], 1,
                      stdout_has=["FAIL  Vectors/certs/p256-leaf.pem"])


def test_verify_manifest():
    """Every case of Vectors/policies/manifest.json through `tack verify`: the exit status
    (0 trusted, 3 untrusted, 4 pin failure, 1 bad input), Info.plist policies included."""
    manifest = json.load(open(os.path.join(VECTORS, "policies", "manifest.json")))
    for case in manifest:
        args = ["verify", "--host", case["host"], "--at", case["at"]]
        for root in case["roots"]:
            args += ["--roots", vector("policies", root)]
        if case.get("policy"):
            args += ["--policy", vector("policies", case["policy"])]
        args.append(vector("policies", case["chain"]))
        code, _, err = run(*args)
        check(code == case["exit"], f"verify manifest case {case['name']!r}: exit {code}, expected {case['exit']}", err[:300])


def main():
    global TACK
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    TACK = os.path.abspath(sys.argv[1])
    for test in (test_usage, test_input_errors, test_pin, test_show, test_scan, test_lint, test_plist, test_policy_convert,
                 test_rotation, test_verify_manifest):
        test()
    for failure in failures:
        print("FAIL:", failure)
    print(f"cli-e2e: {checks - len(failures)} of {checks} checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
