// libFuzzer harness for ChaCha20-Poly1305 records (TackCipher). Built and run
// by scripts/fuzz.sh (target `chachapoly`), not by SwiftPM.
//
// The input is a record under a fixed key: the first byte gives the length of
// the associated data (mod 32), the next 12 bytes (zero-padded) are the nonce,
// the following bytes are the AAD and the rest the ciphertext with its tag.
// Opening fuzzed bytes must never succeed (a forgery would need the 2⁻¹⁰⁶-ish
// luck of guessing a tag) and never crash; every refusal is a typed AEAD
// error. A seal of the same bytes must open again to them.

import TackCipher

private let key: [UInt8] = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 3) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChaChaPoly(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let aead = try? ChaCha20Poly1305(key: key) else { fatalError("a 32-byte key refused") }
    let aadCount = bytes.isEmpty ? 0 : Int(bytes[0] % 32)
    var nonce = Array(bytes.dropFirst().prefix(12))
    nonce += [UInt8](repeating: 0, count: 12 - nonce.count)
    let rest = bytes.dropFirst(13)
    let aad = Array(rest.prefix(aadCount))
    let record = Array(rest.dropFirst(aadCount))
    do throws(AEADError) {
        _ = try aead.open(record, nonce: nonce, authenticating: aad)
        fatalError("a fuzzed record of \(record.count) bytes authenticated")
    } catch .authenticationFailed {
        guard record.count >= ChaCha20Poly1305.tagByteCount else { fatalError("a short record reached the tag check") }
    } catch .ciphertextTooShort(let count) {
        guard count == record.count, count < ChaCha20Poly1305.tagByteCount else { fatalError("wrong ciphertextTooShort(\(count))") }
    } catch {
        fatalError("unexpected \(error.code)")
    }
    // The same bytes as a plaintext: seal, then open gives them back.
    guard let sealed = try? aead.seal(record, nonce: nonce, authenticating: aad),
        sealed.count == record.count + ChaCha20Poly1305.tagByteCount,
        (try? aead.open(sealed, nonce: nonce, authenticating: aad)) == record
    else { fatalError("seal/open round trip failed") }
    return 0
}
