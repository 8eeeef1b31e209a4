// Tack's certificate parse verdict for scripts/differential.sh: one line per
// input on standard output,
//
//     tack-verdict FNV64 SIZE accept
//     tack-verdict FNV64 SIZE reject CODE OFFSET
//
// where FNV64 is the 64-bit FNV-1a hash of the input in hex (the script matches
// lines to files by it; libFuzzer runs the files given on its command line one by
// one, so no file name reaches this function) and CODE is X509Error.code.
//
// The verdict is what the peers' parsers decide when they load a certificate:
// `Certificate(derEncoded:)` and the decoding of its issuer and subject names,
// which Tack defers until first use while OpenSSL's d2i_X509 and cryptography's
// loader decode them at once. Extension values are left out on both sides (all
// three keep them as OCTET STRINGs until asked). Built by
// `scripts/fuzz.sh --build` with the same sanitizers as the fuzz targets, so an
// input that traps here fails the differential check too. Public API only.

import TackX509

@_cdecl("LLVMFuzzerTestOneInput")
public func certificateVerdict(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let digits = String(hash, radix: 16)
    let key = String(repeating: "0", count: 16 - digits.count) + digits
    do {
        let certificate = try Certificate(derEncoded: bytes)
        _ = try certificate.issuer
        _ = try certificate.subject
        print("tack-verdict \(key) \(size) accept")
    } catch {
        print("tack-verdict \(key) \(size) reject \(error.code) \(error.offset)")
    }
    return 0
}
