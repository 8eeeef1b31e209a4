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
/// stays inside the list. Iterating yields each serialized SCT as a slice;
/// ``entries`` decodes them (``SignedCertificateTimestamp``).
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
        let framing = SignedCertificateTimestampList.frame(list)
        if let (fault, offset) = framing.fault {
            throw X509Error(.invalidExtension(oid, fault), at: offset)
        }
        self.list = list
        self.count = framing.ranges.count
    }

    /// The TLS framing of a `SignedCertificateTimestampList` (RFC 6962 §3.3): the
    /// ranges of the serialized SCTs (without their length prefixes) found before the
    /// first fault, and that fault with its absolute offset, if any.
    ///
    /// The one reader of the framing: the extension's decoder refuses a fault, while
    /// ``decodeEntries(_:)`` reports it as a malformed entry.
    static func frame(_ list: ArraySlice<UInt8>) -> (ranges: [Range<Int>], fault: (X509Error.ExtensionFault, Int)?) {
        let start = list.startIndex, end = list.endIndex
        guard list.count >= 2 else { return ([], (.truncatedSCTList, start)) }
        let declared = Int(list[start]) << 8 | Int(list[start + 1])
        guard declared == list.count - 2, declared > 0 else { return ([], (.sctListLengthMismatch, start)) }
        var ranges: [Range<Int>] = []
        var position = start + 2
        while position < end {
            guard end - position >= 2 else { return (ranges, (.truncatedSCTLength, position)) }
            let length = Int(list[position]) << 8 | Int(list[position + 1])
            guard length > 0, length <= end - position - 2 else { return (ranges, (.invalidSCTLength, position)) }
            ranges.append((position + 2)..<(position + 2 + length))
            position += 2 + length
        }
        return (ranges, nil)
    }

    /// Decodes a TLS-encoded `SignedCertificateTimestampList` from any source (the
    /// certificate extension's contents, the OCSP single-response extension's, or the
    /// TLS `signed_certificate_timestamp` extension data, RFC 6962 §3.3), leniently:
    /// every SCT becomes one entry, decoded or with the reason it is malformed, and a
    /// framing fault becomes a last malformed entry (with the SCTs framed before it).
    ///
    /// - Parameter tlsEncoded: The list's bytes, its two-octet length included.
    /// - Returns: One entry per SCT, in list order; at least one entry.
    public static func decodeEntries(_ tlsEncoded: ArraySlice<UInt8>) -> [Result<SignedCertificateTimestamp, SCTError>] {
        let framing = frame(tlsEncoded)
        var entries: [Result<SignedCertificateTimestamp, SCTError>] = []
        entries.reserveCapacity(framing.ranges.count + 1)
        for range in framing.ranges {
            do {
                entries.append(.success(try SignedCertificateTimestamp(serialized: tlsEncoded[range])))
            } catch {
                entries.append(.failure(error))
            }
        }
        if let (fault, offset) = framing.fault {
            entries.append(.failure(SCTError(.malformedList(fault), at: offset)))
        }
        return entries
    }

    /// Every SCT of the list, decoded, or with the reason it is malformed (see
    /// ``decodeEntries(_:)``).
    public var entries: [Result<SignedCertificateTimestamp, SCTError>] {
        SignedCertificateTimestampList.decodeEntries(list)
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
