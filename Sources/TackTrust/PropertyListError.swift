// The errors of the XML property-list reader (PropertyList.swift).

/// Why a property list was refused, and where.
public struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var reason: Reason
    /// Where: the start of the offending markup or character.
    public var location: TextLocation

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: What is wrong.
    ///   - location: Where.
    public init(_ reason: Reason, at location: TextLocation) {
        self.reason = reason
        self.location = location
    }

    /// The rules a property list can break.
    public enum Reason: Sendable, Hashable {
        /// The bytes are not UTF-8.
        case invalidUTF8
        /// A control character XML does not allow (XML 1.0 §2.2).
        case invalidCharacter
        /// The document ends inside markup or before `</plist>`.
        case unexpectedEnd
        /// Markup that is not well-formed XML (a broken tag, comment or CDATA section).
        case malformedMarkup
        /// The XML declaration names an encoding other than UTF-8.
        case unsupportedEncoding
        /// A DOCTYPE with an internal subset, where entity declarations live.
        case doctypeInternalSubset
        /// A processing instruction other than the XML declaration.
        case processingInstruction
        /// An entity reference other than `&lt; &gt; &amp; &quot; &apos;`.
        case unknownEntity
        /// A character reference to a code point XML does not allow.
        case invalidCharacterReference
        /// The root element is not `<plist>`.
        case missingPlistElement
        /// `<plist version>` is not `1.0`.
        case unsupportedVersion
        /// An attribute where none is allowed (any element but `<plist>`).
        case unexpectedAttribute
        /// An element that is not part of the property list format.
        case unknownElement
        /// An end tag that does not close the open element.
        case mismatchedEndTag
        /// Text where an element is expected.
        case unexpectedText
        /// An element where text is expected (inside `<string>`, `<integer>`, ...).
        case unexpectedElement
        /// `<plist>` holds no value, or more than one.
        case wrongValueCount
        /// A `<key>` outside a `<dict>`.
        case keyOutsideDictionary
        /// A value in a `<dict>` without a `<key>` before it.
        case missingKey
        /// A `<key>` at the end of a `<dict>` with no value after it.
        case missingValue
        /// The same key twice in one `<dict>`.
        case duplicateKey
        /// An `<integer>` that is not an optionally signed decimal number.
        case invalidInteger
        /// An `<integer>` outside the 64-bit signed range.
        case integerOverflow
        /// A `<real>` that is not a decimal floating-point number.
        case invalidReal
        /// A `<date>` that is not `YYYY-MM-DDTHH:MM:SSZ` or not a real date.
        case invalidDate
        /// `<data>` that is not Base64.
        case invalidData
        /// `<true>` or `<false>` with content.
        case invalidBoolean
        /// Nesting deeper than ``PropertyList/maximumDepth``.
        case tooDeep
        /// Anything but white space and comments after `</plist>`.
        case trailingContent
    }

    /// `line:column: reason`.
    public var description: String {
        let text: String
        switch reason {
        case .invalidUTF8: text = "not UTF-8"
        case .invalidCharacter: text = "control character not allowed in XML"
        case .unexpectedEnd: text = "unexpected end of the document"
        case .malformedMarkup: text = "malformed markup"
        case .unsupportedEncoding: text = "encoding other than UTF-8"
        case .doctypeInternalSubset: text = "DOCTYPE with an internal subset (entity declarations are refused)"
        case .processingInstruction: text = "processing instruction other than the XML declaration"
        case .unknownEntity: text = "entity other than &lt; &gt; &amp; &quot; &apos;"
        case .invalidCharacterReference: text = "character reference to a character XML does not allow"
        case .missingPlistElement: text = "the root element is not <plist>"
        case .unsupportedVersion: text = "plist version other than 1.0"
        case .unexpectedAttribute: text = "attribute not allowed here"
        case .unknownElement: text = "element that is not part of a property list"
        case .mismatchedEndTag: text = "end tag does not close the open element"
        case .unexpectedText: text = "text where an element is expected"
        case .unexpectedElement: text = "element where text is expected"
        case .wrongValueCount: text = "<plist> must hold exactly one value"
        case .keyOutsideDictionary: text = "<key> outside a <dict>"
        case .missingKey: text = "value in a <dict> without a <key>"
        case .missingValue: text = "<key> without a value"
        case .duplicateKey: text = "duplicate key in a <dict>"
        case .invalidInteger: text = "<integer> is not a decimal integer"
        case .integerOverflow: text = "<integer> does not fit in 64 bits"
        case .invalidReal: text = "<real> is not a decimal number"
        case .invalidDate: text = "<date> is not YYYY-MM-DDTHH:MM:SSZ"
        case .invalidData: text = "<data> is not Base64"
        case .invalidBoolean: text = "<true/> and <false/> have no content"
        case .tooDeep: text = "nested deeper than \(PropertyList.maximumDepth) levels"
        case .trailingContent: text = "content after </plist>"
        }
        return "\(location): \(text)"
    }
}
