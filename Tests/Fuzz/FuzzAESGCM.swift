// libFuzzer harness for AES-GCM (TackCipher's AESGCM): opens records of fuzzed
// bytes under fixed keys on the portable and the hardware path, which must give
// the same verdict and bytes, and seals the same bytes on both, which must give
// the same record and open again. Built and run by scripts/fuzz.sh (target
// `aesgcm`), not by SwiftPM; where the build or the CPU lacks AES instructions
// the hardware path falls back to the portable one.
//
// Input: one byte choosing the key (AES-128, -192 or -256) and the nonce length
// (12 bytes, or 1 to 64), one byte giving the associated data's length, then
// the nonce, the associated data and the record.

import TackCipher

private let keys: [[UInt8]] = [16, 24, 32].map { length in (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) } }
private let portable = keys.map { try? AESGCM(key: $0, implementation: .portable) }
private let hardware = keys.map { try? AESGCM(key: $0, implementation: .hardware) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAESGCM(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let keyIndex = Int(bytes[0]) % keys.count
    let nonceLength = bytes[0] & 0x80 == 0 ? 12 : 1 + Int(bytes[0] >> 1) % 64
    let aadLength = Int(bytes[1])
    var rest = bytes[2...]
    let nonce = Array(rest.prefix(nonceLength))
    rest = rest.dropFirst(nonceLength)
    let aad = Array(rest.prefix(aadLength))
    let record = Array(rest.dropFirst(aadLength))
    guard let a = portable[keyIndex], let b = hardware[keyIndex] else { fatalError("a fixed key was refused") }

    let openedA = Result { () throws(AEADError) in try a.open(record, nonce: nonce, authenticating: aad) }
    let openedB = Result { () throws(AEADError) in try b.open(record, nonce: nonce, authenticating: aad) }
    guard openedA == openedB else { fatalError("the paths disagree on opening: \(openedA) vs \(openedB)") }
    if case .failure(let error) = openedA {
        switch error {
        case .authenticationFailed, .ciphertextTooShort, .invalidNonceLength: break
        default: fatalError("unexpected refusal \(error.code)")
        }
    }

    let sealedA = Result { () throws(AEADError) in try a.seal(record, nonce: nonce, authenticating: aad) }
    let sealedB = Result { () throws(AEADError) in try b.seal(record, nonce: nonce, authenticating: aad) }
    guard sealedA == sealedB else { fatalError("the paths disagree on sealing") }
    if case .success(let sealed) = sealedA {
        guard sealed.count == record.count + AESGCM.tagByteCount else { fatalError("sealed length") }
        guard (try? b.open(sealed, nonce: nonce, authenticating: aad)) == record else { fatalError("no round trip") }
    }
    return 0
}
