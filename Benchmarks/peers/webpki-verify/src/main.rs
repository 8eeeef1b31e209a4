//! webpki-verify: the rustls/webpki peer of tack-bench's trust benchmarks
//! (trust-rsa2048-chain, trust-p256-chain, trust-rsa2048-newleaf). Built by
//! Benchmarks/peers/build.sh, offline, against Debian's webpki 0.22 and ring 0.16.
//!
//!     webpki-verify MODE BUNDLE.pem ROOT.der HOST TIME SECONDS FILE...
//!
//! The anchors are BUNDLE.pem (the system CA bundle) plus ROOT.der, each turned into a
//! `TrustAnchor` once, before timing (certificates webpki cannot read as anchors are
//! left out and counted on standard error). MODE says what FILE... is:
//!
//!   chain    FILE... is the served chain, leaf first; every verdict serves it.
//!   newleaf  FILE... is LEAVES.der INTERMEDIATE.der ROOT.der: LEAVES.der holds DER
//!            certificates back to back; verdict i serves leaf i (cycling), the
//!            intermediate and the root.
//!   signature FILE... is CHILD.der ISSUER.der: no verdict, only the certificate
//!            signature check a verdict makes per link, timed alone (BUNDLE, ROOT, HOST
//!            and TIME are not read): `EndEntityCert::verify_signature` of the issuer
//!            (parsed once) over the child's tbsCertificate, which parses the issuer's
//!            key, hashes and verifies with ring on every call. It prints checks per
//!            second; tack-bench's trust-*-signature lines set it beside Tack's check.
//!
//! One verdict, from DER to a yes or no: `EndEntityCert::try_from` (parse the leaf),
//! `verify_is_valid_tls_server_cert` with every signature algorithm webpki offers, the
//! served certificates after the leaf as intermediates (webpki parses them as it builds)
//! and the time TIME, then `verify_is_valid_for_dns_name(HOST)`. webpki has no cache:
//! each verdict parses, builds and verifies every signature again.
//!
//! Before timing, it checks that every served chain is trusted and that a copy of the
//! leaf with its signature's last byte flipped, a wrong host (wrong.example.org) and a
//! later time (2100-01-01) are refused; it exits 1 otherwise. Then it repeats verdicts
//! for at least SECONDS seconds and prints verdicts per second. Wall clock, or the
//! process's CPU time when TACK_BENCH_CPU_TIME is set.

use std::convert::TryFrom;
use std::process::exit;
use std::time::Instant;

static ALGORITHMS: &[&webpki::SignatureAlgorithm] = &[
    &webpki::ECDSA_P256_SHA256,
    &webpki::ECDSA_P256_SHA384,
    &webpki::ECDSA_P384_SHA256,
    &webpki::ECDSA_P384_SHA384,
    &webpki::ED25519,
    &webpki::RSA_PKCS1_2048_8192_SHA256,
    &webpki::RSA_PKCS1_2048_8192_SHA384,
    &webpki::RSA_PKCS1_2048_8192_SHA512,
    &webpki::RSA_PKCS1_3072_8192_SHA384,
    &webpki::RSA_PSS_2048_8192_SHA256_LEGACY_KEY,
    &webpki::RSA_PSS_2048_8192_SHA384_LEGACY_KEY,
    &webpki::RSA_PSS_2048_8192_SHA512_LEGACY_KEY,
];

fn fail(message: &str) -> ! {
    eprintln!("webpki-verify: {}", message);
    exit(1)
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|error| fail(&format!("{}: {}", path, error)))
}

/// The DER of every CERTIFICATE block of a PEM file (standard Base64, line breaks
/// ignored); a block that does not decode is skipped.
fn pem_certificates(text: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(text);
    let mut out = Vec::new();
    let mut body: Option<String> = None;
    for line in text.lines() {
        let line = line.trim();
        if line == "-----BEGIN CERTIFICATE-----" {
            body = Some(String::new());
        } else if line == "-----END CERTIFICATE-----" {
            if let Some(decoded) = body.take().and_then(|b| base64(&b)) {
                out.push(decoded);
            }
        } else if let Some(b) = body.as_mut() {
            b.push_str(line);
        }
    }
    out
}

fn base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for c in text.bytes() {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return None,
        };
        buffer = buffer << 6 | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Back-to-back DER certificates cut apart (definite lengths, as DER requires).
fn split_der(mut data: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    while !data.is_empty() {
        if data.len() < 2 || data[0] != 0x30 {
            fail("leaves file: not a DER SEQUENCE");
        }
        let (mut length, mut header) = (usize::from(data[1]), 2);
        if length & 0x80 != 0 {
            let count = length & 0x7f;
            if count == 0 || count > 4 || data.len() < 2 + count {
                fail("leaves file: bad length");
            }
            length = data[2..2 + count].iter().fold(0, |acc, &b| acc << 8 | usize::from(b));
            header = 2 + count;
        }
        if data.len() < header + length {
            fail("leaves file: truncated");
        }
        out.push(&data[..header + length]);
        data = &data[header + length..];
    }
    out
}

/// The header length and content length of the DER element at the start of `data`
/// (definite lengths of up to four bytes), or `None` when it does not fit in `data`.
fn element(data: &[u8]) -> Option<(usize, usize)> {
    if data.len() < 2 {
        return None;
    }
    let (mut length, mut header) = (usize::from(data[1]), 2);
    if length & 0x80 != 0 {
        let count = length & 0x7f;
        if count == 0 || count > 4 || data.len() < 2 + count {
            return None;
        }
        length = data[2..2 + count].iter().fold(0, |acc, &b| acc << 8 | usize::from(b));
        header = 2 + count;
    }
    if data.len() < header + length {
        return None;
    }
    Some((header, length))
}

/// A certificate's tbsCertificate (whole element, as signed) and signature bits.
fn signed_parts(certificate: &[u8]) -> (&[u8], &[u8]) {
    let broken = || fail("signature mode: CHILD.der is not a certificate");
    let (header, length) = element(certificate).unwrap_or_else(broken);
    let content = &certificate[header..header + length];
    let (tbs_header, tbs_length) = element(content).unwrap_or_else(broken);
    let tbs = &content[..tbs_header + tbs_length];
    let rest = &content[tbs.len()..];
    let (algorithm_header, algorithm_length) = element(rest).unwrap_or_else(broken);
    let rest = &rest[algorithm_header + algorithm_length..];
    let (bits_header, bits_length) = element(rest).unwrap_or_else(broken);
    if rest[0] != 0x03 || bits_length < 1 || rest[bits_header] != 0 {
        broken();
    }
    (tbs, &rest[bits_header + 1..bits_header + bits_length])
}

/// `signature` mode: checks per second of the child's signature under the issuer's key.
fn signature_mode(files: &[String], seconds: f64) {
    if files.len() != 2 {
        fail("signature takes CHILD.der ISSUER.der");
    }
    let (child, issuer_der) = (read(&files[0]), read(&files[1]));
    let issuer = webpki::EndEntityCert::try_from(issuer_der.as_slice())
        .unwrap_or_else(|_| fail("signature mode: ISSUER.der does not parse"));
    let (tbs, signature) = signed_parts(&child);
    // The algorithm: the one of webpki's list under which the signature verifies (the
    // benchmark's chains use one each); then a flipped signature must fail under it.
    let algorithm = *ALGORITHMS
        .iter()
        .find(|algorithm| issuer.verify_signature(algorithm, tbs, signature).is_ok())
        .unwrap_or_else(|| fail("signature mode: the child's signature does not verify"));
    let mut flipped = signature.to_vec();
    if let Some(last) = flipped.last_mut() {
        *last ^= 1;
    }
    if issuer.verify_signature(algorithm, tbs, &flipped).is_ok() {
        fail("signature mode: a flipped signature verifies");
    }
    println!("{:.1}", timed(seconds, "checks failed", |_| issuer.verify_signature(algorithm, tbs, signature).is_ok()));
}

/// One evaluation from DER: true when the chain is trusted for `host` at `time`.
fn verdict(anchors: &webpki::TlsServerTrustAnchors, served: &[&[u8]], host: &str, time: u64) -> bool {
    let leaf = match webpki::EndEntityCert::try_from(served[0]) {
        Ok(leaf) => leaf,
        Err(_) => return false,
    };
    let name = match webpki::DnsNameRef::try_from_ascii_str(host) {
        Ok(name) => name,
        Err(_) => return false,
    };
    let time = webpki::Time::from_seconds_since_unix_epoch(time);
    leaf.verify_is_valid_tls_server_cert(ALGORITHMS, anchors, &served[1..], time).is_ok()
        && leaf.verify_is_valid_for_dns_name(name).is_ok()
}

/// Runs `operation(i)` for i = 0, 1, ... in batches of 16 until `seconds` have passed
/// (the process's CPU time when TACK_BENCH_CPU_TIME is set, else the wall clock) and
/// returns operations per second; exits 1, naming `failure`, if any returned false.
fn timed(seconds: f64, failure: &str, mut operation: impl FnMut(usize) -> bool) -> f64 {
    let use_cpu = std::env::var_os("TACK_BENCH_CPU_TIME").is_some();
    let wall = Instant::now();
    let cpu_start = cpu_seconds();
    let clock = || if use_cpu { cpu_seconds() - cpu_start } else { wall.elapsed().as_secs_f64() };
    let (mut count, mut passed) = (0usize, 0usize);
    let spent = loop {
        for _ in 0..16 {
            if operation(count) {
                passed += 1;
            }
            count += 1;
        }
        let spent = clock();
        if spent >= seconds {
            break spent;
        }
    };
    if passed != count {
        fail(&format!("{} of {} timed {}", count - passed, count, failure));
    }
    count as f64 / spent
}

fn cpu_seconds() -> f64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec into `now`, which outlives the call.
    if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) } != 0 {
        fail("clock_gettime failed");
    }
    now.tv_sec as f64 + now.tv_nsec as f64 * 1e-9
}

fn main() {
    let arguments: Vec<String> = std::env::args().collect();
    if arguments.len() < 8 {
        fail("usage: webpki-verify chain|newleaf|signature BUNDLE.pem ROOT.der HOST TIME SECONDS FILE...");
    }
    let (mode, host) = (arguments[1].as_str(), arguments[4].as_str());
    let time: u64 = arguments[5].parse().unwrap_or_else(|_| fail("TIME is not a number"));
    let seconds: f64 = arguments[6].parse().unwrap_or_else(|_| fail("SECONDS is not a number"));
    let files = &arguments[7..];
    if mode == "signature" {
        signature_mode(files, seconds);
        return;
    }

    let mut anchor_ders = pem_certificates(&read(&arguments[2]));
    anchor_ders.push(read(&arguments[3]));
    let mut anchors = Vec::new();
    let mut unreadable = 0;
    for der in &anchor_ders {
        match webpki::TrustAnchor::try_from_cert_der(der) {
            Ok(anchor) => anchors.push(anchor),
            Err(_) => unreadable += 1,
        }
    }
    if unreadable > 0 {
        eprintln!("webpki-verify: {} of {} anchors unreadable, left out", unreadable, anchor_ders.len());
    }
    let anchors = webpki::TlsServerTrustAnchors(&anchors);

    let contents: Vec<Vec<u8>> = files.iter().map(|file| read(file)).collect();
    let chains: Vec<Vec<&[u8]>> = match mode {
        "chain" => vec![contents.iter().map(|c| c.as_slice()).collect()],
        "newleaf" => {
            if contents.len() != 3 {
                fail("newleaf takes LEAVES.der INTERMEDIATE.der ROOT.der");
            }
            split_der(&contents[0]).into_iter().map(|leaf| vec![leaf, &contents[1][..], &contents[2][..]]).collect()
        }
        _ => fail(&format!("unknown mode {}", mode)),
    };

    // The checks before timing: every chain trusted; a bad signature, a wrong host and a
    // later time refused.
    for (index, served) in chains.iter().enumerate() {
        if !verdict(&anchors, served, host, time) {
            fail(&format!("chain {} is not trusted", index));
        }
    }
    let mut bad_leaf = chains[0][0].to_vec();
    if let Some(last) = bad_leaf.last_mut() {
        *last ^= 1;
    }
    let mut bad = chains[0].clone();
    bad[0] = &bad_leaf;
    if verdict(&anchors, &bad, host, time) {
        fail("a leaf with a bad signature is trusted");
    }
    if verdict(&anchors, &chains[0], "wrong.example.org", time) {
        fail("a wrong host is accepted");
    }
    if verdict(&anchors, &chains[0], host, 4_102_444_800) {
        fail("a later time (2100) is accepted");
    }

    let rate = timed(seconds, "verdicts were not trusted", |index| verdict(&anchors, &chains[index % chains.len()], host, time));
    println!("{:.1}", rate);
}
