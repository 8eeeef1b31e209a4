import TackDER


// A strict reader and a writer for Apple's XML property lists (the format of
// `Info.plist`), so that `NSAppTransportSecurity` → `NSPinnedDomains` can be read
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
// Binary and OpenStep property lists are not read: `plutil -convert xml1` first.

/// Reading and writing XML property lists.
public enum PropertyList {
    /// The deepest nesting of `<dict>` and `<array>` accepted, counting the root value
    /// as level 1.
    ///
    /// 32, the same bound as ``DERLimits``' default depth: `Info.plist` files nest about
    /// 6 levels (`NSAppTransportSecurity` → `NSPinnedDomains` → domain → pin list →
    /// pin), and CoreFoundation's own parser documents no limit, so this only stops
    /// a hostile document from exhausting the stack.
    public static let maximumDepth = 32

    /// Parses an XML property list.
    ///
    /// - Parameter bytes: The document, UTF-8.
    /// - Returns: The root value.
    /// - Throws: ``PropertyListError`` with the first rule the document breaks and
    ///   its line and column.
    public static func parse(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        var parser = PropertyListParser(bytes)
        return try parser.parseDocument()
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
