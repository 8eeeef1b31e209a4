// libFuzzer harness for certificate parsing (TackX509). Built and run by
// scripts/fuzz.sh (target `certificate`), not by SwiftPM; see README.md here.
//
// Any input is parsed as a DER certificate. Beyond "never crash", it checks:
//
// 1. A rejected input's error offset lies inside the input (0...count).
// 2. An accepted certificate's ranges lie inside the input and nest as the
//    structure says (TBS, names and SPKI inside the certificate; the SPKI key
//    inside the SPKI).
// 3. The SPKI parses on its own (copied out of the certificate) to the same
//    algorithm, and its pin equals SHA-256 over the certificate's SPKI slice.
// 4. When the key type can be rebuilt from raw bytes (and the EC point is
//    uncompressed, the form SecKeyCopyExternalRepresentation returns), the SPKI
//    rebuilt from the raw key equals the certificate's SPKI byte for byte, and
//    SPKIHeader gives exactly the bytes before the key.
// 5. The outer signature algorithm re-parses to the same value, and the names
//    and every extension decode or fail with an offset inside the input.

import TackDER
import TackDigest
import TackX509

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let certificate: Certificate
    do {
        certificate = try Certificate(derEncoded: bytes)
    } catch {
        check(error, size)
        return 0
    }

    // Property 2: ranges.
    let whole = 0..<size
    for range in [certificate.tbsRange, certificate.issuerRange, certificate.subjectRange, certificate.spkiRange,
                  certificate.serialNumberRange, certificate.signatureRange, certificate.signatureAlgorithmRange] {
        guard range.clamped(to: whole) == range else { fatalError("range \(range) outside the input") }
    }
    for range in [certificate.issuerRange, certificate.subjectRange, certificate.spkiRange] {
        guard range.clamped(to: certificate.tbsRange) == range else { fatalError("range \(range) outside the TBS") }
    }
    let info = certificate.publicKeyInfo
    guard info.keyRange.clamped(to: info.range) == info.keyRange else { fatalError("key outside the SPKI") }

    // Property 3: the SPKI alone, and the pin.
    let spki = Array(certificate.spkiBytes)
    let alone: SubjectPublicKeyInfo
    do {
        alone = try SubjectPublicKeyInfo(derEncoded: spki)
    } catch {
        fatalError("the certificate's SPKI does not parse alone: \(error)")
    }
    guard alone.algorithm == info.algorithm, alone.rawKey.elementsEqual(info.rawKey) else {
        fatalError("the SPKI parses differently alone")
    }
    guard certificate.spkiPin.digest == SHA256.hash(spki) else { fatalError("pin is not SHA-256 of the SPKI") }

    // Property 4: rebuild from the raw key.
    if let type = info.keyType, info.ecPointFormat != .compressed {
        let raw = Array(info.rawKey)
        do {
            let rebuilt = try SubjectPublicKeyInfo.encode(rawKey: raw, type: type)
            guard rebuilt == spki else { fatalError("rebuilt SPKI differs from the certificate's") }
            guard let header = SPKIHeader.forKey(type, rawKeyByteCount: raw.count),
                  header.bytes + raw == spki else { fatalError("SPKIHeader is not the SPKI's prefix") }
        } catch {
            fatalError("the raw key of a parsed SPKI does not rebuild: \(error)")
        }
    }

    // Property 5: the algorithm again; names and extensions.
    do {
        let again = try SignatureAlgorithm(derEncoded: bytes, range: certificate.signatureAlgorithmRange)
        guard again == certificate.signatureAlgorithm else { fatalError("signature algorithm re-parses differently") }
    } catch {
        fatalError("signature algorithm does not re-parse: \(error)")
    }
    do { _ = try certificate.subject } catch { check(error, size) }
    do { _ = try certificate.issuer } catch { check(error, size) }
    do { _ = try certificate.decodeAllExtensions() } catch { check(error, size) }
    _ = certificate.fingerprint
    return 0
}

private func check(_ error: X509Error, _ size: Int) {
    guard error.offset >= 0, error.offset <= size else {
        fatalError("X509Error offset \(error.offset) outside 0...\(size)")
    }
}
