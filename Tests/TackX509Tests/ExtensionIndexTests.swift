import Testing
import TackDER
import TackTestSupport
import TackX509

/// `Certificate.extensions` is a view over what the parse records (ExtensionIndex.swift):
/// these tests hold it, `rawExtension(for:)` and the duplicate check to TackDER's
/// general reader, on real certificates and on seeded random extension lists that
/// cross the 12 entries kept inline.
@Suite("Certificate: the extension index against TackDER's general reader")
struct ExtensionIndexTests {
    /// The extensions of `der` read with TackDER's general reader, without any check
    /// of identifiers: every `[3]` list entry as it is.
    static func referenceExtensions(_ der: [UInt8]) throws -> [Extension] {
        let limits = DERLimits(maximumDepth: 32, maximumElementLength: 1 << 24)
        return try DER.read(der, limits: limits) { (reader) throws(DERError) -> [Extension] in
            var certificate = try reader.enterSequence()
            var tbs = try certificate.enterSequence()
            while !certificate.isAtEnd { _ = try certificate.readElement() }
            var list: [Extension] = []
            while !tbs.isAtEnd {
                let element = try tbs.readElement()
                guard element.tag == .contextSpecific(3, isConstructed: true) else { continue }
                var explicit = try tbs.contentsReader(of: element)
                var sequence = try explicit.enterSequence()
                while !sequence.isAtEnd {
                    let offset = sequence.offset
                    var item = try sequence.enterSequence()
                    let oid = try item.readObjectIdentifier()
                    let critical = try item.readOptionalBoolean() ?? false
                    let value = try item.readElement(.octetString).contentRange
                    list.append(Extension(oid: oid, isCritical: critical, valueRange: value, offset: offset))
                }
            }
            return list
        }
    }

    /// Checks the view and the lookups of `certificate` against the reference.
    static func expectMatchesReference(_ certificate: Certificate, _ context: String) throws {
        let reference = try referenceExtensions(certificate.derEncoded)
        #expect(certificate.extensions.count == reference.count, "\(context)")
        #expect(Array(certificate.extensions) == reference, "\(context)")
        for item in reference {
            #expect(certificate.rawExtension(for: item.oid) == item, "\(context): \(item.oid)")
        }
        #expect(certificate.rawExtension(for: OID(1, 2, 3, 4, 5)) == nil)
    }

    @Test("The view equals the general reader's list on every certificate of the system CA bundle")
    func systemBundle() throws {
        let bundle = SystemCABundle.certificates
        try #require(!bundle.isEmpty, "no \(SystemCABundle.path) on this machine")
        for (index, der) in bundle.enumerated() {
            guard let certificate = try? Certificate(derEncoded: der) else { continue }
            try Self.expectMatchesReference(certificate, "bundle certificate \(index)")
        }
    }

    @Test("The view equals the general reader's list with 64 extensions (52 beyond the inline ones)")
    func sixtyFourExtensions() throws {
        let der = try RepositoryPaths.vectorBytes("certs/malformed/extensions-64.der")
        let certificate = try Certificate(derEncoded: der)
        #expect(certificate.extensions.count == 64)
        try Self.expectMatchesReference(certificate, "64 extensions")
    }

    /// `base` with its extension list replaced by `extensions`: each an identifier,
    /// a critical flag (encoded only when true) and value octets.
    static func splice(_ base: [UInt8], extensions: [(OID, Bool, [UInt8])]) throws -> [UInt8] {
        let (tbsElements, tail) = try DER.read(base) { (reader) throws(DERError) -> ([[UInt8]], [[UInt8]]) in
            var certificate = try reader.enterSequence()
            var tbs = try certificate.enterSequence()
            var kept: [[UInt8]] = []
            while !tbs.isAtEnd {
                let element = try tbs.readElement()
                if element.tag != .contextSpecific(3, isConstructed: true) { kept.append(Array(base[element.encodedRange])) }
            }
            var tail: [[UInt8]] = []
            while !certificate.isAtEnd { tail.append(Array(base[try certificate.readElement().encodedRange])) }
            return (kept, tail)
        }
        var writer = DERWriter()
        writer.writeSequence { (outer: inout DERWriter) in
            outer.writeSequence { (tbs: inout DERWriter) in
                for element in tbsElements { tbs.writeEncoded(element) }
                tbs.writeExplicit(3) { (explicit: inout DERWriter) in
                    explicit.writeSequence { (list: inout DERWriter) in
                        for (oid, critical, value) in extensions {
                            list.writeSequence { (item: inout DERWriter) in
                                item.writeObjectIdentifier(oid)
                                if critical { item.writeBoolean(true) }
                                item.writeOctetString(value)
                            }
                        }
                    }
                }
            }
            for element in tail { outer.writeEncoded(element) }
        }
        return writer.bytes
    }

    @Test("Seeded random extension lists: the view, the lookups and the first duplicate as the general reader finds them",
          arguments: 0..<8)
    func seededLists(seed: Int) throws {
        var random = DeterministicStream(state: 0x5EED_0E17 &+ UInt64(seed))
        let base = try #require(SystemCABundle.certificates.first { (try? Certificate(derEncoded: $0))?.version == .v3 })
        let known = [
            OID(2, 5, 29, 14), OID(2, 5, 29, 35), OID(2, 5, 29, 19), OID(2, 5, 29, 15), OID(2, 5, 29, 37),
            OID(2, 5, 29, 17), OID(2, 5, 29, 32), OID(2, 5, 29, 31), OID(1, 3, 6, 1, 5, 5, 7, 1, 1),
            OID(1, 3, 6, 1, 4, 1, 11129, 2, 4, 2), OID(1, 3, 6, 1, 5, 5, 7, 1, 24), OID(2, 5, 29, 30),
        ]
        let unknown = [OID(1, 2, 3, 4), OID(2, 5, 29, 99), OID(1, 3, 6, 1, 4, 1, 311, 21, 7), OID(2, 5, 29, 1)]
        for round in 0..<40 {
            let count = 1 + Int(random.next() % 20)
            // Mostly distinct identifiers, so that lists cross 12 entries; now and then a repeat.
            var pool = (known + unknown).shuffled(using: &random)
            var extensions: [(OID, Bool, [UInt8])] = []
            for index in 0..<count {
                let repeated = random.next() % 8 == 0 && index > 0
                let oid = repeated || pool.isEmpty ? extensions[Int(random.next() % UInt64(index == 0 ? 1 : index))].0 : pool.removeFirst()
                extensions.append((oid, random.next() % 3 == 0, random.bytes(Int(random.next() % 40))))
            }
            let der = try Self.splice(base, extensions: extensions)
            let reference = try Self.referenceExtensions(der)
            #expect(reference.count == count)
            let duplicate = reference.indices.first { later in reference[..<later].contains { $0.oid == reference[later].oid } }
            switch Result(catching: { () throws(X509Error) in try Certificate(derEncoded: der) }) {
            case .success(let certificate):
                #expect(duplicate == nil, "seed \(seed) round \(round): parsed with a duplicate")
                try Self.expectMatchesReference(certificate, "seed \(seed) round \(round)")
            case .failure(let error):
                let later = try #require(duplicate, "seed \(seed) round \(round): \(error)")
                #expect(error == X509Error(.duplicateExtension(reference[later].oid), at: reference[later].offset),
                        "seed \(seed) round \(round)")
            }
        }
    }
}
