// Known answers of the primitives under PKCS #12 (TackDigest): SHA-1 (FIPS 180-4
// examples, one million "a", lengths 0...129 whole and in 13-byte pieces, on
// every path the build and CPU run), HMAC over every hash (RFC 4231, RFC 2202),
// PBKDF2 (RFC 6070 and SHA-2 answers) and the PKCS #12 KDF (OpenSSL's answers
// of Vectors/pkcs12-kdf). The answers are Generated/KnownAnswersPrimitives.swift.

import TackDigest

/// The SHA-1 digest of `message`, in pieces of `pieceLength` bytes (all at once when 0).
func sha1Digest(_ message: [UInt8], pieceLength: Int = 0, implementation: SHA2Implementation) -> [UInt8] {
    var hasher = SHA1(implementation: implementation)
    if pieceLength > 0 {
        var start = 0
        while start < message.count {
            let end = min(start + pieceLength, message.count)
            hasher.update(message[start..<end])
            start = end
        }
    } else {
        hasher.update(message)
    }
    return Array(hasher.finalize())
}

func checkSHA1(_ implementation: SHA2Implementation, _ tally: inout Tally) {
    tally.check(SHA1(implementation: implementation).implementation == implementation,
                "SHA-1 \(implementation == .portable ? "portable" : "hardware") path was not selected")
    for (message, expected) in sha1Examples {
        tally.check(sha1Digest(utf8(message), implementation: implementation) == bytes(expected),
                    "SHA-1 FIPS 180-4 example of \(message.utf8CodeUnitCount) bytes")
    }
    let millionA = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    tally.check(sha1Digest(millionA, implementation: implementation) == bytes(sha1MillionA), "SHA-1 of one million a")
    let all = bytes(sha1LengthDigests)
    var length = 0
    while (length + 1) * 20 <= all.count {
        let expected = Array(all[(length * 20)..<((length + 1) * 20)])
        let message = patternMessage(length)
        tally.check(sha1Digest(message, implementation: implementation) == expected,
                    "SHA-1 of the \(length)-byte pattern message")
        tally.check(sha1Digest(message, pieceLength: 13, implementation: implementation) == expected,
                    "SHA-1 of the \(length)-byte pattern message in 13-byte pieces")
        length += 1
    }
    tally.check(length == 130, "SHA-1: \(length) length vectors, expected 130")
}

func checkHMAC(_ tally: inout Tally) {
    for (name, hash, key, data, expected) in hmacCases {
        let want = bytes(expected)
        do {
            let code = try hash.authenticationCode(for: bytes(data), key: bytes(key))
            tally.check(code.count == hash.byteCount && Array(code.prefix(want.count)) == want,
                        "HMAC-\(hash) \(name)")
        } catch {
            tally.check(false, "HMAC-\(hash) \(name): \(error)")
        }
    }
    // The generic, streaming form: RFC 4231 case 7 (SHA-256) and RFC 2202 case 7 (SHA-1)
    // (the last of each hash's seven cases), data fed in 7-byte pieces.
    for (index, (name, hash, key, data, expected)) in hmacCases.enumerated() where index % 7 == 6 {
        let message = bytes(data)
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < message.count {
            pieces.append(message[start..<min(start + 7, message.count)])
            start += 7
        }
        if hash == .sha256 {
            var authenticator = HMAC<SHA256>(key: bytes(key))
            for piece in pieces { authenticator.update(piece) }
            tally.check(Array(authenticator.finalize()) == bytes(expected), "HMAC<SHA256> \(name) in 7-byte pieces")
        } else if hash == .sha1 {
            var authenticator = HMAC<SHA1>(key: bytes(key))
            for piece in pieces { authenticator.update(piece) }
            tally.check(Array(authenticator.finalize()) == bytes(expected), "HMAC<SHA1> \(name) in 7-byte pieces")
        }
    }
    // MD5 is named but not computed: a typed refusal, not a wrong code.
    do {
        _ = try DigestAlgorithm.md5.authenticationCode(for: [1], key: [2])
        tally.check(false, "HMAC-MD5 was computed")
    } catch {
        tally.check(error == .unsupportedDigest(.md5), "HMAC-MD5: \(error)")
    }
}

func checkPBKDF2(_ tally: inout Tally) {
    for (hash, password, salt, iterations, expected) in pbkdf2Cases {
        let want = bytes(expected)
        do {
            let key = try PBKDF2.deriveKey(password: bytes(password), salt: bytes(salt), iterationCount: iterations,
                                           keyByteCount: want.count, hash: hash)
            tally.check(key == want, "PBKDF2-HMAC-\(hash), \(iterations) iterations, \(want.count) bytes")
        } catch {
            tally.check(false, "PBKDF2-HMAC-\(hash), \(iterations) iterations: \(error)")
        }
    }
    // The iteration cap: one above it is refused before any work.
    do {
        _ = try PBKDF2.deriveKey(password: [1], salt: [2], iterationCount: 1001, keyByteCount: 20, hash: .sha256,
                                 maximumIterationCount: 1000)
        tally.check(false, "PBKDF2 ran 1001 iterations under a cap of 1000")
    } catch {
        tally.check(error == .iterationCountAboveLimit(count: 1001, limit: 1000), "PBKDF2 cap: \(error)")
    }
}

func checkPKCS12KDF(_ tally: inout Tally) {
    for (hash, id, iterations, password, salt, expected) in pkcs12KDFCases {
        let want = bytes(expected)
        guard let purpose = PKCS12KeyDerivation.Purpose(rawValue: id) else {
            tally.check(false, "PKCS #12 KDF: no purpose \(id)")
            continue
        }
        do {
            let key = try PKCS12KeyDerivation.deriveKey(
                password: bytes(password), salt: bytes(salt), purpose: purpose, iterationCount: iterations,
                keyByteCount: want.count, hash: hash)
            tally.check(key == want, "PKCS #12 KDF \(hash), ID \(id), \(iterations) iterations, \(want.count) bytes")
        } catch {
            tally.check(false, "PKCS #12 KDF \(hash), ID \(id), \(iterations) iterations: \(error)")
        }
    }
    // The BMPString password encoding of the vectors: "smeg" with its zero pair, and nil.
    tally.check(PKCS12KeyDerivation.passwordBytes("smeg") == bytes("0073006d006500670000"), "PKCS #12 BMPString of smeg")
    tally.check(PKCS12KeyDerivation.passwordBytes(nil) == [], "PKCS #12 BMPString of no password")
    tally.check(PKCS12KeyDerivation.passwordBytes("") == [0, 0], "PKCS #12 BMPString of the empty password")
}
