#!/usr/bin/env python3
"""Generates the pin-policy vectors: certificate chains, Tack JSON policies, the
equivalent Info.plist files, and manifest.json (one case per line of expectations).

    python3 Vectors/policies/generate.py

Keys are derived deterministically from their names (P-256 private scalars from
SHA-256 of the name), so every key, SPKI and pin is stable across regenerations;
ECDSA signatures are randomized, so certificate bytes and fingerprints change.
Certificates are valid 2026-01-01 .. 2028-01-01 unless named otherwise; every case
runs at 2026-12-01T12:00:00Z. Test keys only.
"""
import base64
import datetime
import hashlib
import json
import os
import plistlib

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
AT = "2026-12-01T12:00:00Z"
NOT_BEFORE = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
NOT_AFTER = datetime.datetime(2028, 1, 1, tzinfo=datetime.timezone.utc)
P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def key(name):
    scalar = int.from_bytes(hashlib.sha256(b"tack-policy-vectors/" + name.encode()).digest(), "big") % (P256_ORDER - 1) + 1
    return ec.derive_private_key(scalar, ec.SECP256R1())


def spki_der(k):
    return k.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def pin(k):
    return base64.b64encode(hashlib.sha256(spki_der(k)).digest()).decode()


def raw_key_pin(k):
    """The header trap: SHA-256 of the bare EC point, as SecKeyCopyExternalRepresentation returns it."""
    raw = k.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.b64encode(hashlib.sha256(raw).digest()).decode()


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Tack Policy Vectors"), x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def certificate(subject, subject_key, issuer, issuer_key, ca, sans=None, not_before=NOT_BEFORE, not_after=NOT_AFTER):
    builder = (
        x509.CertificateBuilder()
        .subject_name(name(subject))
        .issuer_name(name(issuer))
        .public_key(subject_key.public_key())
        .serial_number(int.from_bytes(hashlib.sha256(("serial/" + subject + "/" + issuer + str(not_after)).encode()).digest()[:16], "big") >> 1)
        .not_valid_before(not_before)
        .not_valid_after(not_after)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(subject_key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
    )
    if ca:
        builder = builder.add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        builder = builder.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
    else:
        builder = builder.add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        builder = builder.add_extension(
            x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True
        )
        builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(s) for s in sans]), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def pem(*certs):
    return b"".join(c.public_bytes(serialization.Encoding.PEM) for c in certs)


def write(path, data):
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def main():
    K = {n: key(n) for n in ["root", "intermediate", "leaf", "backup1", "backup2", "backup3", "evil-root", "evil-intermediate",
                             "evil-leaf", "new-root", "cross-intermediate", "cross-leaf"]}
    SANS = ["example.com", "api.example.com", "www.example.com", "v1.api.example.com", "unpinned.example.org"]

    # The main chain: root -> intermediate -> leaf.
    root = certificate("Policy Root CA", K["root"], "Policy Root CA", K["root"], ca=True)
    intermediate = certificate("Policy Intermediate CA", K["intermediate"], "Policy Root CA", K["root"], ca=True)
    leaf = certificate("api.example.com", K["leaf"], "Policy Intermediate CA", K["intermediate"], ca=False, sans=SANS)
    write("certs/root.pem", pem(root))
    write("certs/chain.pem", pem(leaf, intermediate))

    # The appended-CA attack: a chain from another (trusted) root, with the pinned
    # intermediate appended to what is served. The path cannot go through it.
    evil_root = certificate("Other Trusted Root CA", K["evil-root"], "Other Trusted Root CA", K["evil-root"], ca=True)
    evil_intermediate = certificate("Other Intermediate CA", K["evil-intermediate"], "Other Trusted Root CA", K["evil-root"], ca=True)
    evil_leaf = certificate("api.example.com", K["evil-leaf"], "Other Intermediate CA", K["evil-intermediate"], ca=False, sans=SANS)
    write("certs/other-root.pem", pem(evil_root))
    write("certs/appended-ca-chain.pem", pem(evil_leaf, evil_intermediate, intermediate))

    # Cross-signing: the cross intermediate's key is certified by the old root and by
    # the new root; the served chain lists the old-root version first. Only the path
    # to the new root satisfies a pin on the new root.
    new_root = certificate("Policy New Root CA", K["new-root"], "Policy New Root CA", K["new-root"], ca=True)
    cross_by_old = certificate("Policy Cross Intermediate CA", K["cross-intermediate"], "Policy Root CA", K["root"], ca=True)
    cross_by_new = certificate("Policy Cross Intermediate CA", K["cross-intermediate"], "Policy New Root CA", K["new-root"], ca=True)
    cross_leaf = certificate("api.example.com", K["cross-leaf"], "Policy Cross Intermediate CA", K["cross-intermediate"], ca=False, sans=SANS)
    write("certs/new-root.pem", pem(new_root))
    write("certs/cross-signed-chain.pem", pem(cross_leaf, cross_by_old, cross_by_new))

    # An expired copy of the intermediate (same key) served next to the chain from the
    # other root: a pin that matches it names an expired/replaced certificate.
    old_intermediate = certificate("Policy Intermediate CA", K["intermediate"], "Policy Root CA", K["root"], ca=True,
                                   not_before=datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc),
                                   not_after=datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc))
    write("certs/expired-pinned-chain.pem", pem(evil_leaf, evil_intermediate, old_intermediate))

    P = {n: pin(k) for n, k in K.items()}
    B = [P["backup1"], P["backup2"], P["backup3"]]

    def ats(domain_rules):
        """The Info.plist equivalent of a set of ATS-expressible rules."""
        pinned = {}
        for domain, rule in domain_rules.items():
            entry = {}
            if rule.get("includeSubdomains"):
                entry["NSIncludesSubdomains"] = True
            for json_key, plist_key in [("caIdentities", "NSPinnedCAIdentities"), ("leafIdentities", "NSPinnedLeafIdentities")]:
                if json_key in rule:
                    entry[plist_key] = [{"SPKI-SHA256-BASE64": p} for p in rule[json_key]]
            pinned[domain] = entry
        return {
            "CFBundleIdentifier": "com.example.tack-vectors",
            "NSAppTransportSecurity": {"NSAllowsArbitraryLoads": False, "NSPinnedDomains": pinned},
        }

    policies = {
        "ca-intermediate": {"example.com": {"includeSubdomains": True, "caIdentities": [P["intermediate"], B[0]]}},
        "ca-anchor": {"example.com": {"includeSubdomains": True, "caIdentities": [B[0], P["root"]]}},
        "ca-equals-leaf": {"example.com": {"includeSubdomains": True, "caIdentities": [P["leaf"], B[0]]}},
        "leaf": {"example.com": {"includeSubdomains": True, "leafIdentities": [P["leaf"], B[0]]}},
        "both-lists": {"example.com": {"includeSubdomains": True, "caIdentities": [P["intermediate"], B[0]], "leafIdentities": [P["leaf"], B[1]]}},
        "both-lists-leaf-miss": {"example.com": {"includeSubdomains": True, "caIdentities": [P["intermediate"], B[0]], "leafIdentities": [B[1], B[2]]}},
        "mismatch-subdomains": {"example.com": {"includeSubdomains": True, "caIdentities": [B[0], B[1]]}},
        "most-specific": {
            "example.com": {"includeSubdomains": True, "caIdentities": [B[0], B[1]]},
            "API.Example.com": {"caIdentities": [P["intermediate"], B[2]]},
        },
        "raw-key-hash": {"example.com": {"includeSubdomains": True, "caIdentities": [raw_key_pin(K["intermediate"]), B[0]]}},
        "cross-signed": {"example.com": {"includeSubdomains": True, "caIdentities": [P["new-root"], B[0]]}},
        "single-pin": {"example.com": {"includeSubdomains": True, "caIdentities": [P["intermediate"]]}},
    }
    tack_only = {
        "report-only": {"example.com": {"includeSubdomains": True, "caIdentities": [B[0], B[1]], "mode": "report-only",
                                        "reportURIs": ["https://example.com/pin-report"]}},
        "expired-rule": {"example.com": {"includeSubdomains": True, "caIdentities": [B[0], B[1]], "expires": "2026-06-01T00:00:00Z"}},
        "single-pin-waived": {"example.com": {"includeSubdomains": True, "caIdentities": [P["intermediate"]], "allowSinglePin": True}},
        "okhttp-any-depth": {"**.example.com": {"caIdentities": [B[0], B[1]]}},
        "whole-certificate": {"example.com": {"includeSubdomains": True,
                                             "caCertificates": [hashlib.sha256(intermediate.public_bytes(serialization.Encoding.DER)).hexdigest(), B[0]]}},
    }
    for stem, rules in list(policies.items()) + list(tack_only.items()):
        write(f"{stem}.json", json.dumps({"version": 1, "domains": rules}, indent=2) + "\n")
    for stem, rules in policies.items():
        write(f"{stem}.plist", plistlib.dumps(ats(rules), fmt=plistlib.FMT_XML))
    write("malformed.json", '{"version": 1, "domains": {"example.com": {"caIdentities": ["not base64!", "' + B[0] + '"],}}}\n')

    # The README's example chain (Vectors/certs/chain-example.pem): pins of its
    # intermediate, plus a backup.
    example_intermediate = x509.load_pem_x509_certificate(open(os.path.join(HERE, "..", "certs", "chain-intermediate.pem"), "rb").read())
    example_pin = base64.b64encode(hashlib.sha256(example_intermediate.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)).digest()).decode()
    example_rules = {"example.com": {"includeSubdomains": True, "caIdentities": [example_pin, B[0]]}}
    write("example.json", json.dumps({"version": 1, "domains": {
        "example.com": dict(example_rules["example.com"], reportURIs=["https://example.com/pin-report"])}}, indent=2) + "\n")
    write("example.plist", plistlib.dumps(ats(example_rules), fmt=plistlib.FMT_XML))
    write("example-wrong.json", json.dumps({"version": 1, "domains": {
        "example.com": {"includeSubdomains": True, "caIdentities": [B[0], B[1]]}}}, indent=2) + "\n")

    # The manifest: one case per (chain, host, policy); `exit` is tack verify's status,
    # `decision` the TrustDecision code (null when the policy does not load), `pins` the
    # PinOutcome code and `diagnostic` the code of a PinDiagnostic or PinPolicyIssue.
    cases = []
    decisions = {0: "trusted", 4: "pin_mismatch", 3: "unknown_issuer", 1: None}

    def case(name, policy, exit_status, verdict, pins, host="api.example.com", chain="certs/chain.pem",
             roots=("certs/root.pem",), diagnostic=None, formats=("json", "plist")):
        for fmt in formats:
            if policy is not None and not os.path.exists(os.path.join(HERE, f"{policy}.{fmt}")):
                continue
            entry = {
                "name": name + ("" if policy is None else f" [{fmt}]"),
                "chain": chain, "roots": list(roots), "host": host, "at": AT,
                "policy": None if policy is None else f"{policy}.{fmt}",
                "verdict": verdict, "decision": decisions[exit_status], "pins": pins, "exit": exit_status,
            }
            if diagnostic:
                entry["diagnostic"] = diagnostic
            cases.append(entry)
            if policy is None:
                break

    case("no policy", None, 0, "trusted", None)
    case("untrusted chain (no anchor)", "ca-intermediate", 3, "untrusted", "not_evaluated", roots=("certs/other-root.pem",))
    case("CA pin hits the intermediate", "ca-intermediate", 0, "trusted", "satisfied")
    case("CA pin hits the anchor", "ca-anchor", 0, "trusted", "satisfied")
    case("CA pin equal to the leaf key never matches", "ca-equals-leaf", 4, "trusted", "failed", diagnostic="ca_pin_matches_leaf")
    case("leaf pin", "leaf", 0, "trusted", "satisfied")
    case("both lists, both match (AND)", "both-lists", 0, "trusted", "satisfied")
    case("both lists, leaf list misses (AND)", "both-lists-leaf-miss", 4, "trusted", "failed")
    case("subdomain one label deep is covered", "mismatch-subdomains", 4, "trusted", "failed", host="api.example.com")
    case("subdomain two labels deep is not covered", "mismatch-subdomains", 0, "trusted", "not_pinned", host="v1.api.example.com")
    case("domain itself is covered", "mismatch-subdomains", 4, "trusted", "failed", host="example.com")
    case("most specific rule wins (exact beats subdomains)", "most-specific", 0, "trusted", "satisfied", host="api.example.com")
    case("most specific rule: other subdomain takes the parent rule", "most-specific", 4, "trusted", "failed", host="www.example.com")
    case("host without a rule", "ca-intermediate", 0, "trusted", "not_pinned", host="unpinned.example.org")
    case("report-only rule reports and trusts", "report-only", 0, "trusted", "failed_report_only", formats=("json",))
    case("expired rule is not enforced", "expired-rule", 0, "trusted", "rule_expired", formats=("json",))
    case("appended pinned CA gains nothing", "ca-intermediate", 4, "trusted", "failed",
         chain="certs/appended-ca-chain.pem", roots=("certs/root.pem", "certs/other-root.pem"), diagnostic="pinned_certificate_not_on_path")
    case("pinned certificate expired and replaced", "ca-intermediate", 4, "trusted", "failed",
         chain="certs/expired-pinned-chain.pem", roots=("certs/root.pem", "certs/other-root.pem"), diagnostic="pin_matches_expired_certificate")
    case("single pin refused in Tack JSON", "single-pin", 1, None, None, formats=("json",))
    case("single pin accepted with a warning in Info.plist", "single-pin", 0, "trusted", "satisfied", formats=("plist",), diagnostic="missing_backup_pin")
    case("single pin waived explicitly", "single-pin-waived", 0, "trusted", "satisfied", formats=("json",))
    case("raw-key hash pin named in diagnostics", "raw-key-hash", 4, "trusted", "failed", diagnostic="raw_key_hash")
    case("cross-signed: only the alternative path satisfies the pins", "cross-signed", 0, "trusted", "satisfied",
         chain="certs/cross-signed-chain.pem", roots=("certs/root.pem", "certs/new-root.pem"))
    case("OkHttp **. pattern covers any depth", "okhttp-any-depth", 4, "trusted", "failed", host="v1.api.example.com", formats=("json",))
    case("whole-certificate pin of the intermediate, with a renewal warning", "whole-certificate", 0, "trusted", "satisfied",
         formats=("json",), diagnostic="whole_certificate_pins")
    case("malformed policy", "malformed", 1, None, None, formats=("json",))
    case("README example chain, pins hold", "example", 0, "trusted", "satisfied", host="www.example.com",
         chain="../certs/chain-example.pem", roots=("../certs/chain-root.pem",))
    case("README example chain, wrong pins", "example-wrong", 4, "trusted", "failed", host="www.example.com",
         chain="../certs/chain-example.pem", roots=("../certs/chain-root.pem",), formats=("json",))
    write("manifest.json", "[\n" + ",\n".join("  " + json.dumps(c) for c in cases) + "\n]\n")
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
