import TackDER


// A strict reader of Apple's XML and binary property lists and a writer of XML ones
// (the formats of `Info.plist`, binary inside a built app), so that `NSAppTransportSecurity` → `NSPinnedDomains` can be read
// where no Foundation is available.
//
// The accepted language is the subset of XML 1.0 that property lists use
// (Apple's DTD, http://www.apple.com/DTDs/PropertyList-1.0.dtd):
//
//   document := BOM? XMLDecl? Misc* doctype? Misc* <plist version="1.0"> value </plist> Misc*
//   value    := dict | array | string | integer | real | true | false | date | data
//   dict     := <dict> (Misc* <key>text</key> Misc* value)* Misc* </dict> | <dict/>
//
// where Misc is white space or a comment. Deliberately refused, each with its own
// reason: a DOCTYPE with an internal subset (`[ ... ]`, where entity declarations
// live: no "billion laughs", no external entities), any entity other than XML's five
// predefined ones and character references, processing instructions other than the
// XML declaration, an encoding other than UTF-8, attributes on anything but
// `<plist version>`, text outside `<string>`/`<key>`/value elements, duplicate keys,
// a key without a value, and nesting deeper than ``PropertyList/maximumDepth``.
// Binary property lists (`bplist00`) are read by BinaryPropertyListReader.swift,
// into the same values. OpenStep property lists are not read: `plutil -convert
// xml1` first.

/// Reading XML and binary property lists, and writing XML ones.
public enum PropertyList {
    /// The deepest nesting of `<dict>` and `<array>` accepted, counting the root value
    /// as level 1.
    ///
    /// 32, the same bound as TackDER's `DERLimits` default depth: `Info.plist` files nest about
    /// 6 levels (`NSAppTransportSecurity` → `NSPinnedDomains` → domain → pin list →
    /// pin), and CoreFoundation's own parser documents no limit, so this only stops
    /// a hostile document from exhausting the stack.
    public static let maximumDepth = 32

    /// The most objects a binary property list may hold (its trailer's object count).
    ///
    /// 65,536: an `Info.plist` holds tens to a few thousand objects (binary writers
    /// store each distinct string and number once), and the reader keeps a slot
    /// per object, so the bound keeps a hostile trailer from reserving memory the
    /// file does not pay for. CoreFoundation documents no limit.
    public static let maximumObjectCount = 1 << 16

    /// The most values a binary property list's tree may have once written out,
    /// counting every reference to a shared object again.
    ///
    /// 1,048,576: the number of values the XML reader could meet in a 16 MiB
    /// document, far above any `Info.plist`. A binary file refers to objects by
    /// index, so without this a few hundred bytes of arrays holding the same array
    /// twice stand for 2^32 values, and every walk over the value would pay for them.
    public static let maximumValueCount = 1 << 20

    /// The most bytes of strings (UTF-8) and data a binary property list's tree may
    /// hold once written out, counting every reference to a shared object again.
    ///
    /// 64 MiB: far above any `Info.plist`; without it, one long string referenced
    /// from a million places is a small file whose XML form or any walk over its text
    /// costs gigabytes.
    public static let maximumPayloadSize = 1 << 26

    /// Whether `bytes` starts with the binary property list header, `bplist00`.
    ///
    /// - Parameter bytes: A document.
    /// - Returns: `true` for a binary property list (well-formed or not).
    public static func isBinary(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: BinaryPropertyListReader.magic)
    }

    /// Parses a property list, XML or binary (`bplist00`, told by its header).
    ///
    /// - Parameter bytes: The document: UTF-8 XML, or a binary property list.
    /// - Returns: The root value; both formats give the same values.
    /// - Throws: ``PropertyListError`` with the first rule the document breaks and
    ///   where: its line and column in XML, its byte offset in a binary property list
    ///   (``TextLocation/isBinary``).
    public static func parse(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        if isBinary(bytes) {
            var reader = try BinaryPropertyListReader(bytes)
            return try reader.read()
        }
        var parser = PropertyListParser(bytes)
        return try parser.parseDocument()
    }

    /// Whether `seconds` since 1970 is a date a property list holds: whole seconds in
    /// years 0...9999 (what `<date>`'s `YYYY-MM-DDTHH:MM:SSZ` can write).
    static func isValidDate(_ seconds: Int64) -> Bool {
        (try? DERTime(secondsSince1970: seconds)) != nil
    }

    /// Parses an XML property list given as a string.
    ///
    /// - Parameter text: The document.
    /// - Returns: The root value.
    /// - Throws: ``PropertyListError`` with the reason and where.
    public static func parse(_ text: String) throws(PropertyListError) -> PropertyListValue {
        try parse(Array(text.utf8))
    }
}
