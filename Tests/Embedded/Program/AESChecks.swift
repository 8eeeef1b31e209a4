// AES known answers (TackCipher, the portable bitsliced path): FIPS 197
// appendix C for 128-, 192- and 256-bit keys, AES-CBC with PKCS #7 padding
// (encrypt and decrypt) for several lengths under each key size, and
// ciphertexts whose padding is bad, which must be refused with `bad_padding`.
// The answers are Generated/KnownAnswersPrimitives.swift. Not in CORE_ONLY builds,
// nor where TackCipher is not built (the bare-metal program's module set).

#if !CORE_ONLY && canImport(TackCipher)
import TackCipher

func checkAES(_ tally: inout Tally) {
    let plaintext = bytes(fips197Plaintext)
    for (key, expected) in fips197Cases {
        let keyBytes = bytes(key)
        let iv = [UInt8](repeating: 0, count: 16)
        do {
            let ciphertext = try AES.encryptCBC(plaintext, key: keyBytes, iv: iv, implementation: .portable)
            tally.check(ciphertext == bytes(expected), "AES-\(keyBytes.count * 8) FIPS 197 appendix C encryption")
            let decrypted = try AES.decryptCBC(bytes(expected), key: keyBytes, iv: iv, implementation: .portable)
            tally.check(decrypted == plaintext, "AES-\(keyBytes.count * 8) FIPS 197 appendix C decryption")
        } catch {
            tally.check(false, "AES-\(keyBytes.count * 8) FIPS 197 appendix C: \(error)")
        }
    }
    for (key, iv, message, expected) in aesCBCCases {
        let keyBytes = bytes(key)
        let plaintext = bytes(message)
        let label = "AES-\(keyBytes.count * 8)-CBC of \(plaintext.count) bytes"
        do {
            tally.check(try AES.encryptCBC(plaintext, key: keyBytes, iv: bytes(iv), implementation: .portable) == bytes(expected),
                        "\(label): encryption")
            tally.check(try AES.decryptCBC(bytes(expected), key: keyBytes, iv: bytes(iv), implementation: .portable) == plaintext,
                        "\(label): decryption")
        } catch {
            tally.check(false, "\(label): \(error)")
        }
    }
    for (key, iv, ciphertext, what) in aesBadPaddingCases {
        do {
            _ = try AES.decryptCBC(bytes(ciphertext), key: bytes(key), iv: bytes(iv), implementation: .portable)
            tally.check(false, "AES-CBC padding ending in \(what) was accepted")
        } catch {
            tally.check(error == .badPadding, "AES-CBC padding ending in \(what): \(error)")
        }
    }
    // A ciphertext that is not whole blocks, and a key of a length AES does not take.
    do {
        _ = try AES.decryptCBC([UInt8](repeating: 0, count: 17), key: [UInt8](repeating: 0, count: 16),
                               iv: [UInt8](repeating: 0, count: 16), implementation: .portable)
        tally.check(false, "AES-CBC decrypted 17 bytes")
    } catch {
        tally.check(error == .ciphertextLengthNotBlockMultiple(byteCount: 17, blockByteCount: 16), "AES-CBC 17 bytes: \(error)")
    }
    do {
        _ = try AES.encryptCBC([1], key: [UInt8](repeating: 0, count: 20), iv: [UInt8](repeating: 0, count: 16),
                               implementation: .portable)
        tally.check(false, "AES-CBC took a 20-byte key")
    } catch {
        tally.check(error == .invalidKeyLength(algorithm: .aes, byteCount: 20), "AES 20-byte key: \(error)")
    }
}
#endif
