// The errors of the property-list readers (PropertyList.swift, XML and binary).

/// Why a property list was refused, and where.
public struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var reason: Reason
    /// Where: the start of the offending markup or character (XML: line, column and
    /// offset); in a binary property list the byte offset of the offending object,
    /// reference, offset-table entry or trailer field (``TextLocation/isBinary``).
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
        /// A control character XML does not allow (XML 1.0 §2.2), in the document or
        /// in a binary property list's string.
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
        /// The same key twice in one dictionary.
        case duplicateKey
        /// An `<integer>` that is not an optionally signed decimal number.
        case invalidInteger
        /// An `<integer>` (or a binary 16-byte integer) outside the 64-bit signed range.
        case integerOverflow
        /// A `<real>` that is not a decimal floating-point number; a binary real that
        /// is not finite.
        case invalidReal
        /// A `<date>` that is not `YYYY-MM-DDTHH:MM:SSZ` or not a real date; a binary
        /// date with a fraction of a second or outside years 0...9999.
        case invalidDate
        /// `<data>` that is not Base64.
        case invalidData
        /// `<true>` or `<false>` with content.
        case invalidBoolean
        /// Nesting deeper than ``PropertyList/maximumDepth``.
        case tooDeep
        /// Anything but white space and comments after `</plist>`.
        case trailingContent

        // MARK: Binary property lists (`bplist00`)

        /// Too short for the header, one object, one offset and the 32-byte trailer.
        case binaryTruncated
        /// A trailer field out of range: a size outside 1...8, no objects, a top
        /// object past the last, or an offset table that does not lie between the
        /// objects and the trailer.
        case invalidTrailer(TrailerField)
        /// More objects than ``PropertyList/maximumObjectCount``.
        case tooManyObjects
        /// An offset-table entry outside the object area (between the header and
        /// the offset table).
        case objectOffsetOutOfRange
        /// An object (or its count) runs past the end of the object area.
        case objectExceedsBounds
        /// An object reference to no object.
        case objectReferenceOutOfRange
        /// A container that contains itself, directly or through others.
        case cycle
        /// A value tree that, written out, has more than
        /// ``PropertyList/maximumValueCount`` values or more than
        /// ``PropertyList/maximumPayloadSize`` bytes of strings and data, counting
        /// each reference to a shared object.
        case valueTreeTooLarge
        /// An integer object of other than 1, 2, 4, 8 or 16 bytes.
        case invalidIntegerSize
        /// A real object of other than 4 or 8 bytes.
        case invalidRealSize
        /// An ASCII string with a byte above 0x7F, or a UTF-16 string with an
        /// unpaired surrogate.
        case invalidString
        /// A count after a `0xF` marker nibble that is not a 1-, 2-, 4- or 8-byte
        /// non-negative integer object.
        case invalidCount
        /// A dictionary key that is not a string.
        case nonStringKey
        /// A UID (`0x8n`): NSKeyedArchiver object graphs are not property lists.
        case uid
        /// A set or ordered set (`0xBn`, `0xCn`), which `bplist00` writers never write.
        case set
        /// A marker byte of no object type `bplist00` defines for a property list:
        /// null, fill, UTF-8 strings of later versions, unassigned types.
        case unsupportedObject(marker: UInt8)
    }

    /// The trailer fields of a binary property list.
    public enum TrailerField: String, Sendable, Hashable {
        /// The size of an offset-table entry.
        case offsetSize
        /// The size of an object reference.
        case referenceSize
        /// The number of objects.
        case objectCount
        /// The index of the root object.
        case topObject
        /// Where the offset table starts.
        case offsetTableOffset
    }

    /// A stable identifier of the error's reason: `plist.` and the reason's
    /// ``Reason/code`` (for example `plist.cycle`).
    public var code: String { "plist." + reason.code }

    /// `line:column: reason`, or `byte N: reason` in a binary property list.
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
        case .binaryTruncated: text = "too short for a binary property list"
        case .invalidTrailer(let field): text = "binary property list trailer: \(field.rawValue) out of range"
        case .tooManyObjects: text = "more than \(PropertyList.maximumObjectCount) objects"
        case .objectOffsetOutOfRange: text = "object offset outside the object area"
        case .objectExceedsBounds: text = "object runs past the object area"
        case .objectReferenceOutOfRange: text = "reference to no object"
        case .cycle: text = "a container contains itself"
        case .valueTreeTooLarge: text = "more than \(PropertyList.maximumValueCount) values or \(PropertyList.maximumPayloadSize) bytes of strings and data once shared objects are repeated"
        case .invalidIntegerSize: text = "integer of other than 1, 2, 4, 8 or 16 bytes"
        case .invalidRealSize: text = "real of other than 4 or 8 bytes"
        case .invalidString: text = "string is not ASCII or UTF-16"
        case .invalidCount: text = "malformed object count"
        case .nonStringKey: text = "dictionary key that is not a string"
        case .uid: text = "UID (a keyed archive, not a property list)"
        case .set: text = "set (not part of a property list)"
        case .unsupportedObject(let marker): text = "unsupported object marker 0x\(String(marker, radix: 16))"
        }
        return "\(location): \(text)"
    }
}

extension PropertyListError.Reason {
    /// A stable identifier of the rule: the case's name in snake_case (for example `duplicate_key`,
    /// `invalid_trailer`), for tools, logs and test manifests. Payloads are not part of it.
    public var code: String {
        switch self {
        case .invalidUTF8: "invalid_utf8"
        case .invalidCharacter: "invalid_character"
        case .unexpectedEnd: "unexpected_end"
        case .malformedMarkup: "malformed_markup"
        case .unsupportedEncoding: "unsupported_encoding"
        case .doctypeInternalSubset: "doctype_internal_subset"
        case .processingInstruction: "processing_instruction"
        case .unknownEntity: "unknown_entity"
        case .invalidCharacterReference: "invalid_character_reference"
        case .missingPlistElement: "missing_plist_element"
        case .unsupportedVersion: "unsupported_version"
        case .unexpectedAttribute: "unexpected_attribute"
        case .unknownElement: "unknown_element"
        case .mismatchedEndTag: "mismatched_end_tag"
        case .unexpectedText: "unexpected_text"
        case .unexpectedElement: "unexpected_element"
        case .wrongValueCount: "wrong_value_count"
        case .keyOutsideDictionary: "key_outside_dictionary"
        case .missingKey: "missing_key"
        case .missingValue: "missing_value"
        case .duplicateKey: "duplicate_key"
        case .invalidInteger: "invalid_integer"
        case .integerOverflow: "integer_overflow"
        case .invalidReal: "invalid_real"
        case .invalidDate: "invalid_date"
        case .invalidData: "invalid_data"
        case .invalidBoolean: "invalid_boolean"
        case .tooDeep: "too_deep"
        case .trailingContent: "trailing_content"
        case .binaryTruncated: "binary_truncated"
        case .invalidTrailer: "invalid_trailer"
        case .tooManyObjects: "too_many_objects"
        case .objectOffsetOutOfRange: "object_offset_out_of_range"
        case .objectExceedsBounds: "object_exceeds_bounds"
        case .objectReferenceOutOfRange: "object_reference_out_of_range"
        case .cycle: "cycle"
        case .valueTreeTooLarge: "value_tree_too_large"
        case .invalidIntegerSize: "invalid_integer_size"
        case .invalidRealSize: "invalid_real_size"
        case .invalidString: "invalid_string"
        case .invalidCount: "invalid_count"
        case .nonStringKey: "non_string_key"
        case .uid: "uid"
        case .set: "set"
        case .unsupportedObject: "unsupported_object"
        }
    }
}
