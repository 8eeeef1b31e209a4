// A strict reader for exactly one DER structure, PKCS #1's RSAPublicKey
// (RFC 8017 Appendix A.1.1):
//
//     RSAPublicKey ::= SEQUENCE {
//         modulus           INTEGER,  -- n
//         publicExponent    INTEGER   -- e
//     }
//
// This is the content of the subjectPublicKey BIT STRING of an rsaEncryption
// SubjectPublicKeyInfo (RFC 3279 §2.3.1). Only DER is accepted (X.690 §10):
// definite lengths in the minimal number of octets (§10.1, §8.1.3.2 a),
// INTEGERs in the minimal number of octets (§8.3.2), no trailing bytes.

extension RSAPublicKey {
    /// Creates a key from a DER-encoded PKCS #1 `RSAPublicKey`
    /// (RFC 8017 Appendix A.1.1): `SEQUENCE { modulus INTEGER,
    /// publicExponent INTEGER }`.
    ///
    /// The parser is strict: DER only (X.690 §10: minimal definite lengths,
    /// minimal INTEGER encodings), both integers positive, nothing after the
    /// SEQUENCE and nothing after the exponent inside it. The key is then
    /// validated as by ``init(modulus:exponent:)-(_,some Collection<UInt8>)``.
    ///
    /// - Parameter pkcs1DER: The DER bytes, for example the contents of an
    ///   rsaEncryption SubjectPublicKeyInfo's BIT STRING after its
    ///   unused-bits octet (RFC 3279 §2.3.1).
    /// - Throws: ``SignatureError/malformedPublicKey(reason:)`` for any
    ///   encoding error, and the errors of
    ///   ``init(modulus:exponent:)-(_,some Collection<UInt8>)``.
    public init(pkcs1DER: some Collection<UInt8>) throws(SignatureError) {
        let bytes = Array(pkcs1DER)
        var reader = StrictDERReader(bytes: bytes[...])
        var sequence = try reader.read(tag: 0x30)
        guard reader.isAtEnd else {
            throw .malformedPublicKey(reason: "bytes after the RSAPublicKey SEQUENCE")
        }
        let modulus = try sequence.readPositiveInteger()
        let exponent = try sequence.readPositiveInteger()
        guard sequence.isAtEnd else {
            throw .malformedPublicKey(reason: "bytes after publicExponent in RSAPublicKey")
        }
        try self.init(modulus: modulus, exponent: exponent)
    }
}

/// A forward-only cursor over DER bytes that knows just enough for
/// `RSAPublicKey`: one-byte tags, definite minimal lengths of at most
/// 4 length octets, and INTEGERs.
private struct StrictDERReader {
    private var bytes: ArraySlice<UInt8>

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { bytes.isEmpty }

    /// Reads one TLV with the given tag and returns a reader over its value.
    mutating func read(tag: UInt8) throws(SignatureError) -> StrictDERReader {
        guard let first = bytes.first else {
            throw .malformedPublicKey(reason: "RSAPublicKey truncated")
        }
        guard first == tag else {
            throw .malformedPublicKey(reason: "unexpected tag in RSAPublicKey")
        }
        var index = bytes.index(after: bytes.startIndex)
        guard index < bytes.endIndex else {
            throw .malformedPublicKey(reason: "RSAPublicKey truncated")
        }
        let lengthByte = bytes[index]
        index += 1
        var length = 0
        if lengthByte < 0x80 {
            length = Int(lengthByte)
        } else {
            // X.690 §8.1.3.5: long form; 0x80 is the indefinite form, which
            // DER forbids (§10.1). At most 4 octets: RSA keys of 8192 bits
            // need 2, and 4 keeps the value well inside Int.
            let octetCount = Int(lengthByte & 0x7F)
            guard octetCount >= 1, octetCount <= 4 else {
                throw .malformedPublicKey(reason: "unsupported length encoding in RSAPublicKey")
            }
            guard bytes.endIndex - index >= octetCount else {
                throw .malformedPublicKey(reason: "RSAPublicKey truncated")
            }
            let firstLengthOctet = bytes[index]
            for _ in 0..<octetCount {
                length = (length << 8) | Int(bytes[index])
                index += 1
            }
            // X.690 §10.1: the minimal number of octets, so the long form
            // only for lengths of 128 and more, without a leading zero.
            guard length >= 0x80, firstLengthOctet != 0 else {
                throw .malformedPublicKey(reason: "non-minimal length in RSAPublicKey")
            }
        }
        guard bytes.endIndex - index >= length else {
            throw .malformedPublicKey(reason: "RSAPublicKey truncated")
        }
        let value = bytes[index..<(index + length)]
        bytes = bytes[(index + length)...]
        return StrictDERReader(bytes: value)
    }

    /// Reads an INTEGER that must be positive and minimally encoded
    /// (X.690 §8.3.2), returning its magnitude without the sign octet.
    mutating func readPositiveInteger() throws(SignatureError) -> ArraySlice<UInt8> {
        let content = try read(tag: 0x02).bytes
        guard let first = content.first else {
            throw .malformedPublicKey(reason: "empty INTEGER in RSAPublicKey")
        }
        guard first & 0x80 == 0 else {
            throw .malformedPublicKey(reason: "negative INTEGER in RSAPublicKey")
        }
        if first == 0 {
            // A leading zero is allowed only to keep the next octet's top
            // bit from reading as a sign (§8.3.2).
            let second = content.index(after: content.startIndex)
            guard second < content.endIndex, content[second] & 0x80 != 0 else {
                throw .malformedPublicKey(reason: "non-minimal INTEGER in RSAPublicKey")
            }
        }
        return content
    }
}
