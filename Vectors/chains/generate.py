#!/usr/bin/env python3
"""Generates Vectors/chains/: certificate chains for TackTrust's path building and
validation tests, with one manifest section per case (manifest.txt), in the style of
BearSSL's test/x509/alltests.txt.

Usage: python3 Vectors/chains/generate.py   (needs the `cryptography` package, >= 42)

Every run makes new keys, so the DER files change; the manifest's cases, times, names and
expected verdicts do not. Each case names its files relative to this folder.

Manifest format, one section per case:

    [case NAME]
    anchors = FILE...          trust anchors (DER)
    chain = FILE...            what the peer sends, leaf first (DER)
    crls = FILE...             optional: CRLs the caller supplies (DER)
    time = SECONDS             validation time, seconds since 1970
    host = dns:NAME | ip:ADDRESS | none
    purpose = server | client
    expect = trusted | FAILURE-REASON
    comment = TEXT

FAILURE-REASON is the name of a TrustFailure.Reason case (expired, not_yet_valid,
peer_name_mismatch, unknown_issuer, revoked, bad_signature, path_length_exceeded,
name_constraint_violation, extended_key_usage_mismatch, signature_budget_exhausted, ...); a list
separated by `|` accepts any of them.
"""

import datetime
import ipaddress
import os
import shutil

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
UTC = datetime.timezone.utc


def t(year, month=1, day=1, hour=0, minute=0, second=0):
    return datetime.datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def epoch(when):
    return int(when.timestamp())


# The validation time of most cases: 2025-06-01T00:00:00Z.
NOW = t(2025, 6, 1)

_key_cache = {}


def new_key(kind):
    if kind == "rsa":
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return ec.generate_private_key(ec.SECP256R1())


def hash_for(key):
    return hashes.SHA256()


def name(cn, org=None):
    attributes = []
    if org:
        attributes.append(x509.NameAttribute(NameOID.ORGANIZATION_NAME, org))
    attributes.append(x509.NameAttribute(NameOID.COMMON_NAME, cn))
    return x509.Name(attributes)


class Issued:
    def __init__(self, cert, key):
        self.cert = cert
        self.key = key

    @property
    def der(self):
        return self.cert.public_bytes(serialization.Encoding.DER)


def make_cert(subject, key, issuer=None, *, ca, not_before, not_after, pathlen=None, sans=None,
              eku=None, name_constraints=None, serial=None, aki=True):
    """A certificate for `key` named `subject`, signed by `issuer` (an Issued) or self-signed."""
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
        .add_extension(x509.BasicConstraints(ca=ca, path_length=pathlen if ca else None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    )
    if ca:
        builder = builder.add_extension(
            x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                          data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                          encipher_only=False, decipher_only=False), critical=True)
    else:
        builder = builder.add_extension(
            x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                          data_encipherment=False, key_agreement=False, key_cert_sign=False, crl_sign=False,
                          encipher_only=False, decipher_only=False), critical=True)
        builder = builder.add_extension(
            x509.ExtendedKeyUsage(eku or [ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    if aki:
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(signing_key.public_key()), critical=False)
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
    if name_constraints:
        builder = builder.add_extension(name_constraints, critical=True)
    return Issued(builder.sign(signing_key, hash_for(signing_key)), key)


def dns(*names):
    return [x509.DNSName(n) for n in names]


class Writer:
    def __init__(self):
        self.sections = []

    def file(self, path, data):
        full = os.path.join(HERE, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as handle:
            handle.write(data)
        return path

    def case(self, case_name, *, anchors, chain, time, host, expect, comment, purpose="server", crls=()):
        lines = [f"[case {case_name}]",
                 "anchors = " + " ".join(anchors),
                 "chain = " + " ".join(chain)]
        if crls:
            lines.append("crls = " + " ".join(crls))
        lines += [f"time = {time}", f"host = {host}", f"purpose = {purpose}", f"expect = {expect}",
                  f"comment = {comment}"]
        self.sections.append("\n".join(lines))


def family(w, kind):
    """The cases that exist for both RSA and ECDSA chains."""
    root_key, ica_key = new_key(kind), new_key(kind)
    root = make_cert(name(f"Tack Test {kind.upper()} Root", "Tack"), root_key, ca=True,
                     not_before=t(2020), not_after=t(2040), aki=False)
    ica_nb, ica_na = t(2022), t(2030)
    ica = make_cert(name(f"Tack Test {kind.upper()} Intermediate", "Tack"), ica_key, root, ca=True,
                    not_before=ica_nb, not_after=ica_na)
    d = kind
    root_f = w.file(f"{d}/root.der", root.der)
    ica_f = w.file(f"{d}/intermediate.der", ica.der)

    def leaf(file, sans, nb=t(2024), na=t(2026), eku=None, issuer=ica, subject=None):
        cert = make_cert(subject or name("leaf.example.com"), new_key(kind), issuer, ca=False,
                         not_before=nb, not_after=na, sans=sans, eku=eku)
        return cert, w.file(f"{d}/{file}", cert.der)

    now = epoch(NOW)
    good, good_f = leaf("leaf.der", dns("example.com", "www.example.com"))
    w.case(f"{d}-valid", anchors=[root_f], chain=[good_f, ica_f], time=now, host="dns:example.com",
           expect="trusted", comment="root -> intermediate -> leaf, host in the SAN")
    w.case(f"{d}-valid-shuffled", anchors=[root_f], chain=[good_f, root_f, ica_f, good_f], time=now,
           host="dns:WWW.Example.COM", expect="trusted",
           comment="the peer also sends the root and the leaf again; host compared case-insensitively")
    w.case(f"{d}-missing-intermediate", anchors=[root_f], chain=[good_f], time=now, host="dns:example.com",
           expect="unknown_issuer", comment="the intermediate is not sent")
    w.case(f"{d}-wrong-host", anchors=[root_f], chain=[good_f, ica_f], time=now, host="dns:example.org",
           expect="peer_name_mismatch", comment="host not in the SAN")
    w.case(f"{d}-subdomain-not-covered", anchors=[root_f], chain=[good_f, ica_f], time=now,
           host="dns:a.www.example.com", expect="peer_name_mismatch", comment="an exact name does not cover its subdomains")

    # ±1 second around the leaf's validity bounds (inclusive, RFC 5280 §4.1.2.5).
    nb, na = epoch(t(2024)), epoch(t(2026))
    for label, when, expect in [("leaf-notbefore-minus-1", nb - 1, "not_yet_valid"),
                                ("leaf-notbefore-exact", nb, "trusted"),
                                ("leaf-notafter-exact", na, "trusted"),
                                ("leaf-notafter-plus-1", na + 1, "expired")]:
        w.case(f"{d}-{label}", anchors=[root_f], chain=[good_f, ica_f], time=when, host="dns:example.com",
               expect=expect, comment=f"leaf valid 2024-01-01..2026-01-01, checked at {label}")
    # ±1 second around the intermediate's bounds, with a leaf valid 2021..2031.
    wide, wide_f = leaf("leaf-wide.der", dns("example.com"), nb=t(2021), na=t(2031))
    inb, ina = epoch(ica_nb), epoch(ica_na)
    for label, when, expect in [("intermediate-notbefore-minus-1", inb - 1, "not_yet_valid"),
                                ("intermediate-notbefore-exact", inb, "trusted"),
                                ("intermediate-notafter-exact", ina, "trusted"),
                                ("intermediate-notafter-plus-1", ina + 1, "expired")]:
        w.case(f"{d}-{label}", anchors=[root_f], chain=[wide_f, ica_f], time=when, host="dns:example.com",
               expect=expect, comment=f"intermediate valid 2022-01-01..2030-01-01, checked at {label}")

    # Wildcards (RFC 9525 §6.3).
    wild, wild_f = leaf("leaf-wildcard.der", dns("*.example.com"))
    for label, host, expect, why in [
            ("wildcard-one-label", "www.example.com", "trusted", "*.example.com matches one label"),
            ("wildcard-two-labels", "a.b.example.com", "peer_name_mismatch", "a wildcard matches exactly one label"),
            ("wildcard-apex", "example.com", "peer_name_mismatch", "a wildcard does not match the bare domain"),
            ("wildcard-idna", "xn--bcher-kva.example.com", "peer_name_mismatch",
             "a wildcard never stands for an A-label")]:
        w.case(f"{d}-{label}", anchors=[root_f], chain=[wild_f, ica_f], time=now, host=f"dns:{host}",
               expect=expect, comment=why)
    tld, tld_f = leaf("leaf-wildcard-tld.der", dns("*.com"))
    w.case(f"{d}-wildcard-single-label-suffix", anchors=[root_f], chain=[tld_f, ica_f], time=now,
           host="dns:example.com", expect="peer_name_mismatch", comment="*.com matches nothing")

    # IP addresses: iPAddress SANs only, compared as bytes.
    ips, ips_f = leaf("leaf-ip.der", [x509.IPAddress(ipaddress.ip_address("192.0.2.10")),
                                      x509.IPAddress(ipaddress.ip_address("2001:db8::1")),
                                      x509.DNSName("192.0.2.99")])
    for label, host, expect, why in [
            ("ipv4-san", "192.0.2.10", "trusted", "IPv4 iPAddress SAN"),
            ("ipv6-san", "2001:db8::1", "trusted", "IPv6 iPAddress SAN"),
            ("ipv6-other", "2001:db8::2", "peer_name_mismatch", "another IPv6 address"),
            ("ipv4-in-dnsname", "192.0.2.99", "peer_name_mismatch", "an address in a dNSName SAN does not count"),
            ("ipv4-mapped", "::ffff:192.0.2.10", "peer_name_mismatch", "IPv4-mapped IPv6 is a different address")]:
        w.case(f"{d}-{label}", anchors=[root_f], chain=[ips_f, ica_f], time=now, host=f"ip:{host}",
               expect=expect, comment=why)

    # Extended key usage.
    client, client_f = leaf("leaf-clientauth.der", dns("example.com"), eku=[ExtendedKeyUsageOID.CLIENT_AUTH])
    w.case(f"{d}-wrong-eku", anchors=[root_f], chain=[client_f, ica_f], time=now, host="dns:example.com",
           expect="extended_key_usage_mismatch", comment="leaf has clientAuth only, serverAuth wanted")
    w.case(f"{d}-client-eku", anchors=[root_f], chain=[client_f, ica_f], time=now, host="none",
           purpose="client", expect="trusted", comment="leaf has clientAuth, clientAuth wanted")

    # Bad signature: one bit of the leaf's signature flipped.
    raw = bytearray(good.der)
    raw[-5] ^= 0x01
    bad_f = w.file(f"{d}/leaf-bad-signature.der", bytes(raw))
    w.case(f"{d}-bad-signature", anchors=[root_f], chain=[bad_f, ica_f], time=now, host="dns:example.com",
           expect="bad_signature", comment="one bit of the leaf's signature flipped")

    # Path length: root -> ica1 (pathlen 0) -> ica2 -> leaf.
    p0 = make_cert(name(f"{kind} pathlen 0"), new_key(kind), root, ca=True, pathlen=0,
                   not_before=t(2022), not_after=t(2030))
    below = make_cert(name(f"{kind} below pathlen 0"), new_key(kind), p0, ca=True,
                      not_before=t(2022), not_after=t(2030))
    deep, deep_f = leaf("leaf-pathlen.der", dns("example.com"), issuer=below)
    w.case(f"{d}-pathlen-exceeded", anchors=[root_f],
           chain=[deep_f, w.file(f"{d}/ica-below-pathlen0.der", below.der), w.file(f"{d}/ica-pathlen0.der", p0.der)],
           time=now, host="dns:example.com", expect="path_length_exceeded",
           comment="a CA below a pathLenConstraint 0 CA")
    ok0, ok0_f = leaf("leaf-pathlen0-ok.der", dns("example.com"), issuer=p0)
    w.case(f"{d}-pathlen-zero-ok", anchors=[root_f], chain=[ok0_f, w.file(f"{d}/ica-pathlen0.der", p0.der)],
           time=now, host="dns:example.com", expect="trusted", comment="a leaf right below a pathlen 0 CA")

    # Revocation: the intermediate's CRL revokes one leaf.
    revoked, revoked_f = leaf("leaf-revoked.der", dns("example.com"))
    crl = (x509.CertificateRevocationListBuilder()
           .issuer_name(ica.cert.subject)
           .last_update(t(2025, 5, 1))
           .next_update(t(2025, 7, 1))
           .add_extension(x509.CRLNumber(42), critical=False)
           .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ica.key.public_key()), critical=False)
           .add_revoked_certificate(x509.RevokedCertificateBuilder()
                                    .serial_number(revoked.cert.serial_number)
                                    .revocation_date(t(2025, 5, 15)).build())
           .sign(ica.key, hashes.SHA256()))
    crl_f = w.file(f"{d}/intermediate.crl", crl.public_bytes(serialization.Encoding.DER))
    w.case(f"{d}-revoked", anchors=[root_f], chain=[revoked_f, ica_f], crls=[crl_f], time=now,
           host="dns:example.com", expect="revoked", comment="the leaf's serial is on its issuer's CRL")
    w.case(f"{d}-not-revoked", anchors=[root_f], chain=[good_f, ica_f], crls=[crl_f], time=now,
           host="dns:example.com", expect="trusted", comment="the CRL lists another serial")


def name_constraints(w):
    kind = "ecdsa"
    root = make_cert(name("NC Root"), new_key(kind), ca=True, not_before=t(2020), not_after=t(2040), aki=False)
    root_f = w.file("nc/root.der", root.der)
    now = epoch(NOW)

    def ca(file, constraints):
        cert = make_cert(name(f"NC CA {file}", "Good Org"), new_key(kind), root, ca=True,
                         not_before=t(2022), not_after=t(2030), name_constraints=constraints)
        return cert, w.file(f"nc/{file}.der", cert.der)

    def leaf(file, issuer, sans, subject=None):
        cert = make_cert(subject or name("leaf", "Good Org"), new_key(kind), issuer, ca=False,
                         not_before=t(2024), not_after=t(2026), sans=sans)
        return w.file(f"nc/{file}.der", cert.der)

    permit_dns, permit_dns_f = ca("ca-permit-dns", x509.NameConstraints(
        permitted_subtrees=[x509.DNSName("example.com")], excluded_subtrees=None))
    w.case("nc-dns-permitted", anchors=[root_f], chain=[leaf("leaf-dns-in", permit_dns, dns("www.example.com")), permit_dns_f],
           time=now, host="dns:www.example.com", expect="trusted", comment="www.example.com is below example.com")
    w.case("nc-dns-outside", anchors=[root_f], chain=[leaf("leaf-dns-out", permit_dns, dns("www.example.com", "evil.org")),
                                                     permit_dns_f],
           time=now, host="dns:www.example.com", expect="name_constraint_violation",
           comment="every SAN must be permitted, not only the host asked for")
    w.case("nc-dns-label-boundary", anchors=[root_f],
           chain=[leaf("leaf-dns-suffix", permit_dns, dns("notexample.com")), permit_dns_f],
           time=now, host="dns:notexample.com", expect="name_constraint_violation",
           comment="subtrees match whole labels: notexample.com is not below example.com")
    excl, excl_f = ca("ca-exclude-dns", x509.NameConstraints(
        permitted_subtrees=None, excluded_subtrees=[x509.DNSName("bad.example.com")]))
    w.case("nc-dns-excluded", anchors=[root_f], chain=[leaf("leaf-dns-excluded", excl, dns("x.bad.example.com")), excl_f],
           time=now, host="dns:x.bad.example.com", expect="name_constraint_violation",
           comment="below an excluded subtree")
    w.case("nc-dns-excluded-wildcard", anchors=[root_f], chain=[leaf("leaf-dns-excl-wild", excl, dns("*.example.com")), excl_f],
           time=now, host="dns:www.example.com", expect="name_constraint_violation",
           comment="*.example.com may stand for the excluded bad.example.com (CVE-2025-61727)")
    permit_ip, permit_ip_f = ca("ca-permit-ip", x509.NameConstraints(
        permitted_subtrees=[x509.IPAddress(ipaddress.ip_network("192.0.2.0/24")),
                            x509.IPAddress(ipaddress.ip_network("2001:db8::/32"))], excluded_subtrees=None))
    w.case("nc-ipv4-permitted", anchors=[root_f],
           chain=[leaf("leaf-ip-in", permit_ip, [x509.IPAddress(ipaddress.ip_address("192.0.2.7"))]), permit_ip_f],
           time=now, host="ip:192.0.2.7", expect="trusted", comment="inside 192.0.2.0/24")
    w.case("nc-ipv4-outside", anchors=[root_f],
           chain=[leaf("leaf-ip-out", permit_ip, [x509.IPAddress(ipaddress.ip_address("198.51.100.7"))]), permit_ip_f],
           time=now, host="ip:198.51.100.7", expect="name_constraint_violation", comment="outside 192.0.2.0/24")
    w.case("nc-ipv6-outside", anchors=[root_f],
           chain=[leaf("leaf-ip6-out", permit_ip, [x509.IPAddress(ipaddress.ip_address("2001:db9::1"))]), permit_ip_f],
           time=now, host="ip:2001:db9::1", expect="name_constraint_violation", comment="outside 2001:db8::/32")
    permit_dn, permit_dn_f = ca("ca-permit-dn", x509.NameConstraints(
        permitted_subtrees=[x509.DirectoryName(x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Good Org")]))],
        excluded_subtrees=None))
    w.case("nc-dn-permitted", anchors=[root_f],
           chain=[leaf("leaf-dn-in", permit_dn, dns("example.com")), permit_dn_f],
           time=now, host="dns:example.com", expect="trusted", comment="subject O=Good Org, CN=leaf is below O=Good Org")
    w.case("nc-dn-outside", anchors=[root_f],
           chain=[leaf("leaf-dn-out", permit_dn, dns("example.com"), subject=name("leaf", "Evil Org")), permit_dn_f],
           time=now, host="dns:example.com", expect="name_constraint_violation", comment="subject O=Evil Org")


def topology(w):
    """Cross-signs, loops and decoys (ECDSA for speed)."""
    kind = "ecdsa"
    now = epoch(NOW)
    old_root = make_cert(name("Old Root"), new_key(kind), ca=True, not_before=t(2015), not_after=t(2040), aki=False)
    new_root_key = new_key(kind)
    new_root = make_cert(name("New Root"), new_root_key, ca=True, not_before=t(2020), not_after=t(2040), aki=False)
    # Two cross-signs of New Root by Old Root: the one that looks newer has expired.
    cross_expired = make_cert(name("New Root"), new_root_key, old_root, ca=True,
                              not_before=t(2024, 6), not_after=t(2025, 1))
    cross_valid = make_cert(name("New Root"), new_root_key, old_root, ca=True,
                            not_before=t(2020), not_after=t(2030))
    ica = make_cert(name("Cross ICA"), new_key(kind), new_root, ca=True, not_before=t(2022), not_after=t(2030))
    leaf = make_cert(name("leaf"), new_key(kind), ica, ca=False, not_before=t(2024), not_after=t(2026),
                     sans=dns("example.com"))
    f = {n: w.file(f"topology/{n}.der", c.der) for n, c in [
        ("old-root", old_root), ("new-root", new_root), ("cross-expired", cross_expired),
        ("cross-valid", cross_valid), ("cross-ica", ica), ("cross-leaf", leaf)]}
    w.case("cross-signed-backtrack", anchors=[f["old-root"]],
           chain=[f["cross-leaf"], f["cross-ica"], f["cross-expired"], f["cross-valid"]],
           time=now, host="dns:example.com", expect="trusted",
           comment="two cross-signs of New Root by Old Root; the newer one has expired, so the builder backtracks")
    w.case("cross-signed-expired-only", anchors=[f["old-root"]],
           chain=[f["cross-leaf"], f["cross-ica"], f["cross-expired"]],
           time=now, host="dns:example.com", expect="expired",
           comment="only the expired cross-sign leads to the anchor: expired, not unknown issuer")
    w.case("cross-signed-new-root-anchor", anchors=[f["new-root"], f["old-root"]],
           chain=[f["cross-leaf"], f["cross-ica"], f["cross-expired"]],
           time=now, host="dns:example.com", expect="trusted", comment="New Root itself is an anchor")

    # A loop: A and B sign each other; the leaf is under A; no anchor above.
    key_a, key_b = new_key(kind), new_key(kind)
    seed_a = make_cert(name("Loop A"), key_a, ca=True, not_before=t(2020), not_after=t(2030))
    seed_b = make_cert(name("Loop B"), key_b, ca=True, not_before=t(2020), not_after=t(2030))
    a_by_b = make_cert(name("Loop A"), key_a, seed_b, ca=True, not_before=t(2020), not_after=t(2030))
    b_by_a = make_cert(name("Loop B"), key_b, seed_a, ca=True, not_before=t(2020), not_after=t(2030))
    loop_leaf = make_cert(name("leaf"), new_key(kind), seed_a, ca=False, not_before=t(2024), not_after=t(2026),
                          sans=dns("example.com"))
    w.case("loop", anchors=[f["old-root"]],
           chain=[w.file("topology/loop-leaf.der", loop_leaf.der), w.file("topology/loop-a-by-b.der", a_by_b.der),
                  w.file("topology/loop-b-by-a.der", b_by_a.der)],
           time=now, host="dns:example.com", expect="unknown_issuer",
           comment="A <-> B sign each other and lead to no anchor; the search must end")

    # Decoys: 500 intermediates named like the real one, with other keys.
    root = make_cert(name("Decoy Root"), new_key(kind), ca=True, not_before=t(2020), not_after=t(2040), aki=False)
    real_key = new_key(kind)
    real = make_cert(name("Decoy ICA"), real_key, root, ca=True, not_before=t(2022), not_after=t(2030))
    decoy_leaf = make_cert(name("leaf"), new_key(kind), real, ca=False, not_before=t(2024), not_after=t(2026),
                           sans=dns("example.com"))
    decoy_files = []
    for i in range(500):
        decoy = make_cert(name("Decoy ICA"), new_key(kind), root, ca=True, not_before=t(2022), not_after=t(2030))
        decoy_files.append(w.file(f"decoys/decoy-{i:03}.der", decoy.der))
    root_f = w.file("decoys/root.der", root.der)
    leaf_f = w.file("decoys/leaf.der", decoy_leaf.der)
    real_f = w.file("decoys/real-ica.der", real.der)
    w.case("decoys-with-real", anchors=[root_f], chain=[leaf_f] + decoy_files + [real_f],
           time=now, host="dns:example.com", expect="trusted",
           comment="500 decoys share the real intermediate's name; the key identifier finds the real one")
    w.case("decoys-only", anchors=[root_f], chain=[leaf_f] + decoy_files,
           time=now, host="dns:example.com", expect="unknown_issuer|bad_signature|signature_budget_exhausted|build_step_budget_exhausted",
           comment="500 decoys and no real intermediate: fails quickly, inside the budget")


def fuzz_seeds(w):
    """Seeds for scripts/fuzz.sh: bags framed as the `chain` target reads them
    (2-byte big-endian length + DER, leaf first), and CRLs for the `crl` target."""
    def read(path):
        with open(os.path.join(HERE, path), "rb") as handle:
            return handle.read()

    def frame(*paths):
        return b"".join(len(read(p)).to_bytes(2, "big") + read(p) for p in paths)

    w.file("fuzz-seeds/chain-rsa", frame("rsa/leaf.der", "rsa/intermediate.der"))
    w.file("fuzz-seeds/chain-ecdsa", frame("ecdsa/leaf.der", "ecdsa/intermediate.der", "ecdsa/root.der"))
    w.file("fuzz-seeds/chain-cross", frame("topology/cross-leaf.der", "topology/cross-ica.der",
                                           "topology/cross-expired.der", "topology/cross-valid.der"))
    w.file("fuzz-seeds/chain-loop", frame("topology/loop-leaf.der", "topology/loop-a-by-b.der", "topology/loop-b-by-a.der"))
    w.file("fuzz-seeds/chain-nc", frame("nc/leaf-dns-excl-wild.der", "nc/ca-exclude-dns.der"))
    w.file("fuzz-seeds/crl-rsa", read("rsa/intermediate.crl"))
    w.file("fuzz-seeds/crl-ecdsa", read("ecdsa/intermediate.crl"))


def main():
    for sub in ["rsa", "ecdsa", "nc", "topology", "decoys", "fuzz-seeds"]:
        shutil.rmtree(os.path.join(HERE, sub), ignore_errors=True)
    w = Writer()
    family(w, "rsa")
    family(w, "ecdsa")
    name_constraints(w)
    topology(w)
    fuzz_seeds(w)
    header = ("# Vectors/chains manifest, generated by generate.py (do not edit by hand).\n"
              "# Sections: [case NAME]; keys: anchors, chain (leaf first), crls, time (s since 1970),\n"
              "# host (dns:NAME | ip:ADDRESS | none), purpose (server | client), expect, comment.\n\n")
    with open(os.path.join(HERE, "manifest.txt"), "w") as handle:
        handle.write(header + "\n\n".join(w.sections) + "\n")
    print(f"{len(w.sections)} cases")


if __name__ == "__main__":
    main()
