public import TackDigest
import TackX509

// RSASSA-PSS verification (RFC 8017 §8.1.2) with EMSA-PSS-VERIFY
// (RFC 8017 §9.1.2) and MGF1 (§B.2.1), and the parameter rules of
// RFC 4055 §3.1.

/// The parameters of an RSASSA-PSS signature: RFC 8017 Appendix A.2.3's
/// `RSASSA-PSS-params`, restricted to what Tack verifies.
///
/// ```
/// RSASSA-PSS-params ::= SEQUENCE {
///     hashAlgorithm      [0] HashAlgorithm      DEFAULT sha1,
///     maskGenAlgorithm   [1] MaskGenAlgorithm   DEFAULT mgf1SHA1,
///     saltLength         [2] INTEGER            DEFAULT 20,
///     trailerField       [3] TrailerField       DEFAULT trailerFieldBC
/// }
/// ```
///
/// Rules applied (RFC 4055 §3.1 and RFC 8017 §9.1):
/// - The mask generation function is MGF1, the only one RFC 8017 defines;
///   its hash may be any `DigestAlgorithm`. RFC 4055 says it SHOULD be the same
///   as `hashAlgorithm`, not MUST, and Wycheproof rates signatures with
///   distinct hashes valid, so this type allows them; certificate policy
///   (for example the CA/Browser Forum's, which fixes the pairs) can be
///   stricter on top.
/// - `saltLength` is the exact salt length the verifier requires
///   (RFC 8017 §9.1.2 step 10 checks the padding for exactly that length);
///   it must not be negative. Whether it fits a given key is checked at
///   verification (§9.1.2 step 3).
/// - `trailerField` must be 1, the 0xBC trailer (RFC 4055 §3.1: "this
///   field MUST be 1"; RFC 8017 A.2.3 defines no other value).
/// - The DEFAULT values mean SHA-1, which Tack does not verify: a
///   certificate whose PSS parameters omit `hashAlgorithm` is unsupported.
///   Decoding the DER parameters is the certificate layer's job.
public struct PSSParameters: Sendable, Hashable {
    /// The hash of the message and of M′ (hashAlgorithm).
    public let hash: DigestAlgorithm
    /// The hash MGF1 uses (the parameter of maskGenAlgorithm).
    public let mgf1Hash: DigestAlgorithm
    /// The salt length in bytes (sLen).
    public let saltLength: Int
    /// The trailer field; always 1 (trailer byte 0xBC).
    public let trailerField: Int

    /// The largest salt length accepted: an 8192-bit modulus has emLen =
    /// 1024 and leaves at most 1024 − 28 − 2 bytes of salt even with SHA-224.
    public static let maximumSaltLength = 1024

    /// Creates parameters after checking them against RFC 4055 §3.1.
    ///
    /// - Parameters:
    ///   - hash: The message hash.
    ///   - mgf1Hash: The hash of MGF1.
    ///   - saltLength: The salt length in bytes, 0 through
    ///     ``maximumSaltLength``.
    ///   - trailerField: Must be 1.
    /// - Throws: ``SignatureError/invalidParameters(_:)`` for a negative
    ///   or oversized salt length or a trailer field other than 1.
    public init(hash: DigestAlgorithm, mgf1Hash: DigestAlgorithm, saltLength: Int, trailerField: Int = 1) throws(SignatureError) {
        guard trailerField == 1 else {
            throw .invalidParameters(.pssTrailerField)
        }
        guard saltLength >= 0 else {
            throw .invalidParameters(.negativeSaltLength)
        }
        guard saltLength <= Self.maximumSaltLength else {
            throw .invalidParameters(.saltLengthTooLarge)
        }
        self.hash = hash
        self.mgf1Hash = mgf1Hash
        self.saltLength = saltLength
        self.trailerField = trailerField
    }

    /// The usual parameters: MGF1 with the same hash, a salt as long as the
    /// digest, trailer field 1 (RFC 8017 §9.1 note 4; the pairs RFC 8446 and
    /// the CA/Browser Forum baseline requirements use).
    ///
    /// - Parameter hash: The message and MGF1 hash.
    public init(hash: DigestAlgorithm) {
        self.hash = hash
        self.mgf1Hash = hash
        self.saltLength = hash.byteCount
        self.trailerField = 1
    }
}

extension RSAPublicKey {
    /// Verifies an RSASSA-PSS signature over a message (RFC 8017 §8.1.2).
    ///
    /// Hashes `message` with `parameters.hash` and then verifies as
    /// ``verifyPSSSignature(_:forDigest:parameters:)``.
    ///
    /// - Parameters:
    ///   - signature: The signature, exactly ``signatureByteCount`` bytes.
    ///   - message: The signed bytes.
    ///   - parameters: The PSS parameters of the signature algorithm.
    /// - Throws: ``SignatureError/invalidSignature`` if the signature does
    ///   not match; ``SignatureError/malformedSignature(_:)`` for a
    ///   wrong length or a value not below n;
    ///   ``SignatureError/invalidParameters(_:)`` if the salt cannot fit
    ///   this key.
    public func verifyPSSSignature(
        _ signature: some Collection<UInt8>,
        for message: some Collection<UInt8>,
        parameters: PSSParameters
    ) throws(SignatureError) {
        try withDigest(of: message, hash: parameters.hash) { (digest) throws(SignatureError) in
            try verifyPSSSignature(signature, forDigest: digest, parameters: parameters)
        }
    }

    /// Verifies an RSASSA-PSS signature over a precomputed message digest
    /// (RFC 8017 §8.1.2 with EMSA-PSS-VERIFY, §9.1.2).
    ///
    /// With emBits = modBits − 1 and emLen = ⌈emBits / 8⌉, the recovered
    /// block must be EM = maskedDB || H || 0xBC with the leftmost
    /// 8·emLen − emBits bits zero; DB = maskedDB ⊕ MGF1(H) must be
    /// 0x00 … 0x00 0x01 || salt with exactly `saltLength` bytes of salt; and
    /// H must equal Hash(0x00 × 8 || mHash || salt). When modBits − 1 is a
    /// multiple of 8, the signature's first recovered byte must also be zero
    /// (I2OSP to emLen bytes, §8.1.2 step 2c).
    ///
    /// - Parameters:
    ///   - signature: The signature, exactly ``signatureByteCount`` bytes.
    ///   - digest: mHash, `parameters.hash.byteCount` bytes.
    ///   - parameters: The PSS parameters of the signature algorithm.
    /// - Throws: ``SignatureError/invalidSignature`` if the signature does
    ///   not match; ``SignatureError/malformedSignature(_:)`` for a
    ///   wrong length or a value not below n;
    ///   ``SignatureError/invalidParameters(_:)`` if the digest length
    ///   does not match the hash or the salt cannot fit this key
    ///   (emLen < hLen + sLen + 2, §9.1.2 step 3).
    public func verifyPSSSignature(
        _ signature: some Collection<UInt8>,
        forDigest digest: some Collection<UInt8>,
        parameters: PSSParameters
    ) throws(SignatureError) {
        try parameters.hash.requireSHA2()
        try parameters.mgf1Hash.requireSHA2()
        let hLen = parameters.hash.byteCount
        let sLen = parameters.saltLength
        guard digest.count == hLen else {
            throw .invalidParameters(.digestLengthMismatch)
        }
        let emBits = modulusBitCount - 1
        let emLen = (emBits + 7) / 8
        // Step 3. hLen ≤ 64 and sLen ≤ 1024, so the sum cannot overflow.
        guard emLen >= hLen + sLen + 2 else {
            throw .invalidParameters(.saltTooLongForKey)
        }
        let k = signatureByteCount
        try withContiguousBytes(of: signature) { (signatureBytes) throws(SignatureError) in
            try withContiguousBytes(of: digest) { (digestBytes) throws(SignatureError) in
                try withMessageRepresentative(signature: signatureBytes) {
                    (recovered, scratch) throws(SignatureError) in
                    // §8.1.2 step 2c: I2OSP(m, emLen) fails unless the
                    // bytes in front of the last emLen are zero (k − emLen
                    // is 0 or 1).
                    var front = 0
                    while front < k - emLen {
                        guard recovered[front] == 0 else { throw .invalidSignature }
                        front += 1
                    }
                    let em = UnsafeBufferPointer(rebasing: recovered[(k - emLen)...])
                    // Step 4: the trailer.
                    guard em[emLen - 1] == 0xBC else { throw .invalidSignature }
                    // Step 5: maskedDB || H.
                    let dbLen = emLen - hLen - 1
                    let h = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: em[dbLen..<(dbLen + hLen)]))
                    // Step 6: the leftmost 8·emLen − emBits bits are zero.
                    let unusedBits = 8 * emLen - emBits
                    let topMask: UInt8 = 0xFF >> UInt8(unusedBits)
                    guard em[0] & ~topMask == 0 else { throw .invalidSignature }
                    // Steps 7 and 8: DB = maskedDB ⊕ MGF(H, dbLen).
                    let db = UnsafeMutableBufferPointer(rebasing: scratch[0..<dbLen])
                    var i = 0
                    while i < dbLen {
                        db[i] = em[i]
                        i += 1
                    }
                    parameters.mgf1Hash.xorMGF1Mask(seed: h, into: db)
                    // Step 9: clear the unused top bits.
                    db[0] &= topMask
                    // Step 10: PS of zeros, then 0x01, then exactly sLen bytes.
                    let separator = dbLen - sLen - 1
                    i = 0
                    while i < separator {
                        guard db[i] == 0 else { throw .invalidSignature }
                        i += 1
                    }
                    guard db[separator] == 0x01 else { throw .invalidSignature }
                    // Steps 11 to 14.
                    let salt = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: db[(separator + 1)...]))
                    let matches = parameters.hash.pssHashMatches(
                        messageDigest: UnsafeRawBufferPointer(digestBytes), salt: salt, expected: h
                    )
                    guard matches else { throw .invalidSignature }
                }
            }
        }
    }
}
