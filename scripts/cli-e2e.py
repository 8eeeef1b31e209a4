#!/usr/bin/env python3
"""What only a real `tack` process shows (run by scripts/check.sh).

Every behaviour of every command is tested in-process by Tests/TackCLITests (through
Tack.run, which returns the exit status). This script checks what those tests cannot:
the built binary's exit statuses (main.swift's one exit), which stream each output
goes to (data on standard output, messages and usage on standard error, the JSON
error object on standard output), standard input read through a pipe, and `tack scan`
answering line by line while its input is still open (Spark's RDD.pipe, Hadoop
streaming), and the help's examples that need a shell (pipes, substitutions), run as
printed with the binary on PATH (the in-process test runs the others).

Usage: scripts/cli-e2e.py PATH-TO-tack
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
failures = []
checks = 0


def check(condition, what, detail=""):
    global checks
    checks += 1
    if not condition:
        failures.append(f"{what}\n    {detail}".rstrip())


def run(*args, stdin=None):
    result = subprocess.run([TACK, *args], input=stdin, capture_output=True, cwd=ROOT)
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def expect_status(args, status, stdin=None):
    code, out, err = run(*args, stdin=stdin)
    check(code == status, f"tack {' '.join(args)}: exit {code}, expected {status}", err[:300])
    for stream in (out, err):
        check("Fatal error" not in stream, f"tack {' '.join(args)}: a Swift runtime message", stream[:300])
    return out, err


def main():
    global TACK
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    TACK = os.path.abspath(sys.argv[1])
    certs = os.path.join("Vectors", "certs")
    chain = os.path.join(certs, "chain-example.pem")
    verify = ["verify", "--host", "www.example.com", "--roots", os.path.join(certs, "chain-root.pem"), chain]

    # Each exit status of the binary, and the streams it writes.
    out, err = expect_status(["pin", chain], 0)
    check(len(out.splitlines()) == 3 and err == "", "pin: three pins on stdout, nothing on stderr", out + err)
    out, err = expect_status(["pin", "no-such.pem"], 1)
    check(out == "" and "no-such.pem: no such file or directory" in err, "input error: message on stderr only", out + err)
    out, err = expect_status(["pin", "--bogus"], 2)
    check(out == "" and "USAGE: tack pin" in err, "usage error: usage on stderr only", out + err)
    out, err = expect_status(["pin", "--bogus", "--json"], 2)
    check(json.loads(out)["error"]["exit_status"] == 2 and "unknown option --bogus" in err,
          "usage error with --json: the JSON error object on stdout, the message on stderr", out + err)
    expect_status([], 2)
    expect_status(verify + ["--at", "2026-06-01T00:00:00Z"], 0)
    expect_status(verify + ["--at", "2040-01-01T00:00:00Z"], 3)
    out, _ = expect_status(["verify", "--json", "--host", "api.example.com", "--at", "2026-12-01T12:00:00Z",
                            "--roots", "Vectors/policies/certs/root.pem", "--policy", "Vectors/policies/example-wrong.json",
                            "Vectors/policies/certs/chain.pem"], 4)
    check(json.loads(out)["pins"]["outcome"] == "failed", "verify exit 4: the enforced pin failure", out[:300])

    # Standard input through a pipe.
    with open(os.path.join(ROOT, chain), "rb") as handle:
        out, _ = expect_status(["pin", "-"], 0, stdin=handle.read())
    check(len(out.splitlines()) == 3, "pin -: three pins from a pipe", out)

    # tack scan streams: one line out per Base64 line in, before its input is closed.
    der = subprocess.run(["openssl", "x509", "-in", os.path.join(ROOT, certs, "p256-leaf.pem"), "-outform", "der"],
                         capture_output=True, check=True).stdout
    import base64
    line = base64.b64encode(der) + b"\n"
    scan = subprocess.Popen([TACK, "scan", "--quiet", "--jobs", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
    scan.stdin.write(line)
    scan.stdin.flush()
    first = scan.stdout.readline()
    check(json.loads(first).get("index") == 1, "scan answers a line while its input is open", first[:200])
    scan.stdin.close()
    check(scan.wait(timeout=60) == 0 and scan.stdout.read() == b"", "scan: exit 0 at the end of its input")

    # The examples of `tack help` and of each command's --help that need a shell.
    helps = [run("help")[1]] + [run(command, "--help")[1] for command in
                                ("pin", "show", "verify", "scan", "lint", "plist", "policy", "rotation", "vectors", "completions")]
    environment = dict(os.environ, PATH=os.path.dirname(TACK) + os.pathsep + os.environ.get("PATH", ""))
    shell_examples = 0
    for text in helps:
        examples, section, pending = [], False, ""
        for line in text.splitlines():
            stripped = line.strip()
            if stripped == "EXAMPLES:":
                section = True
                continue
            if not section:
                continue
            if not stripped or (not pending and not stripped.startswith(("tack ", "openssl "))):
                section = False
                continue
            pending = (pending + " " + stripped) if pending else stripped
            if pending.endswith("\\"):
                pending = pending[:-1].strip()
                continue
            examples.append(pending)
            pending = ""
        for example in examples:
            if not any(mark in example for mark in ("|", "$(", ">", "<")):
                continue  # run in-process by Tests/TackCLITests
            if "s_client" in example or ("tack fetch " in example and "--help" not in example) or "--connect " in example:
                continue  # needs the network (tack fetch and --connect run against local servers in Tests/TackCLITests)
            shell_examples += 1
            result = subprocess.run(["bash", "-o", "pipefail", "-c", example], capture_output=True, cwd=ROOT, env=environment)
            check(result.returncode == 0, f"help example: {example}: exit {result.returncode}", result.stderr.decode()[:300])
    check(shell_examples >= 2, f"help examples needing a shell: {shell_examples} found")

    for failure in failures:
        print("FAIL:", failure)
    print(f"cli-e2e: {checks - len(failures)} of {checks} checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
