/// An error found while reading or writing DER, with the byte offset where it was found.
///
/// Offsets are absolute: they index the caller's buffer (for an `ArraySlice`, the
/// slice's own indices), and they point at the first byte (the identifier octet) of
/// the element that broke a rule, so that a tool can say "byte 412: non-minimal
/// INTEGER". Two errors are equal when their reason and offset are equal, which lets
/// tests assert both exactly.
public struct DERError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What rule the input broke.
    public var reason: Reason
    /// The absolute byte offset of the offending element.
    public var offset: Int

    /// Creates an error for `reason` at `offset`.
    ///
    /// - Parameters:
    ///   - reason: The rule that the input broke.
    ///   - offset: The absolute offset of the offending element.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The rules that Tack's DER reader enforces, one case per rule.
    ///
    /// Each case names a single X.690 (DER) or RFC 5280 rule, so that the cause of
    /// a rejection is never ambiguous.
    public enum Reason: Sendable, Hashable {
        // MARK: Structure (X.690 §8.1)

        /// The input ended inside an identifier, a length or the contents of an element.
        case truncated
        /// The length octets use the indefinite form (0x80), forbidden in DER (X.690 §10.1).
        case indefiniteLength
        /// The length is not encoded in the minimum number of octets (X.690 §10.1),
        /// or uses the long form for a length below 128.
        case nonMinimalLength
        /// The length uses more than four length octets, or the reserved value 0xFF
        /// (X.690 §8.1.3.5). Tack caps lengths at four octets, as webpki does.
        case unsupportedLength
        /// The declared length runs past the end of the enclosing element or input.
        case lengthExceedsInput
        /// The tag number uses the high-tag-number form for a number below 31, or has
        /// a leading 0x80 octet (X.690 §8.1.2.4).
        case nonMinimalTagNumber
        /// The tag number does not fit the supported range (at most 4 octets, 28 bits).
        case tagNumberTooLarge
        /// Bytes remain after the last element that the structure defines.
        case trailingData
        /// An element has a different tag from the one that the structure requires.
        case unexpectedTag(expected: DERTag, found: DERTag)
        /// The input ended where the structure requires another element.
        case missingElement(expected: DERTag)
        /// Elements are nested deeper than ``DERLimits/maximumDepth``.
        case nestingTooDeep
        /// An element is longer than ``DERLimits/maximumElementLength``.
        case elementTooLarge
        /// A primitive type was encoded with the constructed bit, or a constructed type
        /// without it (X.690 §8.x: DER forbids constructed strings, §10.2).
        case wrongConstructedBit

        // MARK: Primitive values (X.690 §8, §11)

        /// A BOOLEAN whose contents are not exactly one octet 0x00 or 0xFF (X.690 §11.1).
        case invalidBoolean
        /// A field whose value equals its DEFAULT was encoded; DER omits it (X.690 §11.5).
        case defaultValueEncoded
        /// A NULL with non-empty contents (X.690 §8.8.2).
        case invalidNull
        /// An INTEGER (or ENUMERATED) with no contents octets (X.690 §8.3.1).
        case emptyInteger
        /// An INTEGER whose first nine bits are all zero or all one (X.690 §8.3.2).
        case nonMinimalInteger
        /// An INTEGER that does not fit the requested Swift integer type.
        case integerOverflow
        /// An INTEGER that must be non-negative is negative.
        case negativeInteger
        /// A BIT STRING with no contents, more than 7 unused bits, or unused bits in an
        /// empty string (X.690 §8.6.2).
        case invalidBitStringUnusedBits
        /// A BIT STRING whose unused bits are not zero (X.690 §11.2.1).
        case nonZeroBitStringPadding
        /// An OBJECT IDENTIFIER with no contents octets (X.690 §8.19.2).
        case emptyObjectIdentifier
        /// An OBJECT IDENTIFIER subidentifier with a leading 0x80 octet (X.690 §8.19.2).
        case nonMinimalObjectIdentifierArc
        /// An OBJECT IDENTIFIER whose last octet has its continuation bit set.
        case truncatedObjectIdentifier
        /// An OBJECT IDENTIFIER arc longer than ``OID/maximumArcOctets`` octets: a
        /// resource limit (rendering an arc in decimal costs the square of its length),
        /// far above the 19 octets of the largest arcs in use (UUIDs under 2.25).
        case objectIdentifierArcTooLong
        /// An OBJECT IDENTIFIER of more than ``OID/maximumLength`` (56) contents
        /// octets: a resource limit of Tack's, above the longest identifiers in use
        /// (about 40 octets).
        case objectIdentifierTooLong
        /// A UTCTime or GeneralizedTime that is not in the DER form RFC 5280 §4.1.2.5
        /// requires (UTCTime `YYMMDDHHMMSSZ`, GeneralizedTime `YYYYMMDDHHMMSSZ`).
        case invalidTimeFormat
        /// A time with fractional seconds, which RFC 5280 §4.1.2.5.2 forbids.
        case fractionalSecondsNotAllowed
        /// A time whose fields are out of range (month 13, February 30, hour 24, ...).
        case invalidDate

        // MARK: Strings (X.680 §41, §43)

        /// A PrintableString with a character outside its alphabet (X.680 §41.4).
        case invalidPrintableString
        /// An IA5String with an octet above 0x7F.
        case invalidIA5String
        /// A NumericString with a character other than digits and space.
        case invalidNumericString
        /// A VisibleString with a character outside 0x20...0x7E.
        case invalidVisibleString
        /// A UTF8String that is not valid UTF-8 (RFC 3629: no overlong forms,
        /// surrogates or values above U+10FFFF).
        case invalidUTF8String
        /// A BMPString whose length is odd or which contains a surrogate code unit.
        case invalidBMPString
        /// A UniversalString whose length is not a multiple of 4 or which contains a
        /// value that is not a Unicode scalar.
        case invalidUniversalString

        // MARK: Writer and text forms

        /// A dotted OBJECT IDENTIFIER string that cannot be parsed (empty arc, non-digit,
        /// first arc above 2, second arc above 39 under arcs 0 and 1, overflow).
        case invalidObjectIdentifierString
        /// A value the writer cannot encode (for example unused bits above 7).
        case unencodableValue
    }

    /// A stable identifier of the error's reason: `der.` and the reason's
    /// ``Reason/code`` (for example `der.non_minimal_length`).
    public var code: String { "der." + reason.code }

    /// A one-line description: the reason and the offset.
    public var description: String {
        "DER error at byte \(offset): \(reason)"
    }
}

/// An error type of a higher layer that wraps ``DERError``.
///
/// Readers of X.509 and other formats built on DER throw their own error type,
/// which keeps the DER error whole (reason and offset) instead of flattening it to
/// text. ``DER/read(_:range:limits:throwing:_:)`` accepts a closure that throws
/// such a type, so a decoder can raise its own semantic errors directly.
public protocol DERErrorWrapping: Error {
    /// Wraps a DER-level error, keeping its reason and offset.
    ///
    /// - Parameter error: The DER error.
    init(_ error: DERError)
}

extension DERError: DERErrorWrapping {
    /// Returns `error` itself: a DER error wraps itself.
    ///
    /// - Parameter error: The DER error.
    public init(_ error: DERError) {
        self = error
    }
}

extension DERError.Reason: CustomStringConvertible {
    /// A stable identifier of the rule: the case's name in snake_case (for example
    /// `non_minimal_length`), for tools, logs and test manifests. It does not change
    /// between releases; payloads are not part of it.
    public var code: String {
        switch self {
        case .truncated: "truncated"
        case .indefiniteLength: "indefinite_length"
        case .nonMinimalLength: "non_minimal_length"
        case .unsupportedLength: "unsupported_length"
        case .lengthExceedsInput: "length_exceeds_input"
        case .nonMinimalTagNumber: "non_minimal_tag_number"
        case .tagNumberTooLarge: "tag_number_too_large"
        case .trailingData: "trailing_data"
        case .unexpectedTag: "unexpected_tag"
        case .missingElement: "missing_element"
        case .nestingTooDeep: "nesting_too_deep"
        case .elementTooLarge: "element_too_large"
        case .wrongConstructedBit: "wrong_constructed_bit"
        case .invalidBoolean: "invalid_boolean"
        case .defaultValueEncoded: "default_value_encoded"
        case .invalidNull: "invalid_null"
        case .emptyInteger: "empty_integer"
        case .nonMinimalInteger: "non_minimal_integer"
        case .integerOverflow: "integer_overflow"
        case .negativeInteger: "negative_integer"
        case .invalidBitStringUnusedBits: "invalid_bit_string_unused_bits"
        case .nonZeroBitStringPadding: "non_zero_bit_string_padding"
        case .emptyObjectIdentifier: "empty_object_identifier"
        case .nonMinimalObjectIdentifierArc: "non_minimal_object_identifier_arc"
        case .truncatedObjectIdentifier: "truncated_object_identifier"
        case .objectIdentifierArcTooLong: "object_identifier_arc_too_long"
        case .objectIdentifierTooLong: "object_identifier_too_long"
        case .invalidTimeFormat: "invalid_time_format"
        case .fractionalSecondsNotAllowed: "fractional_seconds_not_allowed"
        case .invalidDate: "invalid_date"
        case .invalidPrintableString: "invalid_printable_string"
        case .invalidIA5String: "invalid_ia5_string"
        case .invalidNumericString: "invalid_numeric_string"
        case .invalidVisibleString: "invalid_visible_string"
        case .invalidUTF8String: "invalid_utf8_string"
        case .invalidBMPString: "invalid_bmp_string"
        case .invalidUniversalString: "invalid_universal_string"
        case .invalidObjectIdentifierString: "invalid_object_identifier_string"
        case .unencodableValue: "unencodable_value"
        }
    }

    /// A short human-readable description of the rule, for diagnostics.
    public var description: String {
        switch self {
        case .truncated: "input ends inside an element"
        case .indefiniteLength: "indefinite length (forbidden in DER)"
        case .nonMinimalLength: "non-minimal length encoding"
        case .unsupportedLength: "length uses more than 4 octets"
        case .lengthExceedsInput: "length runs past the end of the input"
        case .nonMinimalTagNumber: "non-minimal tag number encoding"
        case .tagNumberTooLarge: "tag number too large"
        case .trailingData: "trailing data after the element"
        case .nestingTooDeep: "nesting too deep"
        case .elementTooLarge: "element larger than the limit"
        case .wrongConstructedBit: "wrong constructed bit for the type"
        case .invalidBoolean: "BOOLEAN is not 00 or FF"
        case .defaultValueEncoded: "DEFAULT value encoded"
        case .invalidNull: "NULL with contents"
        case .emptyInteger: "empty INTEGER"
        case .nonMinimalInteger: "non-minimal INTEGER"
        case .integerOverflow: "INTEGER too large for its type"
        case .negativeInteger: "negative INTEGER where a non-negative one is required"
        case .invalidBitStringUnusedBits: "BIT STRING unused-bits count invalid"
        case .nonZeroBitStringPadding: "BIT STRING padding bits not zero"
        case .emptyObjectIdentifier: "empty OBJECT IDENTIFIER"
        case .nonMinimalObjectIdentifierArc: "non-minimal OBJECT IDENTIFIER arc"
        case .truncatedObjectIdentifier: "truncated OBJECT IDENTIFIER arc"
        case .objectIdentifierArcTooLong: "OBJECT IDENTIFIER arc longer than 32 octets"
        case .objectIdentifierTooLong: "OBJECT IDENTIFIER longer than 56 octets"
        case .invalidTimeFormat: "time not in the DER form of RFC 5280"
        case .fractionalSecondsNotAllowed: "fractional seconds in a time"
        case .invalidDate: "date or time field out of range"
        case .invalidPrintableString: "character outside the PrintableString alphabet"
        case .invalidIA5String: "octet above 0x7F in an IA5String"
        case .invalidNumericString: "character outside the NumericString alphabet"
        case .invalidVisibleString: "character outside the VisibleString alphabet"
        case .invalidUTF8String: "invalid UTF-8 in a UTF8String"
        case .invalidBMPString: "invalid BMPString"
        case .invalidUniversalString: "invalid UniversalString"
        case .invalidObjectIdentifierString: "invalid dotted OBJECT IDENTIFIER"
        case .unencodableValue: "value cannot be encoded"
        case .unexpectedTag(let expected, let found): "expected \(expected), found \(found)"
        case .missingElement(let expected): "missing element \(expected)"
        }
    }
}
