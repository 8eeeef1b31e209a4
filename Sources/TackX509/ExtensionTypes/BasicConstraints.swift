public import TackDER

/// The basic constraints extension (RFC 5280 §4.2.1.9): whether the subject is a
/// CA, and how many intermediate CAs may follow it.
///
/// ```
/// BasicConstraints ::= SEQUENCE {
///      cA                      BOOLEAN DEFAULT FALSE,
///      pathLenConstraint       INTEGER (0..MAX) OPTIONAL }
/// ```
///
/// Strict DER: an explicitly encoded `cA FALSE` is rejected (X.690 §11.5). A
/// `pathLenConstraint` without `cA` is accepted and kept (RFC 5280 forbids CAs to
/// issue it, and path validation ignores it for non-CA certificates).
public struct BasicConstraints: Sendable, Hashable {
    /// `id-ce-basicConstraints`, 2.5.29.19.
    public static let oid = OID(2, 5, 29, 19)

    /// The `cA` flag: whether the certified key may sign certificates.
    public let isCertificateAuthority: Bool
    /// The `pathLenConstraint`: the most non-self-issued intermediate
    /// certificates that may follow this one in a path, or `nil` for no limit.
    public let pathLengthConstraint: Int?

    /// Creates a value directly.
    ///
    /// - Parameters:
    ///   - isCertificateAuthority: The `cA` flag.
    ///   - pathLengthConstraint: The path length constraint, if any.
    public init(isCertificateAuthority: Bool, pathLengthConstraint: Int?) {
        self.isCertificateAuthority = isCertificateAuthority
        self.pathLengthConstraint = pathLengthConstraint
    }

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors,
    ///   including `DERError.Reason.defaultValueEncoded` for an encoded
    ///   `cA FALSE`, `DERError.Reason.negativeInteger` and
    ///   `DERError.Reason.integerOverflow` for the path length.
    public init(derEncoded: borrowing [UInt8], valueRange: Range<Int>) throws(X509Error) {
        self = try BasicConstraints.decode(derEncoded, valueRange: valueRange)
    }

    /// Decodes the extension value in `valueRange` of `bytes` (the body of
    /// ``init(derEncoded:valueRange:)``, inlined into ``DecodedExtensions``).
    @inline(__always)
    internal static func decode(_ bytes: [UInt8], valueRange: Range<Int>) throws(X509Error) -> BasicConstraints {
        // Fast path for the three encodings CAs use (30 00; 30 03 01 01 FF;
        // 30 06 01 01 FF 02 01 n with n < 128); the full reader handles the rest.
        // It saves 378 instructions per certificate of 12,813 (2.9%,
        // Benchmarks/count-instructions.sh x509-parse), and
        // ExtensionFastPathTests.basicConstraintsAgree holds it to decodeInGeneral
        // on seeded mutations.
        let lower = valueRange.lowerBound, length = valueRange.count
        if lower >= 0, valueRange.upperBound <= bytes.count, length >= 2, bytes[lower] == 0x30,
           Int(bytes[lower + 1]) == length - 2 {
            if length == 2 { return BasicConstraints(isCertificateAuthority: false, pathLengthConstraint: nil) }
            if length >= 5, bytes[lower + 2] == 0x01, bytes[lower + 3] == 0x01, bytes[lower + 4] == 0xFF {
                if length == 5 { return BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: nil) }
                if length == 8, bytes[lower + 5] == 0x02, bytes[lower + 6] == 0x01, bytes[lower + 7] < 0x80 {
                    return BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: Int(bytes[lower + 7]))
                }
            }
        }
        return try decodeInGeneral(bytes, valueRange: valueRange)
    }

    /// The general decoder, out of line so that the fast path stays small.
    @inline(never)
    internal static func decodeInGeneral(_ bytes: [UInt8], valueRange: Range<Int>) throws(X509Error) -> BasicConstraints {
        let (isCA, pathLength) = try readX509(bytes, range: valueRange) { (reader) throws(DERError) -> (Bool, Int?) in
            try reader.readSequence { (sequence) throws(DERError) -> (Bool, Int?) in
                let isCA = try sequence.readBoolean(default: false)
                let pathLength: Int? = try sequence.peekTag() == .integer ? sequence.readNonNegativeInt() : nil
                return (isCA, pathLength)
            }
        }
        return BasicConstraints(isCertificateAuthority: isCA, pathLengthConstraint: pathLength)
    }
}
