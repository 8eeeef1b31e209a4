// PKCS #1's RSAPublicKey (RFC 8017 Appendix A.1.1), read with TackDER:
//
//     RSAPublicKey ::= SEQUENCE {
//         modulus           INTEGER,  -- n
//         publicExponent    INTEGER   -- e
//     }
//
// This is the content of the subjectPublicKey BIT STRING of an rsaEncryption
// SubjectPublicKeyInfo (RFC 3279 §2.3.1). TackDER accepts DER only
// (X.690 §10: definite, minimal lengths; §8.3.2: minimal INTEGERs) and
// `DER.read` refuses trailing bytes.

import TackDER

extension RSAPublicKey {
    /// Creates a key from a DER-encoded PKCS #1 `RSAPublicKey`
    /// (RFC 8017 Appendix A.1.1): `SEQUENCE { modulus INTEGER,
    /// publicExponent INTEGER }`.
    ///
    /// The reading is strict: DER only (X.690 §10: minimal definite lengths;
    /// §8.3.2: minimal INTEGERs), both integers non-negative, nothing after
    /// the exponent inside the SEQUENCE and nothing after the SEQUENCE. The
    /// key is then validated as by
    /// ``init(modulus:exponent:)-(_,Collection<UInt8>)``.
    ///
    /// - Parameter pkcs1DER: The DER bytes, for example the contents of an
    ///   rsaEncryption SubjectPublicKeyInfo's BIT STRING (RFC 3279 §2.3.1).
    /// - Throws: ``SignatureError/malformedPublicKey(_:)`` for any
    ///   encoding error (wrapping TackDER's error, with its reason and byte
    ///   offset), and the errors of
    ///   ``init(modulus:exponent:)-(_,Collection<UInt8>)``.
    public init(pkcs1DER: [UInt8]) throws(SignatureError) {
        let ranges: (modulus: Range<Int>, exponent: Range<Int>)
        do {
            ranges = try DER.read(pkcs1DER) { (reader) throws(DERError) in
                var sequence = try reader.enterSequence()
                let modulus = try sequence.readUnsignedIntegerMagnitude()
                let exponent = try sequence.readUnsignedIntegerMagnitude()
                try sequence.expectEnd()
                return (modulus, exponent)
            }
        } catch {
            throw .malformedPublicKey(.encoding(error))
        }
        try self.init(modulus: pkcs1DER[ranges.modulus], exponent: pkcs1DER[ranges.exponent])
    }
}
