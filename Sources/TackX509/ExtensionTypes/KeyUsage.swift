public import TackDER

/// The key usage extension (RFC 5280 §4.2.1.3): the operations the certified key
/// may perform.
///
/// ```
/// KeyUsage ::= BIT STRING {
///      digitalSignature        (0),  nonRepudiation (1),  keyEncipherment (2),
///      dataEncipherment        (3),  keyAgreement   (4),  keyCertSign     (5),
///      cRLSign                 (6),  encipherOnly   (7),  decipherOnly    (8) }
/// ```
///
/// Decoding accepts trailing zero bits that DER would remove (X.690 §11.2.2), as
/// deployed CAs emit them and the value is unambiguous; it rejects a set bit
/// beyond `decipherOnly` (no meaning) and a value with no bit set (RFC 5280
/// §4.2.1.3: "at least one of the bits MUST be set to 1").
public struct KeyUsage: OptionSet, Sendable, Hashable {
    /// `id-ce-keyUsage`, 2.5.29.15.
    public static let oid = OID(2, 5, 29, 15)

    /// The bits: ASN.1 bit *n* is `1 << n`.
    public let rawValue: UInt16

    /// Creates a set of usages from its bits (ASN.1 bit *n* is `1 << n`).
    ///
    /// - Parameter rawValue: The bits.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// `digitalSignature` (bit 0).
    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    /// `nonRepudiation`, also called `contentCommitment` (bit 1).
    public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    /// `keyEncipherment` (bit 2).
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    /// `dataEncipherment` (bit 3).
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    /// `keyAgreement` (bit 4).
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    /// `keyCertSign` (bit 5): the key may verify certificate signatures.
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    /// `cRLSign` (bit 6).
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    /// `encipherOnly` (bit 7), meaningful with `keyAgreement`.
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    /// `decipherOnly` (bit 8), meaningful with `keyAgreement`.
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for a malformed BIT
    ///   STRING, or ``X509Error/Reason/invalidExtension(_:_:)`` for an
    ///   undefined bit or no bit set, at the BIT STRING's offset.
    public init(derEncoded: borrowing [UInt8], valueRange: Range<Int>) throws(X509Error) {
        self = try KeyUsage.decode(derEncoded, valueRange: valueRange)
    }

    /// Decodes the extension value in `valueRange` of `bytes` (the body of
    /// ``init(derEncoded:valueRange:)``, inlined into ``DecodedExtensions``).
    @inline(__always)
    internal static func decode(_ bytes: [UInt8], valueRange: Range<Int>) throws(X509Error) -> KeyUsage {
        // Fast path: one octet of bits (03 02 u b) with zero padding and at least
        // one bit set, which is every key usage without encipherOnly/decipherOnly
        // pairs; the full reader handles the rest and reports errors. It saves
        // 335 instructions per certificate of 12,813 (2.6%,
        // Benchmarks/count-instructions.sh x509-parse), and
        // ExtensionFastPathTests.keyUsageAgrees holds it to decodeInGeneral on
        // seeded mutations.
        let lower = valueRange.lowerBound
        if lower >= 0, valueRange.upperBound <= bytes.count, valueRange.count == 4,
           bytes[lower] == 0x03, bytes[lower + 1] == 0x02, bytes[lower + 2] <= 7 {
            let unused = bytes[lower + 2], bits = bytes[lower + 3]
            if bits != 0, bits & UInt8(truncatingIfNeeded: (1 << unused) - 1) == 0 {
                // ASN.1 bit n is the octet's bit 7 - n: reverse the octet.
                var reversed = (bits & 0xF0) >> 4 | (bits & 0x0F) << 4
                reversed = (reversed & 0xCC) >> 2 | (reversed & 0x33) << 2
                reversed = (reversed & 0xAA) >> 1 | (reversed & 0x55) << 1
                return KeyUsage(rawValue: UInt16(reversed))
            }
        }
        return KeyUsage(rawValue: try decodeInGeneral(bytes, valueRange: valueRange))
    }

    /// The general decoder, out of line so that the fast path stays small.
    @inline(never)
    internal static func decodeInGeneral(_ bytes: [UInt8], valueRange: Range<Int>) throws(X509Error) -> UInt16 {
        let oid = KeyUsage.oid
        return try readX509(bytes, range: valueRange) { (reader) throws(X509Error) -> UInt16 in
            let offset = reader.offset
            let mask = try reader.readNamedBits(highestNamedBit: 8, oid: oid)
            guard mask != 0 else { throw X509Error(.invalidExtension(oid, .noKeyUsage), at: offset) }
            return mask
        }
    }
}
