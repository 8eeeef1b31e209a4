public import TackDER

/// One certificate extension as it appears in the certificate, not yet decoded
/// (RFC 5280 §4.1: `Extension ::= SEQUENCE { extnID, critical DEFAULT FALSE, extnValue }`).
///
/// Decoding is lazy: the typed decoders take the certificate's bytes and
/// ``valueRange``. Unknown extensions stay in this form, with their critical flag,
/// so that path validation can refuse unknown critical ones.
public struct Extension: Sendable, Hashable {
    /// The extension's identifier (`extnID`).
    public var oid: OID
    /// The `critical` flag (FALSE when absent).
    public var isCritical: Bool
    /// The absolute range, in the certificate's DER, of the contents of the
    /// `extnValue` OCTET STRING: the DER encoding of the extension's value.
    public var valueRange: Range<Int>
    /// The absolute offset of the extension's SEQUENCE, for error reporting.
    public var offset: Int

    /// Creates an undecoded extension.
    ///
    /// - Parameters:
    ///   - oid: The identifier.
    ///   - isCritical: The critical flag.
    ///   - valueRange: The absolute range of the encoded value.
    ///   - offset: The absolute offset of the extension.
    public init(oid: OID, isCritical: Bool, valueRange: Range<Int>, offset: Int) {
        self.oid = oid
        self.isCritical = isCritical
        self.valueRange = valueRange
        self.offset = offset
    }
}
