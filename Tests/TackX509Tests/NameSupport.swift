import TackDER
import TackX509

/// One attribute for building test names: a type and either a string of a given
/// kind or a raw complete encoding.
struct TestAttribute {
    var type: OID
    var kind: DERStringKind?
    var text: String
    var raw: [UInt8]

    static func string(_ type: OID, _ text: String, _ kind: DERStringKind = .utf8) -> TestAttribute {
        TestAttribute(type: type, kind: kind, text: text, raw: [])
    }

    static func raw(_ type: OID, _ encoded: [UInt8]) -> TestAttribute {
        TestAttribute(type: type, kind: nil, text: "", raw: encoded)
    }
}

/// Writes an RDNSequence; each inner array is one RDN, its attributes kept in the
/// given order (not sorted) so tests control the encoding.
func encodeName(_ rdns: [[TestAttribute]]) -> [UInt8] {
    var writer = DERWriter()
    writeName(rdns, into: &writer)
    return writer.bytes
}

func writeName(_ rdns: [[TestAttribute]], into writer: inout DERWriter, tag: DERTag = .sequence) {
    writer.writeConstructed(tag) { (sequence: inout DERWriter) in
        for rdn in rdns {
            sequence.writeSet { (set: inout DERWriter) in
                for attribute in rdn {
                    set.writeSequence { (pair: inout DERWriter) in
                        pair.writeObjectIdentifier(attribute.type)
                        if let kind = attribute.kind {
                            try? pair.writeString(attribute.text, as: kind)
                        } else {
                            pair.writeEncoded(attribute.raw)
                        }
                    }
                }
            }
        }
    }
}

/// A name built from (type, text) pairs, one attribute per RDN, all of one string kind.
func name(_ pairs: [(OID, String)], kind: DERStringKind = .utf8) throws -> DistinguishedName {
    try DistinguishedName(derEncoded: encodeName(pairs.map { [.string($0.0, $0.1, kind)] }))
}

typealias AT = DistinguishedName.AttributeType

extension Sequence {
    /// The first element of a (lazy) sequence.
    var first: Element? {
        var iterator = makeIterator()
        return iterator.next()
    }
}
