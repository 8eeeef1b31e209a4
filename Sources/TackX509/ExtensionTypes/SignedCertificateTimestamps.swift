public import TackDER

/// The embedded Signed Certificate Timestamp list (RFC 6962 §3.3): proofs that the
/// certificate was submitted to Certificate Transparency logs.
///
/// The extension value is an OCTET STRING whose contents are the TLS-encoded
/// `SignedCertificateTimestampList` (RFC 6962 §3.3):
///
/// ```
/// opaque SerializedSCT<1..2^16-1>;
/// struct { SerializedSCT sct_list <1..2^16-1>; } SignedCertificateTimestampList;
/// ```
///
/// The list is kept as bytes. Decoding checks the TLS framing: the outer 16-bit
/// length covers exactly the rest, and each SCT has a non-zero 16-bit length that
/// stays inside the list. Iterating yields each serialized SCT as a slice; the
/// SCTs themselves (version, log ID, timestamp, signature) are not decoded.
public struct SignedCertificateTimestampList: Sendable, Hashable, Sequence {
    /// The embedded SCT list extension, 1.3.6.1.4.1.11129.2.4.2.
    public static let oid = OID(1, 3, 6, 1, 4, 1, 11129, 2, 4, 2)

    /// The TLS-encoded list (the inner OCTET STRING's contents), a slice of the
    /// certificate's bytes.
    public let list: ArraySlice<UInt8>
    /// The number of SCTs (at least 1).
    public let count: Int

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` if the value is not
    ///   one OCTET STRING, or ``X509Error/Reason/invalidExtension(_:_:)`` at
    ///   the offending length field when the TLS framing is wrong.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = SignedCertificateTimestampList.oid
        let range = try readX509(derEncoded, range: valueRange) { (reader) throws(DERError) -> Range<Int> in
            try reader.readOctetString()
        }
        let list = derEncoded[range]
        guard list.count >= 2 else {
            throw X509Error(.invalidExtension(oid, .truncatedSCTList), at: range.lowerBound)
        }
        let declared = Int(list[range.lowerBound]) << 8 | Int(list[range.lowerBound + 1])
        guard declared == list.count - 2, declared > 0 else {
            throw X509Error(.invalidExtension(oid, .sctListLengthMismatch),
                            at: range.lowerBound)
        }
        var position = range.lowerBound + 2
        var count = 0
        while position < range.upperBound {
            guard range.upperBound - position >= 2 else {
                throw X509Error(.invalidExtension(oid, .truncatedSCTLength), at: position)
            }
            let length = Int(derEncoded[position]) << 8 | Int(derEncoded[position + 1])
            guard length > 0, length <= range.upperBound - position - 2 else {
                throw X509Error(.invalidExtension(oid, .invalidSCTLength), at: position)
            }
            position += 2 + length
            count += 1
        }
        self.list = list
        self.count = count
    }

    /// The number of SCTs.
    public var underestimatedCount: Int { count }

    /// The serialized SCTs in list order (without their length prefixes).
    public func makeIterator() -> Iterator {
        Iterator(list: list, position: list.startIndex + 2)
    }

    /// Iterates the serialized SCTs.
    public struct Iterator: IteratorProtocol {
        internal let list: ArraySlice<UInt8>
        internal var position: Int

        /// The next serialized SCT, or `nil` at the end.
        public mutating func next() -> ArraySlice<UInt8>? {
            guard list.endIndex - position >= 2 else { return nil }
            let length = Int(list[position]) << 8 | Int(list[position + 1])
            guard length <= list.endIndex - position - 2 else { return nil }
            defer { position += 2 + length }
            return list[(position + 2)..<(position + 2 + length)]
        }
    }
}
