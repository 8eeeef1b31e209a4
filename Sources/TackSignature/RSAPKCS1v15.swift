public import TackDigest
import TackX509

// RSASSA-PKCS1-v1_5 verification (RFC 8017 §8.2.2) with EMSA-PKCS1-v1_5
// encoding (RFC 8017 §9.2).
//
// The verifier never parses the recovered block. It builds the one encoded
// message a correct signature can produce,
//
//     EM = 0x00 || 0x01 || PS (0xFF…, at least 8 bytes) || 0x00 || T,
//     T  = DER(DigestInfo { { hash OID, NULL }, digest }),
//
// and compares all k bytes with the recovered block. This is RFC 8017's own
// method (§8.2.2 step 3 encodes, step 4 compares) and shuts out the attacks
// against parsing verifiers: Bleichenbacher's 2006 low-exponent forgery
// (garbage after the DigestInfo), BERserk (long-form lengths hiding bytes),
// and every Wycheproof "InvalidAsnInPadding" or "BerEncodedPadding" case.

extension RSAPublicKey {
    /// Verifies an RSASSA-PKCS1-v1_5 signature over a message
    /// (RFC 8017 §8.2.2).
    ///
    /// Hashes `message` with `hash` and then verifies as
    /// ``verifyPKCS1v15Signature(_:forDigest:hash:)``.
    ///
    /// - Parameters:
    ///   - signature: The signature, exactly ``signatureByteCount`` bytes.
    ///   - message: The signed bytes (for a certificate, the DER of its
    ///     TBSCertificate).
    ///   - hash: The hash named by the signature algorithm.
    /// - Throws: ``SignatureError/invalidSignature`` if the signature does
    ///   not match; ``SignatureError/malformedSignature(_:)`` if its
    ///   length differs from the modulus length or its value is not below n.
    public func verifyPKCS1v15Signature(
        _ signature: some Collection<UInt8>,
        for message: some Collection<UInt8>,
        hash: DigestAlgorithm
    ) throws(SignatureError) {
        try withDigest(of: message, hash: hash) { (digest) throws(SignatureError) in
            try verifyPKCS1v15Signature(signature, forDigest: digest, hash: hash)
        }
    }

    /// Verifies an RSASSA-PKCS1-v1_5 signature over a precomputed digest
    /// (RFC 8017 §8.2.2, steps 1 to 4).
    ///
    /// The expected encoded message is built in full and compared with the
    /// recovered one byte for byte:
    ///
    /// `00 01 FF…FF 00 || DigestInfo prefix || digest`
    ///
    /// What is deliberately refused:
    /// - A signature of any length other than the modulus length, including
    ///   one with its leading zero bytes stripped (RFC 8017 §8.2.2 step 1).
    /// - A signature value s ≥ n (RFC 8017 §5.2.2 step 1), which would
    ///   otherwise make s and s + n two encodings of one signature.
    /// - Every DigestInfo but the one DER encoding with NULL parameters
    ///   that RFC 8017 §9.2 note 1 lists. In particular the encoding without
    ///   the NULL, which some legacy signers produced: Wycheproof rates it
    ///   "acceptable" (flag `MissingNull`), Go's crypto/rsa and BoringSSL
    ///   refuse it, and so does Tack, so that a signature has exactly one
    ///   valid encoding.
    /// - A digest of the wrong length for `hash`.
    ///
    /// - Parameters:
    ///   - signature: The signature, exactly ``signatureByteCount`` bytes.
    ///   - digest: The message digest, `DigestAlgorithm.byteCount` bytes.
    ///   - hash: The hash that produced `digest`.
    /// - Throws: ``SignatureError/invalidSignature`` if the signature does
    ///   not match; ``SignatureError/malformedSignature(_:)`` if its
    ///   length differs from the modulus length or its value is not below n;
    ///   ``SignatureError/invalidParameters(_:)`` if the digest length
    ///   does not match `hash`; ``SignatureError/unsupported(_:)`` for MD5 and SHA-1.
    public func verifyPKCS1v15Signature(
        _ signature: some Collection<UInt8>,
        forDigest digest: some Collection<UInt8>,
        hash: DigestAlgorithm
    ) throws(SignatureError) {
        guard let prefix = hash.digestInfoPrefix else { throw .unsupported(.weakDigest(hash)) }
        guard digest.count == hash.byteCount else {
            throw .invalidParameters(.digestLengthMismatch)
        }
        let k = signatureByteCount
        // RFC 8017 §9.2 step 3: emLen ≥ tLen + 11. With k ≥ 128 bytes (the
        // 1024-bit floor) and tLen ≤ 19 + 64, this always holds.
        let tLength = prefix.count + digest.count
        guard k >= tLength + 11 else {
            throw .unsupported(.rsaModulusTooShortForHash)
        }
        try withContiguousBytes(of: signature) { (signatureBytes) throws(SignatureError) in
            try withContiguousBytes(of: digest) { (digestBytes) throws(SignatureError) in
                try withMessageRepresentative(signature: signatureBytes) {
                    (recovered, expected) throws(SignatureError) in
                    // EM = 00 01 PS 00 T, PS = k − tLen − 3 bytes of FF.
                    let separator = k - tLength - 1
                    expected[0] = 0x00
                    expected[1] = 0x01
                    var i = 2
                    while i < separator {
                        expected[i] = 0xFF
                        i += 1
                    }
                    expected[separator] = 0x00
                    var j = 0
                    while j < prefix.count {
                        expected[separator + 1 + j] = prefix[j]
                        j += 1
                    }
                    let digestStart = separator + 1 + prefix.count
                    j = 0
                    while j < digestBytes.count {
                        expected[digestStart + j] = digestBytes[j]
                        j += 1
                    }
                    guard Self.constantTimeEqual(UnsafeBufferPointer(expected), recovered) else {
                        throw .invalidSignature
                    }
                }
            }
        }
    }
}

extension RSAPublicKey {
    /// Whether two equally long buffers hold the same bytes, looking at every
    /// byte regardless of where the first difference is.
    static func constantTimeEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        var i = 0
        while i < a.count {
            difference |= a[i] ^ b[i]
            i += 1
        }
        return difference == 0
    }
}
