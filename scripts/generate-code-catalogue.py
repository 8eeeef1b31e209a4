#!/usr/bin/env python3
"""The catalogue of every error and warning code (issue 30).

Reads each `public var code: String` of the library modules (and the `tack`
command's own codes) and writes Sources/TackTrust/TackTrust.docc/ErrorCodes.md: a
table per error type with each code, what it means (the doc comment of its case)
and what to do (per type, below). `--check` fails when the committed article is
not what the sources give, so a code added without its entry fails the build
(scripts/check.sh step 1).

    python3 scripts/generate-code-catalogue.py          # rewrite the article
    python3 scripts/generate-code-catalogue.py --check  # fail if it is out of date
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources/TackTrust/TackTrust.docc/ErrorCodes.md")
MODULES = ["TackDER", "TackSHA2", "TackCipher", "TackX509", "TackSignature", "TackFormats", "TackTrust", "TackPKCS12"]
CODE = re.compile(r"^(\s*)public var code: String \{(.*)$")
CASE = re.compile(r'^\s*case \.(\w+)(?:\([^)]*\))?(?:, \.\w+(?:\([^)]*\))?)*:\s*(?:name = |return |text = )?(.+?)\s*$')
LITERAL = re.compile(r'"([a-z0-9_.]*)"')
TYPE = re.compile(r"^(\s*)(?:public |internal )?(?:enum|struct|extension|final class) ([\w.]+)")

# What to do, per error type: the codes of one type share a remedy.
ADVICE = {
    "DERError": "The input is not strict DER (X.690). Re-encode it with a conforming encoder; Tack does not accept BER in certificates, CRLs or OCSP responses (README, leniencies).",
    "X509Error": "The certificate (or CRL, OCSP response) breaks RFC 5280's structure. Reissue it; if a public CA issued it, report it to the CA.",
    "SignatureError": "The key or signature is malformed or uses what Tack does not support; check the algorithm and key size named in the message.",
    "PrivateKeyError": "The private key file is not one Tack reads: check its format (PKCS #8, SEC 1, PKCS #1) and that it is not encrypted.",
    "CipherError": "The encrypted data or its parameters are damaged, or the passphrase is wrong.",
    "HashError": "A key-derivation parameter is out of range; check the iteration count and key length.",
    "PropertyListError": "The property list does not parse; open it with `plutil -lint` and fix what the location points at.",
    "JSONError": "The JSON document does not parse; fix what the location points at (RFC 8259).",
    "PKCS12Error": "The PKCS #12 file is damaged, uses a scheme Tack does not read, or the passphrase is wrong; re-export it (`openssl pkcs12 -export`).",
    "BERError": "The PKCS #12 file's BER is malformed; re-export the file.",
    "TrustFailure": "The chain is not trusted for this host and time: the message names the certificate; fix the chain the server sends, the anchors, or the host name.",
    "TrustDecision": "The decision: `trusted`, `pin_mismatch`, or the first failure's code.",
    "PeerHostError": "The host name or address is not valid; give a DNS name (A-labels for non-ASCII names) or an IP address.",
    "PinPolicyIssue": "The pin policy has a problem; the location says where. Fix the policy before shipping it.",
    "PinPolicyFormatError": "The pin policy document has the wrong shape; compare it with the format in the README.",
    "PinDiagnostic": "A pinning configuration that works today but is fragile; follow the message's advice.",
    "PinEvaluation.Outcome": "The pin check's outcome.",
    "RandomSourceError": "The entropy source failed; check the application's random generator.",
}


def doc_before(lines, index):
    """The doc comment above line `index`, joined."""
    text = []
    i = index - 1
    while i >= 0 and lines[i].strip().startswith("///"):
        text.insert(0, lines[i].strip()[3:].strip())
        i -= 1
    return " ".join(t for t in text if t).split(". ")[0].rstrip(".") if text else ""


def declaration_doc(lines, name, before):
    """The doc comment of the case `name` declared nearest above line `before`
    (or anywhere in the file when none is above)."""
    pattern = re.compile(r"^\s*case " + re.escape(name) + r"\b")
    found = [i for i, line in enumerate(lines) if pattern.match(line)]
    if not found:
        return ""
    above = [i for i in found if i < before]
    return doc_before(lines, (above or found)[-1])


def owner(lines, index):
    indent = len(lines[index]) - len(lines[index].lstrip())
    for i in range(index - 1, -1, -1):
        match = TYPE.match(lines[i])
        if match and len(match.group(1)) < indent:
            return match.group(2)
    return "?"


def catalogue():
    tables = []
    for module in MODULES:
        folder = os.path.join(ROOT, "Sources", module)
        for directory, _, files in sorted(os.walk(folder)):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                lines = open(path, encoding="utf-8").read().split("\n")
                for index, line in enumerate(lines):
                    match = CODE.match(line)
                    if not match:
                        continue
                    typename = owner(lines, index)
                    rows = []
                    rest = match.group(2).strip()
                    if rest.endswith("}"):  # a one-line code: a prefix and a wrapped code
                        literal = LITERAL.search(rest)
                        if literal:
                            rows.append((literal.group(1) + "…", "the prefix of every code of this type, followed by its reason's code", ))
                    else:
                        indent = len(match.group(1))
                        i = index + 1
                        while i < len(lines) and not (lines[i].strip() == "}" and len(lines[i]) - len(lines[i].lstrip()) == indent):
                            case = CASE.match(lines[i])
                            if case:
                                literal = LITERAL.search(case.group(2))
                                if literal:
                                    code = literal.group(1)
                                    if "+" in case.group(2):
                                        code += "…"
                                    rows.append((code, declaration_doc(lines, case.group(1), index)))
                            i += 1
                    if rows:
                        tables.append((module, typename, os.path.relpath(path, ROOT), rows))
    return tables


def render(tables):
    out = ["# Error and warning codes", "",
           "Every code Tack's errors, failures and warnings carry, by type.", "",
           "## Overview", "",
           "A code is stable: snake_case words, and where an error wraps a lower layer's "
           "error, its own code, a dot and the wrapped code (`der.trailing_data`, "
           "`invalid_extension.empty_sequence`). The `tack` command prints the library's "
           "codes as they are, in brackets after a message and in the `code` fields of its "
           "JSON. Payloads (offsets, OIDs, bit counts) are in the error values and messages, "
           "never in the code. A code ending in `…` is continued by the wrapped error's code.", "",
           "This article is generated from the sources by `scripts/generate-code-catalogue.py`; "
           "`scripts/check.sh` fails when a code is added without its entry.", ""]
    for module, typename, path, rows in tables:
        out.append("### %s (%s)" % (typename, module))
        out.append("")
        advice = ADVICE.get(typename) or ADVICE.get(typename.split(".")[0]) or ""
        if advice:
            out.append("What to do: " + advice)
            out.append("")
        out.append("| Code | Meaning |")
        out.append("| --- | --- |")
        for code, meaning in rows:
            out.append("| `%s` | %s |" % (code, meaning.replace("|", "\\|").replace("``", "`") or "—"))
        out.append("")
    return "\n".join(out)


def main():
    text = render(catalogue())
    if "--check" in sys.argv:
        current = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if current != text:
            print("%s is out of date (a code without its entry?): run python3 scripts/generate-code-catalogue.py" % os.path.relpath(OUT, ROOT))
            return 1
        return 0
    open(OUT, "w", encoding="utf-8").write(text)
    print("wrote", os.path.relpath(OUT, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
