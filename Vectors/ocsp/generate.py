#!/usr/bin/env python3
"""Generates Vectors/ocsp/: OCSP responses (RFC 6960) and the certificates they are
about, with one manifest section per case (manifest.txt) giving the expected trust
verdict and failure code.

Usage: python3 Vectors/ocsp/generate.py   (needs the `cryptography` package, >= 43, and
the `openssl` command for the responses `openssl ocsp` makes over an index file)
       python3 Vectors/ocsp/generate.py --only responder-check|bench
                                          (regenerates only that group: its own folders
                                          and manifest sections; every other file stays)

Every run makes new keys, so the DER files change; the cases, policies and expected
verdicts do not. The responses made by `openssl ocsp` carry the generation time as their
thisUpdate, so the times of their cases follow it.

Manifest format, one section per case:

    [case NAME]
    anchors = FILE...          trust anchors (DER)
    chain = FILE...            what the peer sends, leaf first (DER)
    ocsp = FILE...             optional: OCSP responses the caller supplies (DER)
    crls = FILE...             optional: CRLs the caller supplies (DER)
    time = SECONDS             validation time, seconds since 1970
    revocation = none | soft | hard
    expect = trusted | CODE    CODE: a TrustFailure code (revoked, response_stale, ...)
    sources = SOURCE...        for trusted cases: each path certificate's status source
                               (ocsp, crl, none, anchor), leaf first
    notes = CODE...            for trusted cases: the soft-fail notes, in order (may be empty)
    comment = TEXT

The host of every case is dns:example.com (the leaves carry it).
"""

import datetime
import os
import sys
import shutil
import subprocess
import tempfile

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509 import ocsp
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
UTC = datetime.timezone.utc


def t(year, month=1, day=1, hour=0, minute=0, second=0):
    return datetime.datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def epoch(when):
    return int(when.timestamp())


# The validation time of the cryptography-made cases: 2025-06-01T00:00:00Z.
NOW = t(2025, 6, 1)
HOUR = datetime.timedelta(hours=1)
DAY = datetime.timedelta(days=1)


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Tack"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


class Issued:
    def __init__(self, cert, key):
        self.cert = cert
        self.key = key

    @property
    def der(self):
        return self.cert.public_bytes(serialization.Encoding.DER)

    @property
    def pem(self):
        return self.cert.public_bytes(serialization.Encoding.PEM)


def make_cert(subject, key, issuer=None, *, ca, not_before=t(2020), not_after=t(2040), eku=None,
              sans=None, must_staple=False, no_check=False, serial=None):
    """A certificate for `key` named `subject`, signed by `issuer` (an Issued) or self-signed,
    following the RFC 5280 / Baseline Requirements profile TackTrust enforces."""
    issuer_name = issuer.cert.subject if issuer else subject
    signing_key = issuer.key if issuer else key
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(serial or x509.random_serial_number())
        .not_valid_before(not_before)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    )
    usage = dict(digital_signature=not ca, content_commitment=False, key_encipherment=False,
                 data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                 encipher_only=False, decipher_only=False)
    builder = builder.add_extension(x509.KeyUsage(**usage), critical=True)
    if not ca:
        builder = builder.add_extension(
            x509.ExtendedKeyUsage(eku or [ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    if issuer:
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(signing_key.public_key()), critical=False)
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(n) for n in sans]), critical=False)
    if must_staple:
        builder = builder.add_extension(x509.TLSFeature([x509.TLSFeatureType.status_request]), critical=False)
    if no_check:
        builder = builder.add_extension(x509.OCSPNoCheck(), critical=False)
    return Issued(builder.sign(signing_key, hashes.SHA256()), key)


def new_key():
    return ec.generate_private_key(ec.SECP256R1())


REASONS = [
    ("unspecified", x509.ReasonFlags.unspecified),
    ("keyCompromise", x509.ReasonFlags.key_compromise),
    ("cACompromise", x509.ReasonFlags.ca_compromise),
    ("affiliationChanged", x509.ReasonFlags.affiliation_changed),
    ("superseded", x509.ReasonFlags.superseded),
    ("cessationOfOperation", x509.ReasonFlags.cessation_of_operation),
    ("certificateHold", x509.ReasonFlags.certificate_hold),
    ("removeFromCRL", x509.ReasonFlags.remove_from_crl),
    ("privilegeWithdrawn", x509.ReasonFlags.privilege_withdrawn),
    ("aACompromise", x509.ReasonFlags.aa_compromise),
]


class Writer:
    def __init__(self):
        self.sections = []

    def file(self, path, data):
        full = os.path.join(HERE, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as handle:
            handle.write(data)
        return path

    def case(self, case_name, *, anchors, chain, time, revocation, expect, comment, ocsp_files=(),
             sources=None, notes=(), crls=()):
        lines = [f"[case {case_name}]",
                 "anchors = " + " ".join(anchors),
                 "chain = " + " ".join(chain)]
        if ocsp_files:
            lines.append("ocsp = " + " ".join(ocsp_files))
        if crls:
            lines.append("crls = " + " ".join(crls))
        lines += [f"time = {time}", f"revocation = {revocation}", f"expect = {expect}"]
        if expect == "trusted":
            lines.append("sources = " + " ".join(sources))
            lines.append("notes = " + " ".join(notes))
        lines.append(f"comment = {comment}")
        self.sections.append("\n".join(lines))


def response(cert, issuer, signer, *, status=ocsp.OCSPCertStatus.GOOD, by=ocsp.OCSPResponderEncoding.HASH,
             algorithm=hashes.SHA1(), this_update=NOW - HOUR, next_update=NOW + 3 * DAY,
             revocation_time=None, reason=None, certs=None, nonce=None, signature_hash=hashes.SHA256(),
             by_hash=None):
    """A BasicOCSPResponse about `cert` (issued by `issuer`), signed by `signer`."""
    builder = ocsp.OCSPResponseBuilder()
    if by_hash:
        name_hash, key_hash, serial = by_hash
        builder = builder.add_response_by_hash(name_hash, key_hash, serial, algorithm, status, this_update,
                                               next_update, revocation_time, reason)
    else:
        builder = builder.add_response(cert=cert.cert, issuer=issuer.cert, algorithm=algorithm, cert_status=status,
                                       this_update=this_update, next_update=next_update,
                                       revocation_time=revocation_time, revocation_reason=reason)
    builder = builder.responder_id(by, signer.cert)
    if certs:
        builder = builder.certificates([c.cert for c in certs])
    if nonce:
        builder = builder.add_extension(x509.OCSPNonce(nonce), critical=False)
    return builder.sign(signer.key, signature_hash).public_bytes(serialization.Encoding.DER)


def openssl_responses(w, ica, leaf, revoked_leaf, extra_leaf):
    """Responses `openssl ocsp` makes as a responder over an index file: one request for
    three certificates (good, revoked with a reason, unknown to the index)."""
    work = tempfile.mkdtemp()
    try:
        def path(n):
            return os.path.join(work, n)
        with open(path("ica.pem"), "wb") as f:
            f.write(ica.pem)
        with open(path("ica.key"), "wb") as f:
            f.write(ica.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
        for label, cert in [("leaf", leaf), ("revoked", revoked_leaf), ("extra", extra_leaf)]:
            with open(path(label + ".pem"), "wb") as f:
                f.write(cert.pem)

        def index_line(flag, cert, revoked=""):
            expiry = cert.cert.not_valid_after_utc.strftime("%y%m%d%H%M%SZ")
            serial = format(cert.cert.serial_number, "X")
            if len(serial) % 2:
                serial = "0" + serial
            subject = "/O=Tack/CN=" + cert.cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value
            return f"{flag}\t{expiry}\t{revoked}\t{serial}\tunknown\t{subject}\n"
        with open(path("index.txt"), "w") as f:
            f.write(index_line("V", leaf))
            f.write(index_line("R", revoked_leaf, "250101000000Z,keyCompromise"))
        subprocess.run(["openssl", "ocsp", "-issuer", path("ica.pem"), "-cert", path("leaf.pem"),
                        "-cert", path("revoked.pem"), "-cert", path("extra.pem"), "-reqout", path("req.der")],
                       check=True, capture_output=True)
        subprocess.run(["openssl", "ocsp", "-index", path("index.txt"), "-rsigner", path("ica.pem"),
                        "-rkey", path("ica.key"), "-CA", path("ica.pem"), "-reqin", path("req.der"),
                        "-respout", path("resp.der"), "-ndays", "7"],
                       check=True, capture_output=True)
        with open(path("resp.der"), "rb") as f:
            data = f.read()
        # The same answer signed with ecdsa-with-SHA1 (`cryptography` refuses to make one).
        subprocess.run(["openssl", "ocsp", "-index", path("index.txt"), "-rsigner", path("ica.pem"),
                        "-rkey", path("ica.key"), "-CA", path("ica.pem"), "-reqin", path("req.der"),
                        "-respout", path("resp-sha1.der"), "-ndays", "7", "-rmd", "sha1"],
                       check=True, capture_output=True)
        with open(path("resp-sha1.der"), "rb") as f:
            sha1 = f.read()
    finally:
        shutil.rmtree(work)
    return w.file("responses/openssl-multi.der", data), data, w.file("responses/openssl-sha1-signature.der", sha1)


RESPONDER_GROUP = "responder-check"


def responder_check_cases(w):
    """Delegated responders and their own revocation (RFC 6960 §4.2.2.2.1), over a
    hierarchy of their own so that the group regenerates alone (--only responder-check):
    a responder with id-pkix-ocsp-nocheck is not checked; one without it is checked with
    the CRLs and responses the caller supplied (a revoked one makes its response
    unusable; one without status fails hard-fail and is a note under soft-fail)."""
    g = RESPONDER_GROUP
    now = epoch(NOW)
    host = ["example.com"]
    root = make_cert(name("Tack Responder-Check Root"), new_key(), ca=True)
    ica = make_cert(name("Tack Responder-Check Intermediate"), new_key(), root, ca=True)
    leaf = make_cert(name("example.com"), new_key(), ica, ca=False, not_before=t(2024), not_after=t(2026), sans=host)
    staple_leaf = make_cert(name("example.com"), new_key(), ica, ca=False, not_before=t(2024), not_after=t(2026),
                            sans=host, must_staple=True)
    checked = make_cert(name("Tack Responder-Check Responder"), new_key(), ica, ca=False,
                        eku=[ExtendedKeyUsageOID.OCSP_SIGNING])
    nocheck = make_cert(name("Tack Responder-Check Responder No-Check"), new_key(), ica, ca=False,
                        eku=[ExtendedKeyUsageOID.OCSP_SIGNING], no_check=True)
    root_f = w.file(f"certs/{g}/root.der", root.der)
    ica_f = w.file(f"certs/{g}/intermediate.der", ica.der)
    leaf_f = w.file(f"certs/{g}/leaf.der", leaf.der)
    staple_f = w.file(f"certs/{g}/leaf-must-staple.der", staple_leaf.der)
    w.file(f"certs/{g}/responder.der", checked.der)
    w.file(f"certs/{g}/responder-nocheck.der", nocheck.der)

    def crl(revoked):
        builder = (x509.CertificateRevocationListBuilder()
                   .issuer_name(ica.cert.subject)
                   .last_update(NOW - DAY)
                   .next_update(NOW + 6 * DAY)
                   .add_extension(x509.CRLNumber(9), critical=False)
                   .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ica.key.public_key()),
                                  critical=False))
        for cert in revoked:
            builder = builder.add_revoked_certificate(
                x509.RevokedCertificateBuilder().serial_number(cert.cert.serial_number)
                .revocation_date(NOW - 2 * DAY).build())
        return builder.sign(ica.key, hashes.SHA256()).public_bytes(serialization.Encoding.DER)
    crl_checked = w.file(f"crls/{g}/revokes-responder.crl", crl([checked]))
    crl_nocheck = w.file(f"crls/{g}/revokes-nocheck-responder.crl", crl([nocheck]))
    crl_empty = w.file(f"crls/{g}/empty.crl", crl([]))
    R = ocsp.OCSPCertStatus
    by_checked = w.file(f"responses/{g}/leaf-by-responder.der", response(leaf, ica, checked, certs=[checked]))
    staple_by_checked = w.file(f"responses/{g}/staple-by-responder.der",
                               response(staple_leaf, ica, checked, certs=[checked]))
    staple_by_nocheck = w.file(f"responses/{g}/staple-by-nocheck-responder.der",
                               response(staple_leaf, ica, nocheck, certs=[nocheck]))
    leaf_by_nocheck = w.file(f"responses/{g}/leaf-by-nocheck-responder.der",
                             response(leaf, ica, nocheck, certs=[nocheck]))
    responder_revoked = w.file(f"responses/{g}/responder-revoked.der",
                               response(checked, ica, ica, status=R.REVOKED, revocation_time=NOW - 3 * DAY,
                                        reason=x509.ReasonFlags.key_compromise))
    responder_good = w.file(f"responses/{g}/responder-good.der", response(checked, ica, ica))
    ica_good = w.file(f"responses/{g}/intermediate-good.der", response(ica, root, root))
    plain, staple = [leaf_f, ica_f], [staple_f, ica_f]

    def case(label, *, chain, files, crls=(), revocation="soft", expect, sources=None, notes=(), comment):
        w.case(f"{g}-{label}", anchors=[root_f], chain=chain, ocsp_files=files, crls=list(crls), time=now,
               revocation=revocation, expect=expect, sources=list(sources or ()), notes=list(notes), comment=comment)

    case("revoked-by-crl", chain=plain, files=[by_checked], crls=[crl_checked], expect="trusted",
         sources=("crl", "none", "anchor"), notes=("responder_revoked",),
         comment="the responder (no ocsp-nocheck) is listed on its issuer's CRL: its response is unusable, a note; "
                 "the same CRL gives the leaf its status")
    case("revoked-by-crl-must-staple", chain=staple, files=[staple_by_checked], crls=[crl_checked],
         expect="responder_revoked", comment="a Must-Staple leaf whose only staple comes from a revoked responder")
    case("revoked-by-response", chain=staple, files=[staple_by_checked, responder_revoked],
         expect="responder_revoked",
         comment="the issuer's own response says the responder is revoked (keyCompromise)")
    case("nocheck-listed", chain=staple, files=[staple_by_nocheck], crls=[crl_nocheck], expect="trusted",
         sources=("ocsp", "none", "anchor"),
         comment="a responder with id-pkix-ocsp-nocheck is not checked, even when the issuer's CRL lists it")
    case("nocheck-hard", chain=plain, files=[leaf_by_nocheck, ica_good], revocation="hard", expect="trusted",
         sources=("ocsp", "ocsp", "anchor"), comment="hard-fail: a responder with ocsp-nocheck needs no status")
    case("no-status-soft", chain=plain, files=[by_checked], expect="trusted", sources=("ocsp", "none", "anchor"),
         notes=("missing_responder_status",),
         comment="soft-fail: a responder without ocsp-nocheck and without status: the response counts, with a note")
    case("no-status-hard", chain=plain, files=[by_checked, ica_good], revocation="hard",
         expect="missing_responder_status",
         comment="hard-fail: a responder without ocsp-nocheck needs a status of its own")
    case("good-by-response-hard", chain=plain, files=[by_checked, responder_good, ica_good], revocation="hard",
         expect="trusted", sources=("ocsp", "ocsp", "anchor"),
         comment="hard-fail: the issuer's response says the responder is good")
    case("good-by-crl-hard", chain=plain, files=[by_checked, ica_good], crls=[crl_empty], revocation="hard",
         expect="trusted", sources=("ocsp", "ocsp", "anchor"),
         comment="hard-fail: the issuer's current CRL does not list the responder")


BENCH_GROUP = "bench"


def bench_chains(w):
    """Chains for tack-bench's e2e-*-stapled benchmarks (no manifest cases): for RSA-2048
    (PKCS #1 v1.5, SHA-256) and P-256 (ECDSA, SHA-256), a root, an intermediate and an
    example.com leaf (the shape of Vectors/chains/rsa and ecdsa, whose keys are not
    kept), and the intermediate's good response about the leaf (responder by key,
    SHA-1 CertID, valid at 2025-06-01). Regenerated alone by --only bench."""
    from cryptography.hazmat.primitives.asymmetric import rsa
    g = BENCH_GROUP
    for label, make in [("rsa2048", lambda: rsa.generate_private_key(public_exponent=65537, key_size=2048)),
                        ("p256", new_key)]:
        root = make_cert(name(f"Tack Bench {label} Root"), make(), ca=True)
        ica = make_cert(name(f"Tack Bench {label} Intermediate"), make(), root, ca=True)
        leaf = make_cert(name("example.com"), make(), ica, ca=False, not_before=t(2024), not_after=t(2026),
                         sans=["example.com"])
        w.file(f"certs/{g}/{label}-root.der", root.der)
        w.file(f"certs/{g}/{label}-intermediate.der", ica.der)
        w.file(f"certs/{g}/{label}-leaf.der", leaf.der)
        w.file(f"responses/{g}/{label}-leaf-good.der", response(leaf, ica, ica))


GROUPS = {RESPONDER_GROUP: responder_check_cases, BENCH_GROUP: bench_chains}


def write_manifest(sections, keep_existing_except=None):
    path = os.path.join(HERE, "manifest.txt")
    kept = []
    if keep_existing_except:
        with open(path) as handle:
            text = handle.read()
        for section in text.split("\n[case ")[1:]:
            if not section.startswith(keep_existing_except):
                kept.append("[case " + section.strip("\n"))
    with open(path, "w") as handle:
        handle.write("# Generated by generate.py; see its docstring for the format.\n\n")
        handle.write("\n\n".join(kept + sections) + "\n")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--only" and sys.argv[2] in GROUPS:
        group = sys.argv[2]
        for folder in ("certs", "responses", "crls"):
            shutil.rmtree(os.path.join(HERE, folder, group), ignore_errors=True)
        w = Writer()
        GROUPS[group](w)
        write_manifest(w.sections, keep_existing_except=group + "-")
        return
    if sys.argv[1:]:
        sys.exit(f"usage: {sys.argv[0]} [--only {'|'.join(GROUPS)}]")
    for folder in ("certs", "responses", "crls"):
        shutil.rmtree(os.path.join(HERE, folder), ignore_errors=True)
    w = Writer()
    now = epoch(NOW)
    host = ["example.com"]

    root = make_cert(name("Tack OCSP Root"), new_key(), ca=True)
    ica = make_cert(name("Tack OCSP Intermediate"), new_key(), root, ca=True)
    sibling = make_cert(name("Tack OCSP Sibling Intermediate"), new_key(), root, ca=True)
    unrelated = make_cert(name("Tack Unrelated Root"), new_key(), ca=True)
    leaf = make_cert(name("example.com"), new_key(), ica, ca=False, not_before=t(2024), not_after=t(2026), sans=host)
    other_leaf = make_cert(name("other.example.com"), new_key(), ica, ca=False, not_before=t(2024),
                           not_after=t(2026), sans=["other.example.com"])
    staple_leaf = make_cert(name("example.com"), new_key(), ica, ca=False, not_before=t(2024), not_after=t(2026),
                            sans=host, must_staple=True)
    delegate = make_cert(name("Tack OCSP Responder"), new_key(), ica, ca=False,
                         eku=[ExtendedKeyUsageOID.OCSP_SIGNING], no_check=True)
    delegate_no_eku = make_cert(name("Tack OCSP Responder Without EKU"), new_key(), ica, ca=False,
                                eku=[ExtendedKeyUsageOID.SERVER_AUTH])

    root_f = w.file("certs/root.der", root.der)
    ica_f = w.file("certs/intermediate.der", ica.der)
    leaf_f = w.file("certs/leaf.der", leaf.der)
    staple_f = w.file("certs/leaf-must-staple.der", staple_leaf.der)
    w.file("certs/responder.der", delegate.der)
    chain = [leaf_f, ica_f]
    R = ocsp.OCSPCertStatus
    BY_NAME, BY_KEY = ocsp.OCSPResponderEncoding.NAME, ocsp.OCSPResponderEncoding.HASH

    def case(label, data, *, expect, comment, revocation="soft", sources=("ocsp", "none", "anchor"), notes=(),
             certs=chain, anchors=(root_f,), time=now, files=None, extra_files=(), crls=()):
        files = files if files is not None else [w.file(f"responses/{label}.der", data)]
        files = files + list(extra_files)
        w.case(label, anchors=list(anchors), chain=list(certs), ocsp_files=files, time=time,
               revocation=revocation, expect=expect, comment=comment, sources=list(sources), notes=list(notes),
               crls=list(crls))
        return files

    # Good answers: responder by name and by key, SHA-1 and SHA-256 CertIDs, a nonce.
    case("good-by-name-sha1", response(leaf, ica, ica, by=BY_NAME), expect="trusted",
         comment="signed by the issuer, responder ID by name, SHA-1 CertID")
    case("good-by-key-sha256", response(leaf, ica, ica, by=BY_KEY, algorithm=hashes.SHA256()), expect="trusted",
         comment="signed by the issuer, responder ID by key hash, SHA-256 CertID")
    case("good-nonce", response(leaf, ica, ica, nonce=bytes(range(16))), expect="trusted",
         comment="a 16-octet nonce extension")
    case("good-no-next-update", response(leaf, ica, ica, next_update=None), expect="trusted",
         comment="no nextUpdate: good for responseMaximumAge (10 days) after thisUpdate")
    case("no-next-update-too-old", response(leaf, ica, ica, this_update=NOW - 11 * DAY, next_update=None),
         expect="response_stale", revocation="hard",
         comment="no nextUpdate and thisUpdate 11 days ago: older than responseMaximumAge")
    good_hard = case("good-hard-fail-leaf-only", response(leaf, ica, ica), expect="missing_revocation_status",
                     revocation="hard", comment="hard-fail: the intermediate has no status")
    ica_good = w.file("responses/intermediate-good.der", response(ica, root, root))
    case("good-hard-fail-both", None, files=good_hard + [ica_good], expect="trusted", revocation="hard",
         sources=("ocsp", "ocsp", "anchor"),
         comment="hard-fail with responses for the leaf and the intermediate (RFC 6961 multi-stapling)")
    case("good-policy-none", None, files=good_hard, expect="trusted", revocation="none",
         sources=("none", "none", "anchor"), comment="policy none: nothing checked")

    # CRLs beside the responses: the intermediate's CRL gives the leaf a fresh status.
    def crl_of(issuer, revoked_serials):
        builder = (x509.CertificateRevocationListBuilder()
                   .issuer_name(issuer.cert.subject)
                   .last_update(NOW - DAY)
                   .next_update(NOW + 6 * DAY)
                   .add_extension(x509.CRLNumber(7), critical=False)
                   .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer.key.public_key()),
                                  critical=False))
        for serial in revoked_serials:
            builder = builder.add_revoked_certificate(
                x509.RevokedCertificateBuilder().serial_number(serial).revocation_date(NOW - 2 * DAY).build())
        return builder.sign(issuer.key, hashes.SHA256()).public_bytes(serialization.Encoding.DER)
    ica_crl = w.file("crls/intermediate.crl", crl_of(ica, [12345]))
    case("hard-fail-crl-and-ocsp", None, files=[ica_good], crls=[ica_crl], expect="trusted", revocation="hard",
         sources=("crl", "ocsp", "anchor"), comment="hard-fail: the leaf's status from its issuer's CRL, the intermediate's from OCSP")
    case("hard-fail-crl-good-ocsp-revoked", None, files=["responses/revoked-superseded.der", ica_good], crls=[ica_crl],
         expect="revoked", revocation="hard", comment="a current CRL without the serial does not outvote a revoked response")

    # Revoked, with each reason and with none.
    revoked_at = NOW - 10 * DAY
    for label, flag in REASONS:
        case(f"revoked-{label}", response(leaf, ica, ica, status=R.REVOKED, revocation_time=revoked_at, reason=flag),
             expect="revoked", comment=f"revoked 10 days ago, reason {label}")
    case("revoked-no-reason", response(leaf, ica, ica, status=R.REVOKED, revocation_time=revoked_at),
         expect="revoked", comment="revoked without a reason")
    case("revoked-policy-none", None, files=["responses/revoked-keyCompromise.der"], expect="trusted",
         revocation="none", sources=("none", "none", "anchor"), comment="policy none ignores a revoked status")

    # Unknown.
    unknown = case("unknown-soft", response(leaf, ica, ica, status=R.UNKNOWN), expect="trusted",
                   sources=("none", "none", "anchor"), notes=("revocation_status_unknown",),
                   comment="soft-fail: an unknown status is a note")
    case("unknown-hard", None, files=unknown, expect="revocation_status_unknown", revocation="hard",
         comment="hard-fail: an unknown status fails")

    # Delegated responders.
    case("delegated-with-eku", response(leaf, ica, delegate, certs=[delegate]), expect="trusted",
         comment="a responder certificate issued by the issuer with id-kp-OCSPSigning and ocsp-nocheck")
    no_eku = case("delegated-without-eku-soft", response(leaf, ica, delegate_no_eku, certs=[delegate_no_eku]),
                  expect="trusted", sources=("none", "none", "anchor"), notes=("responder_not_authorized",),
                  comment="a responder certificate without id-kp-OCSPSigning: a note under soft-fail")
    case("delegated-without-eku-hard", None, files=no_eku, expect="responder_not_authorized", revocation="hard",
         comment="a responder certificate without id-kp-OCSPSigning fails hard-fail")
    case("delegated-not-included", response(leaf, ica, delegate), expect="responder_not_authorized",
         revocation="hard", comment="a delegated responder whose certificate is not in the response")

    # Hostile signers.
    for label, signer, included, why in [
            ("signed-by-unrelated-ca", unrelated, [], "an unrelated CA"),
            ("signed-by-sibling", sibling, [sibling], "the issuer's sibling intermediate, included"),
            ("signed-by-leaf", other_leaf, [other_leaf], "another leaf of the issuer, included"),
            ("signed-by-root", root, [], "the issuer's issuer")]:
        case(label, response(leaf, ica, signer, certs=included, by=BY_NAME), expect="responder_not_authorized",
             revocation="hard", comment=f"signed by {why}")
    good = response(leaf, ica, ica)
    forged = good[:-1] + bytes([good[-1] ^ 0x01])
    case("bad-signature", forged, expect="response_signature_invalid", revocation="hard",
         comment="the last octet of the signature flipped")
    # CertIDs that do not name the leaf: the response is not about it.
    from cryptography.hazmat.primitives.hashes import Hash

    def sha1_of(data):
        digest = Hash(hashes.SHA1())
        digest.update(data)
        return digest.finalize()
    name_hash = sha1_of(ica.cert.subject.public_bytes())
    key_bits = ica.cert.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    key_hash = sha1_of(key_bits)
    wrong_key = case("wrong-issuer-key-hash",
                     response(leaf, ica, ica, by_hash=(name_hash, sha1_of(b"another key"), leaf.cert.serial_number)),
                     expect="trusted", sources=("none", "none", "anchor"),
                     comment="the CertID's issuerKeyHash is not the issuer's: no status for the leaf")
    case("wrong-issuer-key-hash-hard", None, files=wrong_key, expect="missing_revocation_status", revocation="hard",
         comment="hard-fail: the only response is about another certificate")
    case("serial-mismatch", response(leaf, ica, ica, by_hash=(name_hash, key_hash, leaf.cert.serial_number + 1)),
         expect="missing_revocation_status", revocation="hard", comment="the CertID's serial is the leaf's plus one")
    case("matching-by-hash", response(leaf, ica, ica, by_hash=(name_hash, key_hash, leaf.cert.serial_number)),
         expect="trusted", comment="the same CertID built from the hashes: the control of the two cases above")

    # Times: thisUpdate <= time <= nextUpdate, 300 s allowance either way.
    expired = case("expired-response", response(leaf, ica, ica, this_update=NOW - 4 * DAY, next_update=NOW - DAY),
                   expect="trusted", sources=("none", "none", "anchor"), notes=("response_stale",),
                   comment="nextUpdate a day ago: a note under soft-fail")
    case("expired-response-hard", None, files=expired, expect="response_stale", revocation="hard",
         comment="nextUpdate a day ago")
    case("future-response", response(leaf, ica, ica, this_update=NOW + DAY, next_update=NOW + 4 * DAY),
         expect="response_not_yet_valid", revocation="hard", comment="thisUpdate tomorrow")
    edge = case("skew-edge-inside", response(leaf, ica, ica, this_update=NOW + 300 * datetime.timedelta(seconds=1),
                                             next_update=NOW + DAY),
                expect="trusted", revocation="hard", sources=("ocsp", "ocsp", "anchor"), extra_files=[ica_good],
                comment="thisUpdate exactly 300 s after the check time")
    case("skew-edge-outside", None, files=edge, time=now - 1, expect="response_not_yet_valid", revocation="hard",
         comment="thisUpdate 301 s after the check time")
    late = case("next-update-edge-inside", response(leaf, ica, ica, this_update=NOW - 2 * DAY, next_update=NOW),
                time=now + 300, expect="trusted", revocation="hard", sources=("ocsp", "ocsp", "anchor"),
                extra_files=[ica_good], comment="nextUpdate exactly 300 s before the check time")
    case("next-update-edge-outside", None, files=late, time=now + 301, expect="response_stale", revocation="hard",
         comment="nextUpdate 301 s before the check time")

    # Must-Staple.
    staple_chain = [staple_f, ica_f]
    staple_good = case("must-staple-with-staple", response(staple_leaf, ica, ica), certs=staple_chain,
                       expect="trusted", comment="Must-Staple leaf with a good staple")
    case("must-staple-without-staple", None, files=[], certs=staple_chain, expect="must_staple_without_response",
         comment="Must-Staple leaf, nothing stapled (soft-fail enforces it)")
    case("must-staple-policy-none", None, files=[], certs=staple_chain, expect="trusted", revocation="none",
         sources=("none", "none", "anchor"), comment="policy none ignores Must-Staple")
    case("must-staple-other-staple", None, files=good_hard, certs=staple_chain, expect="must_staple_without_response",
         comment="Must-Staple leaf with a staple about another certificate")
    case("must-staple-stale-staple", response(staple_leaf, ica, ica, this_update=NOW - 4 * DAY, next_update=NOW - DAY),
         certs=staple_chain, expect="response_stale", comment="Must-Staple leaf whose staple ran out")
    unsuccessful = ocsp.OCSPResponseBuilder.build_unsuccessful(ocsp.OCSPResponseStatus.TRY_LATER).public_bytes(
        serialization.Encoding.DER)
    case("must-staple-try-later", unsuccessful, certs=staple_chain, expect="must_staple_without_response",
         comment="Must-Staple leaf whose staple is an unsuccessful (tryLater) response")
    case("try-later-soft", None, files=["responses/must-staple-try-later.der"], expect="trusted",
         sources=("none", "none", "anchor"), comment="an unsuccessful response names no certificate")
    del staple_good

    # A cross-signed intermediate revoked on one branch only: the search goes on to the
    # other branch.
    root_b = make_cert(name("Tack OCSP Root B"), new_key(), ca=True)
    ica_a = make_cert(name("Tack OCSP Cross Intermediate"), new_key(), root, ca=True, not_before=t(2022))
    ica_b = make_cert(name("Tack OCSP Cross Intermediate"), ica_a.key, root_b, ca=True, not_before=t(2021))
    cross_leaf = make_cert(name("example.com"), new_key(), ica_a, ca=False, not_before=t(2024), not_after=t(2026),
                           sans=host)
    root_b_f = w.file("certs/root-b.der", root_b.der)
    ica_a_f = w.file("certs/cross-intermediate-a.der", ica_a.der)
    ica_b_f = w.file("certs/cross-intermediate-b.der", ica_b.der)
    cross_leaf_f = w.file("certs/cross-leaf.der", cross_leaf.der)
    revoked_a = w.file("responses/cross-a-revoked.der",
                       response(ica_a, root, root, status=R.REVOKED, revocation_time=revoked_at,
                                reason=x509.ReasonFlags.ca_compromise))
    case("cross-signed-revoked-branch-a", None, files=[revoked_a], certs=[cross_leaf_f, ica_a_f, ica_b_f],
         anchors=(root_f, root_b_f), expect="trusted", sources=("none", "none", "anchor"),
         comment="branch A (newer, tried first) has a revoked intermediate; branch B is valid")
    case("cross-signed-only-branch-a", None, files=[revoked_a], certs=[cross_leaf_f, ica_a_f],
         anchors=(root_f, root_b_f), expect="revoked", comment="only the revoked branch is served")

    # `openssl ocsp` as a responder over an index file: three single responses.
    # Their leaves are valid until 2040: the responses are as of the generation time.
    def long_leaf(cn, sans):
        return make_cert(name(cn), new_key(), ica, ca=False, not_before=t(2024), not_after=t(2040), sans=sans)
    good_leaf, revoked_leaf, extra = long_leaf("example.com", host), long_leaf("example.com", host), \
        long_leaf("extra.example.com", ["extra.example.com"])
    good_leaf_f = w.file("certs/leaf-openssl-good.der", good_leaf.der)
    revoked_leaf_f = w.file("certs/leaf-openssl-revoked.der", revoked_leaf.der)
    multi_f, multi, sha1_f = openssl_responses(w, ica, good_leaf, revoked_leaf, extra)
    produced = epoch(ocsp.load_der_ocsp_response(multi).produced_at_utc)
    case("openssl-multi-good", None, files=[multi_f], certs=[good_leaf_f, ica_f], time=produced, expect="trusted",
         comment="openssl ocsp: the first of three single responses, good")
    case("openssl-multi-revoked", None, files=[multi_f], certs=[revoked_leaf_f, ica_f], time=produced,
         expect="revoked", comment="openssl ocsp: the second single response, revoked (keyCompromise)")
    case("openssl-sha1-signature-soft", None, files=[sha1_f], certs=[good_leaf_f, ica_f], time=produced, expect="trusted",
         sources=("none", "none", "anchor"), notes=("response_signature_invalid",),
         comment="ecdsa-with-SHA1: refused as a signature hash, a note under soft-fail")
    case("openssl-sha1-signature-hard", None, files=[sha1_f], certs=[good_leaf_f, ica_f], time=produced,
         expect="response_signature_invalid", revocation="hard", comment="ecdsa-with-SHA1 refused under hard-fail")

    for make_group in GROUPS.values():
        make_group(w)
    write_manifest(w.sections)


if __name__ == "__main__":
    main()
