// The one lazy iteration over DER checked earlier: every sequence type of TackX509
// (names, RDNs, extension lists) keeps its bytes and the range of its contents, checks
// them once when it is created, and yields its elements decoded on demand through
// this iterator, as swift-asn1's `ASN1NodeCollection` serves every SEQUENCE OF.

import TackDER

/// Iterates the elements of a DER range whose encoding was checked when its sequence
/// was created, decoding each one when it is reached.
///
/// Only identifier and length octets are parsed to step from one element to the next;
/// every access is bounds-checked. An element that does not decode (which a checked
/// element does not) ends the iteration.
public struct CheckedDERIterator<Element>: IteratorProtocol {
    internal var elements: CheckedElements
    /// Decodes one checked element of `elements.bytes`; a static function, so nothing
    /// is captured or allocated.
    internal let decode: ([UInt8], DERElement) -> Element?

    /// An iterator over the elements in `range` of `bytes`, each decoded by `decode`.
    internal init(_ bytes: [UInt8], _ range: Range<Int>, _ decode: @escaping ([UInt8], DERElement) -> Element?) {
        self.elements = CheckedElements(bytes: bytes, range: range)
        self.decode = decode
    }

    /// The next element, or `nil` at the end.
    public mutating func next() -> Element? {
        guard let element = elements.next() else { return nil }
        return decode(elements.bytes, element)
    }
}
