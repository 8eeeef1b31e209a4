#!/usr/bin/env python3
"""Generates the Certificate Transparency vectors of Vectors/ct (see README.md).

Requires Python `cryptography` (48 was used). Run from anywhere:

    python3 Vectors/ct/generate.py

Everything in Vectors/ct except README.md, this script and keys/ is rewritten, byte
for byte the same on every run: the EC keys are derived from fixed scalars, the one
RSA log key is generated once into keys/rsa-log.key.pem (a test key) and reused, and
every ECDSA signature (certificates and SCTs) is deterministic (RFC 6979).

The script plays the CA and the logs. It writes:
- ca.der: a P-256 root CA, the issuer of every leaf;
- loglist.json: a v3 log list (the schema of Chrome's log_list.json and Apple's
  current_log_list.json) with logs of every state, two of them tiled, an RSA log, and
  members the schema does not define (which readers ignore);
- certs/<case>.der: leaves with embedded SCTs, signed by the logs over the
  precertificate entry (RFC 6962 §3.2: the leaf's TBSCertificate without the SCT list
  extension, and the SHA-256 of ca.der's SubjectPublicKeyInfo); the SCT extension
  sits between other extensions, so that a reader must remove exactly it;
- tls/<case>.bin: SCT lists as the TLS extension carries them (X.509 entry);
- ocsp/<case>.der: OCSP responses signed by the CA, "good" for the leaf, with SCTs
  (X.509 entry) in the single response's extension 1.3.6.1.4.1.11129.2.4.5;
- loglists/<name>.json: malformed log lists;
- manifest.txt: one `[case NAME]` per case: `chain`, `ocsp`, `tls`, `time`, the expected
  statuses of the SCTs in report order (`statuses`), and per policy (`apple`,
  `chrome`) `compliant` or the failure code; `[loglist NAME]` cases give the
  expected CTLogListError code (`error`).
"""

import base64
import datetime
import hashlib
import json
import os
import struct
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID, ObjectIdentifier

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from derwriter import integer, octets, oid, seq, tlv  # noqa: E402 (Vectors/derwriter.py, shared)
UTC = datetime.timezone.utc

NOT_BEFORE = datetime.datetime(2026, 1, 1, tzinfo=UTC)
CHECK_TIME = datetime.datetime(2026, 6, 1, tzinfo=UTC)
LIST_TIME = datetime.datetime(2026, 5, 20, tzinfo=UTC)
STATE_TIME = datetime.datetime(2025, 1, 1, tzinfo=UTC)
RETIRED_AT = datetime.datetime(2026, 1, 1, 12, tzinfo=UTC)
SCT_TIME = datetime.datetime(2026, 1, 1, 1, tzinfo=UTC)   # before RETIRED_AT
LATE_SCT_TIME = datetime.datetime(2026, 1, 2, tzinfo=UTC)  # after RETIRED_AT
SCT_OID = ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")


def seconds(moment):
    return int(moment.timestamp())


def rfc3339(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def ec_key(scalar):
    return ec.derive_private_key(scalar, ec.SECP256R1())


def rsa_log_key():
    path = os.path.join(HERE, "keys", "rsa-log.key.pem")
    if os.path.exists(path):
        with open(path, "rb") as f:
            return serialization.load_pem_private_key(f.read(), None)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    return key


def spki(key):
    return key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


class Log:
    def __init__(self, name, operator, key, state, state_time=STATE_TIME, listed=True, tiled=False):
        self.name, self.operator, self.key = name, operator, key
        self.state, self.state_time, self.listed, self.tiled = state, state_time, listed, tiled
        self.log_id = hashlib.sha256(spki(key)).digest()

    def sign(self, data):
        if isinstance(self.key, rsa.RSAPrivateKey):
            return 4, 1, self.key.sign(data, padding.PKCS1v15(), hashes.SHA256())
        return 4, 3, self.key.sign(data, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))


LOGS = {log.name: log for log in [
    Log("a1", "Operator A", ec_key(0xA1), "usable"),
    Log("a2", "Operator A", ec_key(0xA2), "qualified"),
    Log("a3", "Operator A", ec_key(0xA3), "usable", tiled=True),
    Log("b1", "Operator B", ec_key(0xB1), "usable"),
    Log("c-rsa", "Operator C", rsa_log_key(), "usable"),
    Log("d-readonly", "Operator D", ec_key(0xD1), "readonly"),
    Log("e-retired", "Operator E", ec_key(0xE1), "retired", RETIRED_AT),
    Log("f-retired", "Operator F", ec_key(0xF1), "retired", RETIRED_AT, tiled=True),
    Log("g-pending", "Operator G", ec_key(0x61), "pending"),
    Log("h-rejected", "Operator H", ec_key(0x71), "rejected"),
    Log("unlisted", "Nobody", ec_key(0x81), "usable", listed=False),
]}

CA_KEY = ec_key(0xCA)
OTHER_ISSUER_KEY = ec_key(0xCB)


def ca_certificate():
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Tack CT Test Root")])
    builder = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(CA_KEY.public_key())
               .serial_number(1).not_valid_before(datetime.datetime(2025, 1, 1, tzinfo=UTC))
               .not_valid_after(datetime.datetime(2035, 1, 1, tzinfo=UTC))
               .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
               .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(CA_KEY.public_key()), critical=False))
    return builder.sign(CA_KEY, hashes.SHA256(), ecdsa_deterministic=True)


def tls_vector(data):
    return struct.pack(">H", len(data)) + data


def serialize_sct(log, timestamp_ms, entry, version=0, extensions=b""):
    """An SCT v1 (RFC 6962 §3.2) by `log` over `entry` (entry_type + signed_entry)."""
    signed = bytes([0, 0]) + struct.pack(">Q", timestamp_ms) + entry + tls_vector(extensions)
    hash_id, sig_id, signature = log.sign(signed)
    return (bytes([version]) + log.log_id + struct.pack(">Q", timestamp_ms) + tls_vector(extensions)
            + bytes([hash_id, sig_id]) + tls_vector(signature))


def sct_list(scts):
    body = b"".join(tls_vector(sct) for sct in scts)
    return tls_vector(body)


def der_octet_string(data):
    length = len(data)
    if length < 0x80:
        header = bytes([0x04, length])
    elif length < 0x100:
        header = bytes([0x04, 0x81, length])
    else:
        header = bytes([0x04, 0x82]) + struct.pack(">H", length)
    return header + data


def u24(data):
    return struct.pack(">I", len(data))[1:] + data


def precert_entry(tbs, issuer_key):
    return bytes([0, 1]) + hashlib.sha256(spki(issuer_key)).digest() + u24(tbs)


def x509_entry(der):
    return bytes([0, 0]) + u24(der)


def leaf_builder(name, days, serial):
    """The leaf's builder up to the extensions before the SCT list; `days` is the
    lifetime as the policies count it (notBefore to notAfter inclusive)."""
    key = ec_key(0x1000 + serial)
    not_after = NOT_BEFORE + datetime.timedelta(days=days) - datetime.timedelta(seconds=1)
    builder = (x509.CertificateBuilder()
               .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name + ".ct.example")]))
               .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Tack CT Test Root")]))
               .public_key(key.public_key()).serial_number(serial)
               .not_valid_before(NOT_BEFORE).not_valid_after(not_after)
               .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(CA_KEY.public_key()), critical=False)
               .add_extension(x509.SubjectAlternativeName([x509.DNSName(name + ".ct.example")]), critical=False))
    return builder


def finish(builder):
    return builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)


def make_leaf(name, days, serial, embedded):
    """A leaf whose SCT list holds one SCT per `embedded` item: (log, time, mode),
    mode `precert` (correct), `x509` (wrong entry type), `issuer` (wrong issuer key
    hash), `v2` (version 1 octet: malformed)."""
    precert = finish(leaf_builder(name, days, serial)).sign(CA_KEY, hashes.SHA256(), ecdsa_deterministic=True)
    tbs = precert.tbs_certificate_bytes
    if not embedded:
        return precert, None
    scts = []
    for log, moment, mode in embedded:
        millis = seconds(moment) * 1000
        if mode == "x509":
            entry = x509_entry(precert.public_bytes(serialization.Encoding.DER))
        elif mode == "issuer":
            entry = precert_entry(tbs, OTHER_ISSUER_KEY)
        else:
            entry = precert_entry(tbs, CA_KEY)
        scts.append(serialize_sct(LOGS[log], millis, entry, version=1 if mode == "v2" else 0))
    value = der_octet_string(sct_list(scts))
    builder = leaf_builder(name, days, serial).add_extension(x509.UnrecognizedExtension(SCT_OID, value), critical=False)
    final = finish(builder).sign(CA_KEY, hashes.SHA256(), ecdsa_deterministic=True)
    return final, tbs


def ocsp_response(leaf, ca, scts):
    """A successful OCSP response (RFC 6960 §4.2.1), signed by the CA, saying "good"
    for `leaf` with the SCT list `scts` in the single response's extension
    1.3.6.1.4.1.11129.2.4.5 (RFC 6962 §3.3). Written with Vectors/derwriter.py:
    Python `cryptography` cannot put an extension in a single response."""
    def generalized(moment):
        return tlv(0x18, moment.strftime("%Y%m%d%H%M%SZ").encode())
    spki_der = ca.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    key_bits = spki_der[-65:]  # the P-256 point: the subjectPublicKey BIT STRING's value
    cert_id = seq(seq(oid("1.3.14.3.2.26"), tlv(0x05, b"")),
                  octets(hashlib.sha1(ca.subject.public_bytes()).digest()),
                  octets(hashlib.sha1(key_bits).digest()),
                  integer(leaf.serial_number))
    extension = seq(oid("1.3.6.1.4.1.11129.2.4.5"), octets(octets(scts)))
    single = seq(cert_id, tlv(0x80, b""), generalized(CHECK_TIME - datetime.timedelta(days=1)),
                 tlv(0xA0, generalized(CHECK_TIME + datetime.timedelta(days=6))),
                 tlv(0xA1, seq(extension)))
    responder = tlv(0xA2, octets(hashlib.sha1(key_bits).digest()))
    tbs = seq(responder, generalized(CHECK_TIME - datetime.timedelta(days=1)), seq(single))
    signature = CA_KEY.sign(tbs, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    basic = seq(tbs, seq(oid("1.2.840.10045.4.3.2")), tlv(0x03, b"\x00" + signature))
    return seq(tlv(0x0A, b"\x00"), tlv(0xA0, seq(oid("1.3.6.1.5.5.7.48.1.1"), octets(basic))))


def log_list():
    operators = {}
    for log in LOGS.values():
        if not log.listed:
            continue
        entry = {
            "description": "Tack test log " + log.name,
            "log_id": base64.b64encode(log.log_id).decode(),
            "key": base64.b64encode(spki(log.key)).decode(),
            "mmd": 86400,
            "state": {log.state: {"timestamp": rfc3339(log.state_time)}},
            "temporal_interval": {"start_inclusive": "2026-01-01T00:00:00Z", "end_exclusive": "2027-01-01T00:00:00Z"},
            "unknown_future_member": [1, 2, 3],
        }
        if log.tiled:
            entry["submission_url"] = "https://" + log.name + ".ct.example/"
            entry["monitoring_url"] = "https://" + log.name + ".ct.example/monitor/"
        else:
            entry["url"] = "https://" + log.name + ".ct.example/"
        operator = operators.setdefault(log.operator, {"name": log.operator, "email": ["ct@example.com"],
                                                       "logs": [], "tiled_logs": []})
        operator["tiled_logs" if log.tiled else "logs"].append(entry)
    return {"version": "1.0", "log_list_timestamp": rfc3339(LIST_TIME), "operators": list(operators.values())}


def write(path, data):
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data)


def main():
    ca = ca_certificate()
    write("ca.der", ca.public_bytes(serialization.Encoding.DER))
    document = log_list()
    write("loglist.json", (json.dumps(document, indent=2) + "\n").encode())

    P, LATE = SCT_TIME, LATE_SCT_TIME
    FUTURE = CHECK_TIME + datetime.timedelta(days=1)
    # name, days, embedded [(log, time, mode)], tls [[(log, time)]] (lists), statuses, apple, chrome, comment
    cases = [
        ("lifetime-180-two-operators", 180, [("a1", P, "precert"), ("b1", P, "precert")], [],
         "valid valid", "compliant", "compliant", "180 days: 2 SCTs of 2 operators"),
        ("lifetime-180-one-operator", 180, [("a1", P, "precert"), ("a2", P, "precert")], [],
         "valid valid", "too_few_operators", "too_few_operators", "180 days: Apple counts 1 per operator, Chrome needs 2 operators"),
        ("lifetime-181-two-scts", 181, [("a1", P, "precert"), ("b1", P, "precert")], [],
         "valid valid", "too_few_scts", "too_few_scts", "181 days needs 3"),
        ("lifetime-181-three-scts", 181, [("a1", P, "precert"), ("a2", P, "precert"), ("b1", P, "precert")], [],
         "valid valid valid", "compliant", "compliant", "181 days: 3 SCTs, at most 2 per operator"),
        ("lifetime-181-one-operator", 181, [("a1", P, "precert"), ("a2", P, "precert"), ("a3", P, "precert")], [],
         "valid valid valid", "too_few_operators", "too_few_operators", "181 days: 3 SCTs of one operator (Apple caps at 2)"),
        ("retired-after-sct", 180, [("a1", P, "precert"), ("e-retired", P, "precert")], [],
         "valid valid", "compliant", "compliant", "a log retired after the SCT counts as once approved"),
        ("retired-before-sct", 180, [("a1", LATE, "precert"), ("e-retired", LATE, "precert")], [],
         "valid log_not_approved", "too_few_scts", "too_few_scts", "a log retired before the SCT does not count"),
        ("no-currently-approved", 180, [("e-retired", P, "precert"), ("f-retired", P, "precert")], [],
         "valid valid", "no_currently_approved_sct", "compliant", "Apple needs one embedded SCT of a currently approved log"),
        ("readonly", 180, [("a1", P, "precert"), ("d-readonly", P, "precert")], [],
         "valid valid", "compliant", "compliant", "readonly is currently approved"),
        ("pending", 180, [("a1", P, "precert"), ("g-pending", P, "precert")], [],
         "valid log_not_approved", "too_few_scts", "too_few_scts", "pending never counts"),
        ("rejected", 180, [("a1", P, "precert"), ("h-rejected", P, "precert")], [],
         "valid log_not_approved", "too_few_scts", "too_few_scts", "rejected never counts"),
        ("unknown-log", 180, [("a1", P, "precert"), ("unlisted", P, "precert")], [],
         "valid unknown_log", "too_few_scts", "too_few_scts", "a log not in the list"),
        ("wrong-issuer-key-hash", 180, [("a1", P, "precert"), ("b1", P, "issuer")], [],
         "valid invalid_signature", "too_few_scts", "too_few_scts", "issuer_key_hash of another key"),
        ("wrong-entry-type", 180, [("a1", P, "precert"), ("b1", P, "x509")], [],
         "valid invalid_signature", "too_few_scts", "too_few_scts", "an embedded SCT over the X.509 entry"),
        ("future-timestamp", 180, [("a1", P, "precert"), ("b1", FUTURE, "precert")], [],
         "valid future_timestamp", "too_few_scts", "too_few_scts", "an SCT one day after the check time"),
        ("rsa-log", 180, [("a1", P, "precert"), ("c-rsa", P, "precert")], [],
         "valid valid", "compliant", "compliant", "an RSA PKCS #1 v1.5 log"),
        ("malformed-sct", 180, [("a1", P, "precert"), ("b1", P, "v2"), ("c-rsa", P, "precert")], [],
         "valid malformed valid", "compliant", "compliant", "a version 2 SCT is malformed, the others count"),
        ("tls-only", 180, [], [[("a1", P), ("b1", P)]],
         "valid valid", "compliant", "compliant", "two TLS SCTs of two operators"),
        ("tls-only-one-operator", 180, [], [[("a1", P), ("a2", P)]],
         "valid valid", "compliant", "too_few_operators", "Chrome needs two operators for TLS SCTs"),
        ("tls-only-one-sct", 180, [], [[("a1", P)]],
         "valid", "too_few_scts", "too_few_scts", "one TLS SCT"),
        ("mixed-sources", 180, [("a1", P, "precert")], [[("b1", P)]],
         "valid valid", "compliant", "too_few_scts", "one embedded and one TLS SCT: Apple's TLS rule, not Chrome's"),
        ("tls-over-precert", 180, [], [[("a1", P), ("b1", P)]],
         "valid invalid_signature", "too_few_scts", "too_few_scts", "a TLS SCT signed over the precertificate entry"),
        ("malformed-tls-list", 180, [], ["framing"],
         "malformed", "too_few_scts", "too_few_scts", "a TLS list whose length is wrong"),
        ("ocsp-only", 180, [], [],
         "valid valid", "compliant", "compliant", "two SCTs stapled in the OCSP response"),
        ("ocsp-and-embedded", 181, [("a1", P, "precert"), ("a2", P, "precert")], [],
         "valid valid valid", "compliant", "too_few_scts", "two embedded SCTs of one operator and one stapled: Apple's OCSP rule"),
    ]
    # The SCTs stapled in an OCSP response, per case: [(log, time)] over the X.509 entry.
    stapled = {"ocsp-only": [("a1", P), ("b1", P)], "ocsp-and-embedded": [("b1", P)]}
    lines = ["# Generated by generate.py; see its docstring for the format.", "",
             "[case loglist-valid]", "loglist = loglist.json", "timestamp = " + str(seconds(LIST_TIME)), "logs = " + str(sum(l.listed for l in LOGS.values())), ""]
    for serial, (name, days, embedded, tls, statuses, apple, chrome, comment) in enumerate(cases, start=10):
        leaf, precert_tbs = make_leaf(name, days, serial, embedded)
        der = leaf.public_bytes(serialization.Encoding.DER)
        write("certs/" + name + ".der", der)
        if precert_tbs is not None:
            write("certs/" + name + ".precert-tbs.der", precert_tbs)
        tls_files = []
        for index, items in enumerate(tls):
            if items == "framing":
                data = bytes([0x00, 0x05, 0x00, 0x10, 0x00])
            else:
                scts = []
                for position, (log, moment) in enumerate(items):
                    millis = seconds(moment) * 1000
                    if name == "tls-over-precert" and position == 1:
                        entry = precert_entry(leaf.tbs_certificate_bytes, CA_KEY)
                    else:
                        entry = x509_entry(der)
                    scts.append(serialize_sct(LOGS[log], millis, entry))
                data = sct_list(scts)
            path = "tls/%s-%d.bin" % (name, index)
            write(path, data)
            tls_files.append(path)
        ocsp_file = ""
        if name in stapled:
            scts = [serialize_sct(LOGS[log], seconds(moment) * 1000, x509_entry(der)) for log, moment in stapled[name]]
            ocsp_file = "ocsp/%s.der" % name
            write(ocsp_file, ocsp_response(leaf, ca, sct_list(scts)))
        lines += ["[case %s]" % name, "chain = certs/%s.der" % name, "ocsp = " + ocsp_file, "precert = " + ("certs/%s.precert-tbs.der" % name if precert_tbs else ""), "tls = " + " ".join(tls_files),
                  "time = %d" % seconds(CHECK_TIME), "days = %d" % days, "statuses = " + statuses,
                  "apple = " + apple, "chrome = " + chrome, "comment = " + comment, ""]

    malformed = {
        "missing-key": ("missing_member", lambda d: d["operators"][0]["logs"][0].pop("key")),
        "log-id-mismatch": ("log_id_mismatch", lambda d: d["operators"][0]["logs"][0].update(log_id=d["operators"][1]["logs"][0]["log_id"])),
        "duplicate-log": ("duplicate_log_id", lambda d: d["operators"][1]["logs"].append(d["operators"][0]["logs"][0])),
        "unknown-state": ("invalid_log_state", lambda d: d["operators"][0]["logs"][0].update(state={"frozen": {"timestamp": "2025-01-01T00:00:00Z"}})),
        "two-states": ("invalid_log_state", lambda d: d["operators"][0]["logs"][0]["state"].update(pending={"timestamp": "2025-01-01T00:00:00Z"})),
        "bad-timestamp": ("invalid_timestamp", lambda d: d.update(log_list_timestamp="2026-05-20 00:00:00")),
        "bad-base64": ("invalid_base64", lambda d: d["operators"][0]["logs"][0].update(key="not base64!")),
        "bad-key": ("invalid_log_key", lambda d: d["operators"][0]["logs"][0].update(key="AAAA", log_id=base64.b64encode(hashlib.sha256(b"\0\0\0").digest()).decode())),
        "operators-not-array": ("wrong_type", lambda d: d.update(operators={})),
    }
    for name, (code, mutate) in malformed.items():
        broken = json.loads(json.dumps(document))
        mutate(broken)
        write("loglists/%s.json" % name, (json.dumps(broken, indent=2) + "\n").encode())
        lines += ["[case loglist-%s]" % name, "loglist = loglists/%s.json" % name, "error = " + code, ""]
    write("loglists/duplicate-key.json", b'{"log_list_timestamp": "2026-05-20T00:00:00Z", "operators": [], "operators": []}\n')
    lines += ["[case loglist-duplicate-key]", "loglist = loglists/duplicate-key.json", "error = invalid_json", ""]
    write("manifest.txt", "\n".join(lines).encode())


if __name__ == "__main__":
    main()
