// libFuzzer harness for CRL parsing (TackX509). Built and run by scripts/fuzz.sh
// (target `crl`), not by SwiftPM; see README.md here.
//
// Any input is parsed as a DER CertificateList. Beyond "never crash": a rejected
// input's error offset lies inside the input, an accepted CRL's ranges lie inside
// it, and the serial lookup finds every listed serial at its own revocation time.

import TackX509

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCRL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let crl: CertificateRevocationList
    do {
        crl = try CertificateRevocationList(derEncoded: bytes)
    } catch {
        guard error.offset >= 0, error.offset <= size else { fatalError("offset \(error.offset) outside 0...\(size)") }
        return 0
    }
    let whole = 0..<size
    for range in [crl.tbsRange, crl.issuerRange, crl.signatureRange] {
        guard range.clamped(to: whole) == range else { fatalError("range \(range) outside the input") }
    }
    for entry in crl.revokedCertificates {
        guard entry.serialNumberRange.clamped(to: crl.tbsRange) == entry.serialNumberRange else { fatalError("serial outside the TBS") }
        // The first entry with this serial wins; a later duplicate may differ.
        guard crl.revocationTime(forSerial: bytes[entry.serialNumberRange]) != nil else { fatalError("listed serial not found") }
    }
    return 0
}
