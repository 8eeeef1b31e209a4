import Testing
import TackDigest
import TackSignature
import TackX509
import TackTestSupport

/// Parsing, validation and API behaviour of ECDSA, on the valid "message 2"
/// case of each committed vector file.
@Suite("ECDSA parsing, key validation and API")
struct ECDSATests {
    struct Sample {
        let key: ECDSAPublicKey
        let keyBytes: [UInt8]
        let der: [UInt8]
        let message: [UInt8]
        let digest: [UInt8]
    }

    static func sample(_ curve: ECCurve) throws -> Sample {
        let file: String
        switch curve {
        case .p256: file = "ecdsa_p256_sha256.json"
        case .p384: file = "ecdsa_p384_sha384.json"
        case .p521: file = "ecdsa_p521_sha512.json"
        }
        let vector = try #require(try ecLoadVectors(file).first { $0.comment == "valid signature, message 2" })
        let keyBytes = hexBytes(vector.key)
        return Sample(
            key: try ECDSAPublicKey(curve: curve, x962Representation: keyBytes), keyBytes: keyBytes,
            der: hexBytes(vector.signature), message: hexBytes(vector.message), digest: hexBytes(try #require(vector.digest)))
    }

    static func isMalformedSignature(_ error: SignatureError) -> Bool {
        if case .malformedSignature = error { return true }
        return false
    }

    static func isMalformedKey(_ error: SignatureError) -> Bool {
        if case .malformedPublicKey = error { return true }
        return false
    }

    @Test("The message API hashes with the named function", arguments: ECCurve.allCases)
    func messageAPI(curve: ECCurve) throws {
        let sample = try Self.sample(curve)
        switch curve {
        case .p256: try sample.key.verifySignature(sample.der, for: sample.message, hash: SHA256.self)
        case .p384: try sample.key.verifySignature(sample.der, for: sample.message, hash: SHA384.self)
        case .p521: try sample.key.verifySignature(sample.der, for: sample.message, hash: SHA512.self)
        }
        #expect(throws: SignatureError.invalidSignature) {
            try sample.key.verifySignature(sample.der, for: sample.message + [0], hash: SHA512.self)
        }
    }

    @Test("Digests longer than n keep only their leftmost bits")
    func truncation() throws {
        let sample = try Self.sample(.p256)
        // SEC 1 §4.1.4 step 3: bytes past the 256th bit are ignored.
        try sample.key.verifySignature(sample.der, forDigest: sample.digest + [0xff, 0x00, 0x42])
        // A change inside the leftmost 256 bits is not.
        var changed = sample.digest
        changed[31] ^= 1
        #expect(throws: SignatureError.invalidSignature) {
            try sample.key.verifySignature(sample.der, forDigest: changed)
        }
    }

    @Test("P-521 truncation shifts a 66-byte digest right by 7 bits")
    func truncationP521() throws {
        let sample = try Self.sample(.p521)
        // SHA-512 is 512 bits < 521, so the digest is used whole; a 66-byte
        // digest d ‖ 0x0000 is 528 bits, truncated to 521 = d·2⁹ >> 7 = d·4.
        // That differs from d, so the signature must not verify with it.
        #expect(throws: SignatureError.invalidSignature) {
            try sample.key.verifySignature(sample.der, forDigest: sample.digest + [0, 0])
        }
    }

    @Test("DER and IEEE P1363 forms round-trip", arguments: ECCurve.allCases)
    func rawRoundTrip(curve: ECCurve) throws {
        let sample = try Self.sample(curve)
        let parsed = try ECDSASignature(derEncoded: sample.der, curve: curve)
        #expect(parsed.r.count == curve.scalarByteCount && parsed.s.count == curve.scalarByteCount)
        let raw = try ECDSASignature(rawRepresentation: parsed.rawRepresentation, curve: curve)
        #expect(raw == parsed)
        try sample.key.verifySignature(raw, forDigest: sample.digest)
        let rawCount = 2 * curve.scalarByteCount
        #expect(throws: SignatureError.malformedSignature(.wrongLength(expected: rawCount, found: rawCount - 1))) {
            try ECDSASignature(rawRepresentation: parsed.rawRepresentation.dropLast(), curve: curve)
        }
    }

    @Test("Every proper prefix of a DER signature is refused as malformed", arguments: ECCurve.allCases)
    func dripFeed(curve: ECCurve) throws {
        let sample = try Self.sample(curve)
        for length in 0..<sample.der.count {
            do {
                _ = try ECDSASignature(derEncoded: sample.der.prefix(length), curve: curve)
                Issue.record("prefix of length \(length) parsed")
            } catch {
                #expect(Self.isMalformedSignature(error))
            }
        }
        #expect((try? ECDSASignature(derEncoded: sample.der, curve: curve)) != nil)
    }

    /// Non-DER or out-of-range encodings of small r = 1, s = 1 and friends.
    static let malformedDER: [(String, String)] = [
        ("wrong outer tag", "3106020101020101"),
        ("indefinite length", "3080020101020101"),
        ("non-minimal long-form length", "308106020101020101"),
        ("two-byte length", "30820006020101020101"),
        ("length longer than the input", "3007020101020101"),
        ("length shorter than the content", "3005020101020101"),
        ("trailing byte", "300602010102010100"),
        ("third element", "3009020101020101020101"),
        ("r missing", "3003020101"),
        ("r has the wrong tag", "3006030101020101"),
        ("r is empty", "30050200020101"),
        ("r is negative", "3006020181020101"),
        ("r has a superfluous leading zero", "300702020001020101"),
        ("r is zero", "3006020100020101"),
        ("s is zero", "3006020101020100"),
        ("r is minus one", "30060201ff020101"),
    ]

    @Test("Malformed DER and out-of-range values are refused", arguments: malformedDER.map { $0.0 })
    func malformed(name: String) throws {
        let der = hexBytes(try #require(Self.malformedDER.first { $0.0 == name }).1)
        #expect((try? ECDSASignature(derEncoded: hexBytes("3006020101020101"), curve: .p256)) != nil)
        do {
            _ = try ECDSASignature(derEncoded: der, curve: .p256)
            Issue.record("\(name) parsed")
        } catch {
            #expect(Self.isMalformedSignature(error))
        }
    }

    @Test("r and s must be below n; n − 1 is accepted")
    func orderBoundary() throws {
        let n = hexBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        var nMinusOne = n
        nMinusOne[31] -= 1
        let one = [UInt8](repeating: 0, count: 31) + [1]
        #expect((try? ECDSASignature(rawRepresentation: nMinusOne + nMinusOne, curve: .p256)) != nil)
        #expect(throws: SignatureError.malformedSignature(.scalarOutOfRange)) { try ECDSASignature(rawRepresentation: n + one, curve: .p256) }
        #expect(throws: SignatureError.malformedSignature(.scalarOutOfRange)) { try ECDSASignature(rawRepresentation: one + n, curve: .p256) }
        // In DER, n needs a leading zero octet (its top bit is set): 33 content bytes.
        let der = [0x30, 0x26, 0x02, 0x21, 0x00] + n + [0x02, 0x01, 0x01]
        #expect(throws: SignatureError.malformedSignature(.scalarOutOfRange)) { try ECDSASignature(derEncoded: der, curve: .p256) }
    }

    @Test("Compressed and uncompressed keys are the same key", arguments: ECCurve.allCases)
    func compressed(curve: ECCurve) throws {
        let sample = try Self.sample(curve)
        let width = curve.scalarByteCount
        let yIsOdd = sample.keyBytes[2 * width] & 1 == 1
        let compressed = [yIsOdd ? 0x03 : 0x02] + sample.keyBytes[1...width]
        let key = try ECDSAPublicKey(curve: curve, x962Representation: compressed)
        #expect(key == sample.key)
        #expect(key.x962Representation == sample.keyBytes)
        try key.verifySignature(sample.der, forDigest: sample.digest)
        // The other parity is the negated point: a different key.
        let flipped = [yIsOdd ? 0x02 : 0x03] + sample.keyBytes[1...width]
        #expect(throws: SignatureError.invalidSignature) {
            try ECDSAPublicKey(curve: curve, x962Representation: flipped)
                .verifySignature(sample.der, forDigest: sample.digest)
        }
    }

    @Test("Invalid public points are refused", arguments: ECCurve.allCases)
    func invalidPoints(curve: ECCurve) throws {
        let sample = try Self.sample(curve)
        let width = curve.scalarByteCount
        var candidates: [(String, [UInt8])] = [
            ("empty", []),
            ("infinity", [0x00]),
            ("hybrid form", [0x06] + sample.keyBytes.dropFirst()),
            ("unknown prefix", [0x05] + sample.keyBytes.dropFirst()),
            ("one byte short", Array(sample.keyBytes.dropLast())),
            ("one byte long", sample.keyBytes + [0]),
            ("compressed, wrong length", [0x02] + sample.keyBytes[1...width] + [0]),
            ("all-ones x (≥ p)", [0x04] + [UInt8](repeating: 0xff, count: 2 * width)),
            ("(0, 0)", [0x04] + [UInt8](repeating: 0, count: 2 * width)),
        ]
        var offCurve = sample.keyBytes
        offCurve[offCurve.count - 1] ^= 1
        candidates.append(("y changed", offCurve))
        for (name, bytes) in candidates {
            do {
                _ = try ECDSAPublicKey(curve: curve, x962Representation: bytes)
                Issue.record("\(name) was accepted")
            } catch {
                #expect(Self.isMalformedKey(error), "\(name): \(error)")
            }
        }
    }

    @Test("Coordinates equal to p are refused even though they are ≡ 0")
    func coordinateEqualToP() throws {
        // P-256 p; (0, √b) is on the curve, so (p, √b) would be too if reduced.
        let p = hexBytes("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
        let point = [0x02] + p
        #expect(throws: SignatureError.malformedPublicKey(.coordinateOutOfRange)) { try ECDSAPublicKey(curve: .p256, x962Representation: point) }
        let zero = [0x02] + [UInt8](repeating: 0, count: 32)
        #expect((try? ECDSAPublicKey(curve: .p256, x962Representation: zero)) != nil)
    }

    @Test("A signature parsed for one curve is refused by a key on another")
    func curveMismatch() throws {
        let sample = try Self.sample(.p256)
        let other = try Self.sample(.p384)
        let signature = try ECDSASignature(derEncoded: sample.der, curve: .p256)
        do {
            try other.key.verifySignature(signature, forDigest: sample.digest)
            Issue.record("accepted a P-256 signature with a P-384 key")
        } catch {
            guard case .algorithmKeyMismatch = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }
}
