#!/usr/bin/env python3
"""Focused chains for the TackTrust unit tests (Tests/TackTrustTests/ChainBuilderTests.swift).

    python3 Vectors/trust-unit/generate.py

Writes one DER file per certificate into Vectors/trust-unit/<case>/. EC keys are
derived from fixed scalars, so a regeneration keeps every key; ECDSA signatures are
randomized, so certificate bytes change (commit the whole directory after
regenerating). Every case is validated at T = 1_750_000_000 (2025-06-15T15:06:40Z)
unless its test says otherwise. See README.md for the list of cases.
"""

import datetime
import os
import shutil

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
T = 1_750_000_000
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def at(seconds):
    return EPOCH + datetime.timedelta(seconds=seconds)


DAY = 86_400
_seed = [1000]


def key(curve=ec.SECP256R1()):
    """A P-256 key from the next fixed scalar."""
    _seed[0] += 1
    return ec.derive_private_key(0x5EED0000 + _seed[0], curve)


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def cert(subject, subject_key, issuer, issuer_key, *, ca, path_len=None, not_before=T - 30 * DAY,
         not_after=T + 365 * DAY, ku=None, eku=None, san=None, ski=True, aki=True, extra=(),
         serial=None, bc=True, hash_alg=None, version1=False):
    builder = (x509.CertificateBuilder()
               .subject_name(name(subject)).issuer_name(name(issuer))
               .public_key(subject_key.public_key())
               .serial_number(serial or x509.random_serial_number())
               .not_valid_before(at(not_before)).not_valid_after(at(not_after)))
    if bc:
        builder = builder.add_extension(x509.BasicConstraints(ca=ca, path_length=path_len), critical=True)
    if ku is None:
        ku = "ca" if ca else "leaf"
    if ku == "ca":
        builder = builder.add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    elif ku == "leaf":
        builder = builder.add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
    elif ku is not False:
        builder = builder.add_extension(ku, critical=True)
    if eku is None and not ca:
        eku = [ExtendedKeyUsageOID.SERVER_AUTH]
    if eku:
        builder = builder.add_extension(x509.ExtendedKeyUsage(eku), critical=False)
    if san is None and not ca:
        san = ["example.com"]
    if san:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(n) for n in san]), critical=False)
    if ski:
        builder = builder.add_extension(x509.SubjectKeyIdentifier.from_public_key(subject_key.public_key()), critical=False)
    if aki:
        builder = builder.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
    for ext, critical in extra:
        builder = builder.add_extension(ext, critical=critical)
    if hash_alg is None:
        hash_alg = hashes.SHA256()
    certificate = builder.sign(issuer_key, hash_alg)
    return certificate.public_bytes(serialization.Encoding.DER)


def write(case, files):
    directory = os.path.join(HERE, case)
    os.makedirs(directory, exist_ok=True)
    for filename, der in files.items():
        with open(os.path.join(directory, filename + ".der"), "wb") as f:
            f.write(der)


def corrupt_signature(der):
    data = bytearray(der)
    data[-5] ^= 0x01
    return bytes(data)


def main():
    for entry in os.listdir(HERE):
        path = os.path.join(HERE, entry)
        if os.path.isdir(path):
            shutil.rmtree(path)

    root_key, ica_key, leaf_key = key(), key(), key()

    # valid: root -> ica -> leaf (example.com); leaf notBefore T-30d, notAfter T+365d.
    root = cert("Tack Root", root_key, "Tack Root", root_key, ca=True, not_before=T - 1000 * DAY, not_after=T + 3000 * DAY)
    ica = cert("Tack ICA", ica_key, "Tack Root", root_key, ca=True, path_len=0, not_before=T - 500 * DAY, not_after=T + 1000 * DAY)
    leaf = cert("example.com", leaf_key, "Tack ICA", ica_key, ca=False, not_before=T - 30 * DAY, not_after=T + 30 * DAY)
    write("valid", {"root": root, "ica": ica, "leaf": leaf})

    # bad-signature: the leaf's signature has one bit flipped.
    write("bad-signature", {"root": root, "ica": ica, "leaf": corrupt_signature(leaf)})

    # wrong-issuer: the leaf names "Tack ICA", the served intermediate is another CA.
    other_key = key()
    other = cert("Other ICA", other_key, "Tack Root", root_key, ca=True)
    write("wrong-issuer", {"root": root, "other": other, "leaf": leaf})

    # cross-signed: the ICA key certified twice, by an old root (expired cross-sign,
    # the most recent notBefore, so tried first) and by the new root (valid).
    old_root_key, new_root_key, x_key, x_leaf_key = key(), key(), key(), key()
    old_root = cert("Old Root", old_root_key, "Old Root", old_root_key, ca=True, not_before=T - 3000 * DAY, not_after=T + 3000 * DAY)
    new_root = cert("New Root", new_root_key, "New Root", new_root_key, ca=True, not_before=T - 1000 * DAY, not_after=T + 3000 * DAY)
    x_by_old = cert("Cross ICA", x_key, "Old Root", old_root_key, ca=True, not_before=T - 20 * DAY, not_after=T - 1)
    x_by_new = cert("Cross ICA", x_key, "New Root", new_root_key, ca=True, not_before=T - 400 * DAY, not_after=T + 400 * DAY)
    x_leaf = cert("example.com", x_leaf_key, "Cross ICA", x_key, ca=False)
    write("cross-signed", {"old-root": old_root, "new-root": new_root, "ica-by-old": x_by_old, "ica-by-new": x_by_new, "leaf": x_leaf})
    # Both branches valid: the ICA also cross-signed by the old root, unexpired.
    x_by_old_valid = cert("Cross ICA", x_key, "Old Root", old_root_key, ca=True, not_before=T - 20 * DAY, not_after=T + 400 * DAY)
    write("cross-signed-both-valid", {"old-root": old_root, "new-root": new_root, "ica-by-old": x_by_old_valid, "ica-by-new": x_by_new, "leaf": x_leaf})

    # loop: A and B certify each other's keys; the leaf is issued by A; no anchor names either.
    a_key, b_key, loop_leaf_key = key(), key(), key()
    a_by_b = cert("Loop A", a_key, "Loop B", b_key, ca=True)
    b_by_a = cert("Loop B", b_key, "Loop A", a_key, ca=True)
    loop_leaf = cert("example.com", loop_leaf_key, "Loop A", a_key, ca=False)
    write("loop", {"root": root, "a": a_by_b, "b": b_by_a, "leaf": loop_leaf})

    # path-length: root -> ica1 (pathLen 0) -> ica2 -> leaf.
    p1_key, p2_key, p_leaf_key = key(), key(), key()
    p1 = cert("PL ICA 1", p1_key, "Tack Root", root_key, ca=True, path_len=0)
    p2 = cert("PL ICA 2", p2_key, "PL ICA 1", p1_key, ca=True)
    p_leaf = cert("example.com", p_leaf_key, "PL ICA 2", p2_key, ca=False)
    write("path-length", {"root": root, "ica1": p1, "ica2": p2, "leaf": p_leaf})

    # eku: a client-auth-only leaf; a server leaf under a client-auth-only intermediate.
    e_key = key()
    eku_leaf = cert("example.com", e_key, "Tack ICA", ica_key, ca=False, eku=[ExtendedKeyUsageOID.CLIENT_AUTH])
    ei_key, ei_leaf_key = key(), key()
    eku_ica = cert("EKU ICA", ei_key, "Tack Root", root_key, ca=True,
                   extra=[(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), False)])
    eku_ica_leaf = cert("example.com", ei_leaf_key, "EKU ICA", ei_key, ca=False)
    any_ica = cert("EKU ICA", ei_key, "Tack Root", root_key, ca=True,
                   extra=[(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.ANY_EXTENDED_KEY_USAGE]), False)])
    write("eku", {"root": root, "ica": ica, "client-leaf": eku_leaf, "client-ica": eku_ica, "leaf-under-client-ica": eku_ica_leaf,
                  "any-ica": any_ica})

    # key-usage: a leaf with keyCertSign only; an intermediate without keyCertSign.
    k_key, ki_key, ki_leaf_key = key(), key(), key()
    ku_leaf = cert("example.com", k_key, "Tack ICA", ica_key, ca=False,
                   ku=x509.KeyUsage(False, False, False, False, False, True, False, False, False))
    ku_ica = cert("KU ICA", ki_key, "Tack Root", root_key, ca=True,
                  ku=x509.KeyUsage(True, False, False, False, False, False, True, False, False))
    ku_ica_leaf = cert("example.com", ki_leaf_key, "KU ICA", ki_key, ca=False)
    # An EC leaf whose only usage is keyEncipherment (RSA key transport): unusable for TLS.
    encipher_leaf = cert("example.com", key(), "Tack ICA", ica_key, ca=False,
                         ku=x509.KeyUsage(False, False, True, False, False, False, False, False, False))
    write("key-usage", {"root": root, "ica": ica, "leaf": ku_leaf, "ku-ica": ku_ica, "leaf-under-ku-ica": ku_ica_leaf,
                        "encipher-leaf": encipher_leaf})

    # critical: an unknown critical extension (1.3.6.1.4.1.55555.1) on a leaf, and on an intermediate.
    unknown = x509.UnrecognizedExtension(x509.ObjectIdentifier("1.3.6.1.4.1.55555.1"), b"\x05\x00")
    c_key, ci_key, ci_leaf_key = key(), key(), key()
    c_leaf = cert("example.com", c_key, "Tack ICA", ica_key, ca=False, extra=[(unknown, True)])
    c_ica = cert("Crit ICA", ci_key, "Tack Root", root_key, ca=True, extra=[(unknown, True)])
    c_ica_leaf = cert("example.com", ci_leaf_key, "Crit ICA", ci_key, ca=False)
    noncrit_leaf = cert("example.com", key(), "Tack ICA", ica_key, ca=False, extra=[(unknown, False)])
    write("critical", {"root": root, "ica": ica, "leaf": c_leaf, "crit-ica": c_ica, "leaf-under-crit-ica": c_ica_leaf,
                       "noncritical-leaf": noncrit_leaf})

    # not-ca: an intermediate with cA FALSE; one without basic constraints.
    n_key, n_leaf_key, nb_key, nb_leaf_key = key(), key(), key(), key()
    notca = cert("NotCA ICA", n_key, "Tack Root", root_key, ca=False, ku="ca", eku=False, san=False)
    notca_leaf = cert("example.com", n_leaf_key, "NotCA ICA", n_key, ca=False)
    nobc = cert("NoBC ICA", nb_key, "Tack Root", root_key, ca=True, bc=False)
    nobc_leaf = cert("example.com", nb_leaf_key, "NoBC ICA", nb_key, ca=False)
    write("not-ca", {"root": root, "notca-ica": notca, "leaf-under-notca": notca_leaf, "nobc-ica": nobc, "leaf-under-nobc": nobc_leaf})

    # ranking: the only ICA that names the leaf's issuer is expired; junk is served beside it.
    r_key, r_leaf_key = key(), key()
    r_ica_expired = cert("Rank ICA", r_key, "Tack Root", root_key, ca=True, not_before=T - 400 * DAY, not_after=T - 1 * DAY)
    r_leaf = cert("example.com", r_leaf_key, "Rank ICA", r_key, ca=False)
    junk = cert("Junk", key(), "Nobody", key(), ca=True)
    # A same-named non-CA decoy beside the expired one.
    r_decoy = cert("Rank ICA", key(), "Tack Root", root_key, ca=False, ku="ca", eku=False, san=False)
    write("ranking", {"root": root, "ica-expired": r_ica_expired, "junk": junk, "decoy-not-ca": r_decoy, "leaf": r_leaf})

    # decoys: the real "Decoy ICA" beside same-named CA decoys (other keys, more recent
    # notBefore): 100 honest decoys with their own SKIs (the leaf's AKI puts the real
    # ICA first) and 300 forged decoys whose SKI copies the real ICA's (so the AKI
    # does not help and every decoy costs a signature check).
    d_key, d_leaf_key = key(), key()
    d_ica = cert("Decoy ICA", d_key, "Tack Root", root_key, ca=True, not_before=T - 400 * DAY)
    d_leaf = cert("example.com", d_leaf_key, "Decoy ICA", d_key, ca=False)
    files = {"root": root, "ica": d_ica, "leaf": d_leaf}
    for i in range(100):
        files["honest-%03d" % i] = cert("Decoy ICA", key(), "Tack Root", root_key, ca=True, not_before=T - 10 * DAY - i)
    forged_ski = x509.SubjectKeyIdentifier.from_public_key(d_key.public_key())
    for i in range(300):
        files["forged-%03d" % i] = cert("Decoy ICA", key(), "Tack Root", root_key, ca=True, not_before=T - 10 * DAY - i,
                                        ski=False, extra=[(forged_ski, False)])
    write("decoys", files)

    # rsa: an RSA-2048 root and leaf (SHA-256), and an RSA-1024 leaf the web PKI policy refuses.
    rsa_root_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rsa_small_key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    rsa_leaf_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rsa_root = cert("RSA Root", rsa_root_key, "RSA Root", rsa_root_key, ca=True, not_before=T - 1000 * DAY, not_after=T + 3000 * DAY)
    rsa_leaf = cert("example.com", rsa_leaf_key, "RSA Root", rsa_root_key, ca=False,
                    ku=x509.KeyUsage(True, False, True, False, False, False, False, False, False))
    small_root = cert("Small Root", rsa_small_key, "Small Root", rsa_small_key, ca=True)
    small_leaf = cert("example.com", rsa_leaf_key, "Small Root", rsa_small_key, ca=False)
    write("rsa", {"root": rsa_root, "leaf": rsa_leaf, "small-root": small_root, "leaf-under-small-root": small_leaf})

    # revoked: the ICA's CRL lists the leaf (current); a stale CRL (nextUpdate before T);
    # a CRL listing another serial.
    rv_leaf_key = key()
    rv_leaf = cert("example.com", rv_leaf_key, "Tack ICA", ica_key, ca=False, serial=0x7E1001)

    def crl(serials, this_update, next_update):
        builder = (x509.CertificateRevocationListBuilder().issuer_name(name("Tack ICA"))
                   .last_update(at(this_update)).next_update(at(next_update))
                   .add_extension(x509.CRLNumber(1), critical=False)
                   .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ica_key.public_key()), critical=False))
        for serial in serials:
            builder = builder.add_revoked_certificate(
                x509.RevokedCertificateBuilder().serial_number(serial).revocation_date(at(T - 2 * DAY)).build())
        return builder.sign(ica_key, hashes.SHA256()).public_bytes(serialization.Encoding.DER)

    write("revoked", {"root": root, "ica": ica, "leaf": rv_leaf,
                      "crl-revoking-leaf": crl([0x7E1001], T - DAY, T + 6 * DAY),
                      "crl-stale": crl([], T - 10 * DAY, T - DAY),
                      "crl-other-serial": crl([0x7E1002], T - DAY, T + 6 * DAY)})

    # self-signed: a self-signed server certificate used as its own anchor.
    s_key = key()
    s_leaf = cert("example.com", s_key, "example.com", s_key, ca=False)
    write("self-signed", {"leaf": s_leaf})


if __name__ == "__main__":
    main()
