#!/usr/bin/env python3
"""The catalogue of every error and warning code (issue 30).

Reads each `var code: String` of the library modules and writes
Sources/TackTrust/TackTrust.docc/ErrorCodes.md: a table per error type with each
code, what it means (the doc comment of its case) and what to do (per type,
below). From the same scan it writes the `enum` of every code the `tack`
command's JSON can carry into each schema of Vectors/cli-schemas (`$defs/code`):
the library's codes with every wrapped code spelled out (`der.` followed by each
DERError.Reason code, ...) and the command's own (`code: "..."` in Sources/tack,
InputKind's codes). `--check` fails when the committed article or a schema is not
what the sources give, so a code added without its entry fails the build
(scripts/check.sh step 1), and the CLI tests, which validate every JSON document
against its schema, reject a code the schema does not list.

    python3 scripts/generate-code-catalogue.py          # rewrite the article
    python3 scripts/generate-code-catalogue.py --check  # fail if it is out of date
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources/TackTrust/TackTrust.docc/ErrorCodes.md")
MODULES = ["TackDER", "TackDigest", "TackCipher", "TackX509", "TackSignature", "TackFormats", "TackTrust", "TackPKCS12", "TackTLS"]
SCHEMAS = os.path.join(ROOT, "Vectors/cli-schemas")
CODE = re.compile(r"^(\s*)(?:public )?var code: String \{(.*)$")
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
                            rows.append((literal.group(1) + "…", "the prefix of every code of this type, followed by its reason's code",
                                         wrapped(lines, typename, None, rest)))
                    else:
                        indent = len(match.group(1))
                        i = index + 1
                        while i < len(lines) and not (lines[i].strip() == "}" and len(lines[i]) - len(lines[i].lstrip()) == indent):
                            case = CASE.match(lines[i])
                            if case:
                                literal = LITERAL.search(case.group(2))
                                if literal:
                                    code = literal.group(1)
                                    inner = None
                                    if "+" in case.group(2):
                                        code += "…"
                                        inner = wrapped(lines, typename, case.group(1), case.group(2), lines[i])
                                    rows.append((code, declaration_doc(lines, case.group(1), index), inner))
                            i += 1
                    if rows:
                        tables.append((module, typename, os.path.relpath(path, ROOT), rows))
                tables.extend(raw_value_tables(module, path, lines))
    return tables


RAW_ENUM = re.compile(r"^(\s*)(?:public )?enum (\w+): String\b")
RAW_CASE = re.compile(r'^\s*case (\w+)(?: = "([a-z0-9_.]+)")?\s*$')


def raw_value_tables(module, path, lines):
    """The `String` raw-value enums of a file (a code that is `reason.rawValue`),
    kept apart from the article: only the schemas' expansion reads them."""
    found = []
    for index, line in enumerate(lines):
        match = RAW_ENUM.match(line)
        if not match:
            continue
        indent, name = len(match.group(1)), match.group(2)
        parent = owner(lines, index)
        rows = []
        for inner in lines[index + 1:]:
            if inner.strip() == "}" and len(inner) - len(inner.lstrip()) == indent:
                break
            case = RAW_CASE.match(inner)
            if case:
                rows.append((case.group(2) or case.group(1), "", None))
        found.append((module, (parent + "." if parent != "?" else "") + name, None, rows))
    return found


PAYLOAD = re.compile(r"\.(\w+)\.(code|rawValue)\b|\b(\w+)\.(code|rawValue)\b")


def wrapped(lines, typename, case, expression, pattern_line=""):
    """The type whose codes follow a prefix: the payload of `case` (or the
    `reason` property for a one-line code), with `.reason` followed where the
    expression reads `error.reason.code`."""
    tail = expression.split("+", 1)[1] if "+" in expression else expression
    parts = re.findall(r"\w+", tail)
    if case is None:
        declared = property_type(lines, parts[0])
        rest = parts[1:]
    else:
        bindings = re.search(r"case \.\w+\(([^)]*)\)", pattern_line)
        names = [b.strip().split()[-1] for b in bindings.group(1).split(",")] if bindings else [parts[0]]
        position = names.index(parts[0]) if parts[0] in names else 0
        declared = case_payload_type(lines, case, position)
        rest = parts[1:]
    if declared is None:
        return None
    if rest and rest[-1] not in ("code", "rawValue"):  # `alert.name`: a property's values
        return (typename, declared, rest[:-1], rest[-1])
    chain = [p for p in rest if p not in ("code", "rawValue")]
    return (typename, declared, chain, None)


def property_type(lines, name):
    pattern = re.compile(r"^\s*(?:public )?(?:let|var) " + re.escape(name) + r": ([\w.]+)")
    for line in lines:
        match = pattern.match(line)
        if match:
            return match.group(1)
    return None


def case_payload_type(lines, case, position=0):
    pattern = re.compile(r"^\s*case " + re.escape(case) + r"\(([^)]*)\)")
    for line in lines:
        match = pattern.match(line)
        if match:
            payloads = match.group(1).split(",")
            if position < len(payloads):
                return payloads[position].split(":")[-1].strip()
    return None


def property_values(typename, accessor):
    """The values of a `String` property that switches over a byte (TLSAlert.name):
    each `case N: "literal"`, and for a `default: "prefix" + String(...)` the prefix
    with each other byte value (0 to 255)."""
    declaration = re.compile(r"^\s*public (?:struct|enum) " + re.escape(typename) + r"\b")
    for module in MODULES:
        for directory, _, files in sorted(os.walk(os.path.join(ROOT, "Sources", module))):
            for name in sorted(files):
                lines = open(os.path.join(directory, name), encoding="utf-8").read().split("\n")
                if not any(declaration.match(line) for line in lines):
                    continue
                start = [i for i, line in enumerate(lines) if re.match(r"^\s*public var " + accessor + r": String \{", line)]
                if not start:
                    continue
                values, named, prefix = [], set(), None
                for line in lines[start[0] + 1:]:
                    if line.strip() == "}":
                        break
                    case = re.match(r'^\s*case (\d+): "([a-z0-9_]+)"', line)
                    if case:
                        named.add(int(case.group(1)))
                        values.append(case.group(2))
                    default = re.match(r'^\s*default: "([a-z0-9_]+)" \+ String\(', line)
                    if default:
                        prefix = default.group(1)
                if prefix is not None:
                    values += [prefix + str(n) for n in range(256) if n not in named]
                return values
    raise SystemExit("generate-code-catalogue: no values for %s.%s" % (typename, accessor))


def resolve(tables, context, name):
    """The table a type name means where `context` (a type) uses it."""
    names = {t[1]: t for t in tables}
    candidates = [context + "." + name, context.split(".")[0] + "." + name, name]
    for candidate in candidates:
        if candidate in names:
            return names[candidate]
    ends = [t for t in tables if t[1].endswith("." + name)]
    return ends[0] if len(ends) == 1 else None


def codes_of(tables, table, seen=()):
    """Every concrete code a type's `code` can give, wrapped codes spelled out."""
    if table[1] in seen:
        raise SystemExit("generate-code-catalogue: %s wraps itself" % table[1])
    out = []
    for code, _, inner in table[3]:
        if not code.endswith("…"):
            out.append(code)
            continue
        if inner is None:
            raise SystemExit("generate-code-catalogue: cannot tell what follows %s in %s" % (code, table[1]))
        context, declared, chain, accessor = inner
        if accessor is not None:
            out.extend(code[:-1] + value for value in property_values(declared, accessor))
            continue
        target = resolve(tables, context, declared)
        for step in chain:  # error.reason.code: the type of the property `reason`
            if target is None:
                break
            lines = open(os.path.join(ROOT, target[2]), encoding="utf-8").read().split("\n") if target[2] else []
            declared_step = property_type(lines, step)
            target = resolve(tables, target[1], declared_step) if declared_step else None
        if target is None:
            raise SystemExit("generate-code-catalogue: no codes for %s (%s) in %s" % (code, declared, table[1]))
        out.extend(code[:-1] + inner_code for inner_code in codes_of(tables, target, seen + (table[1],)))
    return out


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
           "`scripts/check.sh` fails when a code is added without its entry. The same scan "
           "writes the `code` enum of each JSON Schema of the `tack` command's output "
           "(`Vectors/cli-schemas`, `$defs/code`: these codes with every wrapped code spelled "
           "out, and the command's own), so the CLI tests reject a code no schema lists.", ""]
    for module, typename, path, rows in tables:
        if path is None:  # a raw-value enum read for the schemas only
            continue
        out.append("### %s (%s)" % (typename, module))
        out.append("")
        advice = ADVICE.get(typename) or ADVICE.get(typename.split(".")[0]) or ""
        if advice:
            out.append("What to do: " + advice)
            out.append("")
        out.append("| Code | Meaning |")
        out.append("| --- | --- |")
        for code, meaning, _ in rows:
            out.append("| `%s` | %s |" % (code, meaning.replace("|", "\\|").replace("``", "`") or "—"))
        out.append("")
    return "\n".join(out)


CLI_CODE = re.compile(r'\bcode: "([a-z0-9_.]+)"')
# A code and its message as a pair (`return ("raw_key_wrong_length", message)`,
# `notes.append(("crl_unmatched", "..."))`), and a switch that maps cases to codes
# (`case .publicKeyNotDerivable: "public_key_not_derivable"`).
CLI_PAIR = re.compile(r'\(\s*"([a-z][a-z0-9]*(?:_[a-z0-9]+)+)",\s*["\w\\]')
CLI_CASE = re.compile(r'^\s*case [^:]+:\s*"([a-z][a-z0-9]*(?:_[a-z0-9]+)+)"\s*$', re.M)
SCHEMA_CODES = re.compile(
    r'("code": \{\n(\s*)"description": "[^"\n]*generated by scripts/generate-code-catalogue\.py[^"\n]*",\n\s*"enum": \[)(.*?)(\n\s*\])',
    re.S)


def command_codes():
    """The `tack` command's own codes: each `code: "..."` literal in Sources/tack,
    each (code, message) pair and case-to-code switch there (CLI_PAIR, CLI_CASE),
    CLIError's defaults (`bad_input`, `usage`) and each `var code` table."""
    found = {"bad_input", "usage"}
    folder = os.path.join(ROOT, "Sources/tack")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".swift"):
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            found.update(CLI_CODE.findall(text))
            found.update(CLI_PAIR.findall(text))
            found.update(CLI_CASE.findall(text))
            lines = text.split("\n")
            for index, line in enumerate(lines):
                if CODE.match(line) and not CODE.match(line).group(2).strip():
                    for inner in lines[index + 1:]:
                        if inner.strip() == "}":
                            break
                        case = CASE.match(inner)
                        literal = LITERAL.search(case.group(2)) if case else None
                        if literal:
                            found.add(literal.group(1))
    return found


def all_codes(tables):
    codes = set(command_codes())
    # A nested type another type's code wraps (DERError.Reason under `der.`) is
    # printed only wrapped; an error type (X509Error, TrustFailure) is printed both
    # on its own and wrapped (`invalid_certificate.x509.`, `tls.untrusted.`).
    wrapped_names = set()
    for table in tables:
        for _, _, inner in table[3]:
            if inner is not None and inner[3] is None:
                target = resolve(tables, inner[0], inner[1])
                if target is not None:
                    wrapped_names.add(target[1])
    for table in tables:
        if table[2] is not None and not (table[1] in wrapped_names and "." in table[1]):
            codes.update(codes_of(tables, table))
    bad = sorted(c for c in codes if not re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)*", c))
    if bad:
        raise SystemExit("generate-code-catalogue: codes that are not snake_case: " + ", ".join(bad))
    return sorted(codes)


def schema_texts(codes):
    """Each schema's text with its `$defs/code` enum set to `codes`."""
    out = {}
    for name in sorted(os.listdir(SCHEMAS)):
        if not name.endswith(".schema.json"):
            continue
        path = os.path.join(SCHEMAS, name)
        text = open(path, encoding="utf-8").read()
        match = SCHEMA_CODES.search(text)
        if not match:
            continue
        indent = match.group(2) + "  "
        lines, line = [], ""
        for code in codes:
            item = '"%s",' % code
            if line and len(indent) + len(line) + 1 + len(item) > 100:
                lines.append(indent + line)
                line = ""
            line = (line + " " + item) if line else item
        lines.append(indent + line.rstrip(","))
        out[path] = text[:match.start(3)] + "\n" + "\n".join(lines) + text[match.end(3):]
    return out


def main():
    tables = catalogue()
    text = render(tables)
    schemas = schema_texts(all_codes(tables))
    if "--check" in sys.argv:
        current = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        stale = [] if current == text else [OUT]
        stale += [path for path, new in schemas.items() if open(path, encoding="utf-8").read() != new]
        if stale:
            print("out of date (a code without its entry?): %s; run python3 scripts/generate-code-catalogue.py"
                  % ", ".join(os.path.relpath(p, ROOT) for p in stale))
            return 1
        return 0
    open(OUT, "w", encoding="utf-8").write(text)
    print("wrote", os.path.relpath(OUT, ROOT))
    for path, new in schemas.items():
        open(path, "w", encoding="utf-8").write(new)
        print("wrote", os.path.relpath(path, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
