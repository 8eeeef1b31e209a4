#!/usr/bin/env python3
"""Regenerates the one test PKI of Vectors/tls (every loopback server, TackTLS's and the
command line's, and the recorded flights).

One RSA-2048 root and one RSA-2048 intermediate; under it a leaf per key type (RSA-2048,
ECDSA P-256, ECDSA P-384, Ed25519, and RSASSA-PSS: an id-RSASSA-PSS key, for
rsa_pss_pss_*) for localhost, 127.0.0.1 and ::1; a "big" RSA leaf whose 600 subject
alternative names make the chain span several TLS records; OCSP responses signed by the
intermediate (stapled by `openssl s_server -status_file`): good for the RSA leaf, good
and revoked for the P-256 leaf; and a serverinfo file carrying an SCT list (`openssl
s_server -serverinfo`). Validity 2026-01-01 to 2046-01-01: the tests run at fixed times
inside it. Needs Python `cryptography`, and `openssl` for the RSASSA-PSS leaf (Python's
`cryptography` has no id-RSASSA-PSS keys: `openssl ca` issues it, with the same dates and
extensions). Run: python3 Vectors/tls/pki/generate.py
"""
import base64, datetime, hashlib, ipaddress, os, shutil, struct, subprocess, tempfile
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509 import ocsp
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

os.chdir(os.path.dirname(os.path.abspath(__file__)))
START = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
END = datetime.datetime(2046, 1, 1, tzinfo=datetime.timezone.utc)


def name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def save(stem, certificate, key):
    with open(stem + ".pem", "wb") as f:
        f.write(certificate.public_bytes(serialization.Encoding.PEM))
    with open(stem + ".key", "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))


def issue(subject, key, issuer, issuer_key, ca, sans=None):
    builder = (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(START).not_valid_after(END)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))
    if issuer_key is not key:
        builder = builder.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
    if ca:
        builder = builder.add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    else:
        builder = (builder.add_extension(x509.KeyUsage(True, False, True, False, False, False, False, False, False), critical=True)
                   .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
                   .add_extension(x509.SubjectAlternativeName(sans), critical=False))
    return builder.sign(issuer_key, hashes.SHA256())


root_key = rsa.generate_private_key(65537, 2048)
root = issue("Tack TLS Test Root", root_key, "Tack TLS Test Root", root_key, True)
save("root", root, root_key)
intermediate_key = rsa.generate_private_key(65537, 2048)
intermediate = issue("Tack TLS Test Intermediate", intermediate_key, "Tack TLS Test Root", root_key, True)
save("intermediate", intermediate, intermediate_key)

base_sans = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.IPAddress(ipaddress.ip_address("::1"))]
leaves = {
    "rsa": rsa.generate_private_key(65537, 2048),
    "p256": ec.generate_private_key(ec.SECP256R1()),
    "p384": ec.generate_private_key(ec.SECP384R1()),
    "ed25519": ed25519.Ed25519PrivateKey.generate(),
    "big": rsa.generate_private_key(65537, 2048),
}
issued = {}
for kind, key in leaves.items():
    sans = base_sans + ([x509.DNSName("host-%03d.many-names.tack.invalid" % i) for i in range(600)] if kind == "big" else [])
    leaf = issue("localhost", key, "Tack TLS Test Intermediate", intermediate_key, False, sans)
    save("leaf-" + kind, leaf, key)
    with open("chain-%s.pem" % kind, "wb") as f:
        f.write(leaf.public_bytes(serialization.Encoding.PEM) + intermediate.public_bytes(serialization.Encoding.PEM))
    issued[kind] = leaf

# The RSASSA-PSS leaf: an id-RSASSA-PSS key from `openssl genpkey`, issued by `openssl
# ca` under the intermediate with the other leaves' dates and extensions.
work = tempfile.mkdtemp()
try:
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "leaf-rsapss.key"],
                   check=True, capture_output=True)
    subprocess.run(["openssl", "req", "-new", "-key", "leaf-rsapss.key", "-subj", "/CN=localhost", "-out", work + "/leaf.csr"],
                   check=True, capture_output=True)
    open(work + "/index.txt", "w").close()
    with open(work + "/serial", "w") as f:
        f.write("01\n")  # required by `openssl ca`, unused with -rand_serial
    with open(work + "/ca.cnf", "w") as f:
        f.write("[ca]\ndefault_ca = test\n[test]\ndatabase = %s/index.txt\nnew_certs_dir = %s\nserial = %s/serial\ndefault_md = sha256\n"
                "policy = any\nunique_subject = no\n[any]\ncommonName = supplied\n[leaf]\n"
                "basicConstraints = critical,CA:FALSE\nkeyUsage = critical,digitalSignature,keyEncipherment\n"
                "extendedKeyUsage = serverAuth\nsubjectAltName = DNS:localhost,IP:127.0.0.1,IP:::1\n"
                "subjectKeyIdentifier = hash\nauthorityKeyIdentifier = keyid\n" % (work, work, work))
    subprocess.run(["openssl", "ca", "-batch", "-config", work + "/ca.cnf", "-extensions", "leaf", "-in", work + "/leaf.csr",
                    "-out", "leaf-rsapss.pem", "-cert", "intermediate.pem", "-keyfile", "intermediate.key", "-notext",
                    "-rand_serial", "-startdate", "20260101000000Z", "-enddate", "20460101000000Z"], check=True, capture_output=True)
finally:
    shutil.rmtree(work)
with open("leaf-rsapss.pem", "rb") as f:
    rsapss = f.read()
with open("chain-rsapss.pem", "wb") as f:
    f.write(rsapss + intermediate.public_bytes(serialization.Encoding.PEM))


def ocsp_response(leaf, status, revoked=None):
    """An OCSP response for `leaf`, signed by its issuer (RFC 6960 §4.2.2.2), valid to 2046."""
    return (ocsp.OCSPResponseBuilder()
            .add_response(cert=leaf, issuer=intermediate, algorithm=hashes.SHA1(), cert_status=status,
                          this_update=START, next_update=END, revocation_time=revoked, revocation_reason=None)
            .responder_id(ocsp.OCSPResponderEncoding.HASH, intermediate)
            .sign(intermediate_key, hashes.SHA256())
            .public_bytes(serialization.Encoding.DER))


# Good for leaf-rsa; good and revoked (since 2026-12-01) for leaf-p256.
with open("ocsp-leaf-rsa.der", "wb") as f:
    f.write(ocsp_response(issued["rsa"], ocsp.OCSPCertStatus.GOOD))
with open("ocsp-leaf-p256.der", "wb") as f:
    f.write(ocsp_response(issued["p256"], ocsp.OCSPCertStatus.GOOD))
with open("ocsp-leaf-p256-revoked.der", "wb") as f:
    f.write(ocsp_response(issued["p256"], ocsp.OCSPCertStatus.REVOKED, datetime.datetime(2026, 12, 1, tzinfo=datetime.timezone.utc)))

# A SignedCertificateTimestampList (RFC 6962 §3.3) of one v1 SCT from a made-up log (its
# signature is well-formed, not valid: these vectors test transport, not CT policy), as
# the signed_certificate_timestamp extension (18) in a SERVERINFOV2 block whose context
# (OpenSSL's SSL_EXT_* bits) puts it in the TLS 1.2 ServerHello and the TLS 1.3 leaf
# CertificateEntry.
log_id = hashlib.sha256(b"tack test log").digest()
timestamp = 1767225600000  # 2026-01-01T00:00:00Z in milliseconds
signature = bytes([4, 3]) + struct.pack(">H", 8) + bytes([0x30, 6, 2, 1, 1, 2, 1, 1])
sct = bytes([0]) + log_id + struct.pack(">Q", timestamp) + struct.pack(">H", 0) + signature
sct_list = struct.pack(">H", len(sct) + 2) + struct.pack(">H", len(sct)) + sct
context = 0x0080 | 0x0100 | 0x1000  # ClientHello, TLS 1.2 ServerHello, TLS 1.3 Certificate
block = struct.pack(">I", context) + struct.pack(">HH", 18, len(sct_list)) + sct_list
text = base64.b64encode(block).decode()
with open("serverinfo-sct.pem", "w") as f:
    f.write("-----BEGIN SERVERINFOV2 FOR signed_certificate_timestamp-----\n"
            + "\n".join(text[i:i + 64] for i in range(0, len(text), 64))
            + "\n-----END SERVERINFOV2 FOR signed_certificate_timestamp-----\n")
with open("sct.bin", "wb") as f:
    f.write(sct)
print("Vectors/tls/pki regenerated")
