public import TackDigest
import TackX509

extension DigestAlgorithm {
    /// The digest length in bytes (hLen in RFC 8017); the same as `DigestAlgorithm.byteCount`.
    @available(*, deprecated, renamed: "byteCount")
    public var digestByteCount: Int { byteCount }

    /// Throws ``SignatureError/Unsupported/weakDigest(_:)`` unless the digest
    /// resists collisions (a SHA-2 function): MD5 and SHA-1 are refused for
    /// signatures whatever TackDigest computes; and
    /// ``SignatureError/Unsupported/digest(_:)`` for the SHA-512 family when the
    /// `SHA512` package trait is off.
    func requireSHA2() throws(SignatureError) {
        guard isCollisionResistant else { throw .unsupported(.weakDigest(self)) }
        #if !TACK_SHA512
        guard !isSHA512Family else { throw .unsupported(.digest(self)) }
        #endif
    }

    /// SHA-384, SHA-512, SHA-512/224 and SHA-512/256: the digests the `SHA512`
    /// package trait brings.
    var isSHA512Family: Bool {
        switch self {
        case .sha384, .sha512, .sha512_224, .sha512_256: true
        case .md5, .sha1, .sha224, .sha256: false
        }
    }

    /// The DER encoding of `DigestInfo` up to, and including, the header of
    /// the digest OCTET STRING: RFC 8017 §9.2, note 1; `nil` for MD5 and
    /// SHA-1, which signatures refuse (RFC 8017 §9.2 note 1 lists the
    /// SHA-512/224 and SHA-512/256 prefixes too).
    ///
    /// ```
    /// DigestInfo ::= SEQUENCE {
    ///     digestAlgorithm AlgorithmIdentifier,  -- { OID, NULL }
    ///     digest OCTET STRING
    /// }
    /// ```
    ///
    /// The `parameters` are always an explicit NULL (05 00), as RFC 8017
    /// writes them; see ``RSAPublicKey/verifyPKCS1v15Signature(_:forDigest:hash:)``
    /// for why the form without parameters is refused.
    var digestInfoPrefix: [UInt8]? {
        switch self {
        case .md5, .sha1:
            nil
        case .sha224:
            [0x30, 0x2D, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04, 0x05, 0x00, 0x04, 0x1C]
        case .sha256:
            [0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
        case .sha384:
            [0x30, 0x41, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30]
        case .sha512:
            [0x30, 0x51, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40]
        case .sha512_224:
            [0x30, 0x2D, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x05, 0x05, 0x00, 0x04, 0x1C]
        case .sha512_256:
            [0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x06, 0x05, 0x00, 0x04, 0x20]
        }
    }
}

// The hashing RSA verification needs, on top of TackDigest: the message digest,
// MGF1 (RFC 8017 §B.2.1) and PSS's H' (RFC 8017 §9.1.2 steps 12 and 13).
//
// TackDigest's functions are distinct types; `DigestAlgorithm` picks one with a switch
// and the work itself is written once, generic over `SHA2HashFunction`
// (no existentials, so it stays Embedded-clean).

extension DigestAlgorithm {
    /// Hashes `bytes` and passes the digest to `body`.
    func withDigest<Result>(
        of bytes: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws(SignatureError) -> Result
    ) throws(SignatureError) -> Result {
        switch self {
        case .md5, .sha1: throw .unsupported(.weakDigest(self))
        case .sha224: try SHA224.hash(bytes).withUnsafeBytes(body)
        case .sha256: try SHA256.hash(bytes).withUnsafeBytes(body)
        #if TACK_SHA512
        case .sha384: try SHA384.hash(bytes).withUnsafeBytes(body)
        case .sha512: try SHA512.hash(bytes).withUnsafeBytes(body)
        case .sha512_224: try SHA512_224.hash(bytes).withUnsafeBytes(body)
        case .sha512_256: try SHA512_256.hash(bytes).withUnsafeBytes(body)
        #else
        case .sha384, .sha512, .sha512_224, .sha512_256: throw .unsupported(.digest(self))
        #endif
        }
    }

    /// XORs MGF1(seed, target.count) with this hash into `target`
    /// (RFC 8017 §B.2.1; §9.1.2 steps 7 and 8 in one pass). MD5 and SHA-1
    /// (refused by ``requireSHA2()`` before any use) leave `target` as it is.
    func xorMGF1Mask(seed: UnsafeRawBufferPointer, into target: UnsafeMutableBufferPointer<UInt8>) {
        switch self {
        case .md5, .sha1: return
        case .sha224: xorMGF1(SHA224.self, seed: seed, into: target)
        case .sha256: xorMGF1(SHA256.self, seed: seed, into: target)
        #if TACK_SHA512
        case .sha384: xorMGF1(SHA384.self, seed: seed, into: target)
        case .sha512: xorMGF1(SHA512.self, seed: seed, into: target)
        case .sha512_224: xorMGF1(SHA512_224.self, seed: seed, into: target)
        case .sha512_256: xorMGF1(SHA512_256.self, seed: seed, into: target)
        #else
        case .sha384, .sha512, .sha512_224, .sha512_256: return  // refused by requireSHA2() before any use
        #endif
        }
    }

    /// Whether Hash(0x00 × 8 || mHash || salt) equals `expected`
    /// (RFC 8017 §9.1.2 steps 12 to 14); `false` for MD5 and SHA-1 (refused
    /// by ``requireSHA2()`` before any use), so that they fail closed.
    func pssHashMatches(
        messageDigest: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, expected: UnsafeRawBufferPointer
    ) -> Bool {
        switch self {
        case .md5, .sha1: false
        case .sha224: pssHash(SHA224.self, messageDigest, salt, expected)
        case .sha256: pssHash(SHA256.self, messageDigest, salt, expected)
        #if TACK_SHA512
        case .sha384: pssHash(SHA384.self, messageDigest, salt, expected)
        case .sha512: pssHash(SHA512.self, messageDigest, salt, expected)
        case .sha512_224: pssHash(SHA512_224.self, messageDigest, salt, expected)
        case .sha512_256: pssHash(SHA512_256.self, messageDigest, salt, expected)
        #else
        case .sha384, .sha512, .sha512_224, .sha512_256: false  // refused by requireSHA2() before any use: fails closed
        #endif
        }
    }
}

/// MGF1 (RFC 8017 §B.2.1): T = Hash(seed || C) for C = 0, 1, … as 4-byte
/// big-endian counters, XORed into `target` as it is produced. The mask
/// never exceeds 1 KiB (an 8192-bit modulus), so the counter stays far
/// below the 2^32 · hLen limit of step 1.
private func xorMGF1<H: SHA2HashFunction>(
    _: H.Type, seed: UnsafeRawBufferPointer, into target: UnsafeMutableBufferPointer<UInt8>
) {
    var counter: UInt32 = 0
    var offset = 0
    while offset < target.count {
        var hasher = H()
        hasher.update(seed)
        withUnsafeBytes(of: counter.bigEndian) { hasher.update($0) }
        let block = hasher.finalize()
        block.withUnsafeBytes { bytes in
            var i = 0
            while i < bytes.count && offset + i < target.count {
                target[offset + i] ^= bytes[i]
                i += 1
            }
        }
        offset += H.digestByteCount
        counter += 1
    }
}

/// H' = Hash(0x00 × 8 || mHash || salt), compared with `expected`.
private func pssHash<H: SHA2HashFunction>(
    _: H.Type, _ messageDigest: UnsafeRawBufferPointer, _ salt: UnsafeRawBufferPointer,
    _ expected: UnsafeRawBufferPointer
) -> Bool {
    var hasher = H()
    let zeros: UInt64 = 0
    withUnsafeBytes(of: zeros) { hasher.update($0) }
    hasher.update(messageDigest)
    hasher.update(salt)
    let digest = hasher.finalize()
    return digest.withUnsafeBytes { bytes in
        guard bytes.count == expected.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<bytes.count {
            difference |= bytes[i] ^ expected[i]
        }
        return difference == 0
    }
}

extension RSAPublicKey {
    /// Hashes `message` with `hash` and passes the digest to `body`.
    func withDigest<Result>(
        of message: some Collection<UInt8>, hash: DigestAlgorithm,
        _ body: (UnsafeRawBufferPointer) throws(SignatureError) -> Result
    ) throws(SignatureError) -> Result {
        try withContiguousBytes(of: message) { (bytes) throws(SignatureError) -> Result in
            try hash.withDigest(of: UnsafeRawBufferPointer(bytes), body)
        }
    }
}
