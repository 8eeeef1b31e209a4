import Foundation
import Testing
import TackTestSupport
import TackDER
@testable import TackX509

/// The key identifier of an AuthorityKeyIdentifier that holds only one, read with
/// TackDER's general reader (the reference for the decoder's fast path); `nil` if
/// the value is not exactly that shape or is not DER.
private func referenceKeyIdentifier(_ value: [UInt8]) -> [UInt8]? {
    try? DER.read(value) { (reader) throws(DERError) -> [UInt8]? in
        var sequence = try reader.enter(.sequence)
        guard let key = try sequence.readOptionalElement(.contextSpecific(0, isConstructed: false)), sequence.isAtEnd else {
            while !sequence.isAtEnd { _ = try sequence.readElement() }
            return nil
        }
        return sequence.bytes(in: key.contentRange)
    } ?? nil
}

/// What a decoder returns or throws, for comparing two decoders.
private func outcome<T>(_ body: () throws(X509Error) -> T) -> Result<T, X509Error> {
    do { return .success(try body()) } catch { return .failure(error) }
}

/// `count` seeded mutations of each seed (a replaced octet, a flipped bit, an
/// octet removed or appended), placed at ``valuePad`` of a larger buffer.
private func mutations(of seeds: [[UInt8]], count: Int, seed: UInt64) -> [([UInt8], Range<Int>)] {
    // Seeded, so that a failure reproduces (TackTestSupport.DeterministicStream).
    var generator = DeterministicStream(state: seed)
    var result: [([UInt8], Range<Int>)] = []
    for value in seeds {
        result.append((Array(repeating: 0xEE, count: valuePad) + value + [0xEE], valuePad..<(valuePad + value.count)))
        for _ in 0..<count {
            let mutated = generator.mutate(value, edits: 1...2, kinds: [
                .replace, .flipBit, .special([0x00, 0x01, 0x02, 0x03, 0x05, 0x07, 0x30, 0x7F, 0x80, 0x81, 0xFF]), .remove, .insert,
            ])
            result.append((Array(repeating: 0xEE, count: valuePad) + mutated + [0xEE], valuePad..<(valuePad + mutated.count)))
        }
    }
    return result
}

@Suite("Extension fast paths agree with the full reader")
struct ExtensionFastPathTests {
    @Test("BasicConstraints: the fast path gives the general decoder's value or error, on seeded mutations")
    func basicConstraintsAgree() {
        let seeds = [bytes("30 00"), bytes("30 03 01 01 FF"), bytes("30 06 01 01 FF 02 01 05"),
                     bytes("30 06 01 01 FF 02 01 7F"), bytes("30 07 01 01 FF 02 02 00 80"), bytes("30 03 02 01 00")]
        var fast = 0
        for (buffer, range) in mutations(of: seeds, count: 2000, seed: 0xBC5E_ED01) {
            let decoded = outcome { () throws(X509Error) in try BasicConstraints.decode(buffer, valueRange: range) }
            let general = outcome { () throws(X509Error) in try BasicConstraints.decodeInGeneral(buffer, valueRange: range) }
            #expect(decoded == general, "\(Array(buffer[range]))")
            if case .success = general { fast += 1 }
        }
        #expect(fast > 100)
    }

    @Test("KeyUsage: the fast path gives the general decoder's value or error, on seeded mutations")
    func keyUsageAgrees() {
        let seeds = [bytes("03 02 05 A0"), bytes("03 02 01 06"), bytes("03 02 07 80"), bytes("03 02 00 FF"),
                     bytes("03 03 07 80 80"), bytes("03 02 02 84")]
        var decodedCount = 0
        for (buffer, range) in mutations(of: seeds, count: 2000, seed: 0x4B55_5E01) {
            let decoded = outcome { () throws(X509Error) in try KeyUsage.decode(buffer, valueRange: range) }
            let general = outcome { () throws(X509Error) -> KeyUsage in
                KeyUsage(rawValue: try KeyUsage.decodeInGeneral(buffer, valueRange: range))
            }
            #expect(decoded == general, "\(Array(buffer[range]))")
            if case .success = general { decodedCount += 1 }
        }
        #expect(decodedCount > 100)
    }

    @Test("A long-form SEQUENCE header is never mistaken for the keyIdentifier-only shape")
    func longFormAuthorityKeyIdentifier() {
        // 30 81 80: a SEQUENCE of 128 octets whose contents start with 7F 00, a
        // non-minimal high tag number; read as short form it would look like
        // 30 L 80 K with L = K + 2.
        let value = bytes("30 81 80 7F") + Array(repeating: 0, count: 127)
        #expect(throws: X509Error(.der(.nonMinimalTagNumber), at: valuePad + 3)) {
            try decodeValue(value) { try AuthorityKeyIdentifier(derEncoded: $0, valueRange: $1) }
        }
    }

    @Test("Mutated keyIdentifier-only values decode exactly when the general reader reads them, to the same octets")
    func mutatedAuthorityKeyIdentifiers() throws {
        let valid = bytes("30 16 80 14") + (1...20).map { UInt8($0) }
        var compared = 0
        for position in valid.indices {
            for replacement: UInt8 in [0x00, 0x01, 0x14, 0x16, 0x30, 0x7F, 0x80, 0x81, 0xA0, 0xFF] {
                var value = valid
                value[position] = replacement
                for candidate in [value, Array(value.dropLast()), value + [0x00]] {
                    let decoded = try? decodeValue(candidate) { try AuthorityKeyIdentifier(derEncoded: $0, valueRange: $1) }
                    guard let expected = referenceKeyIdentifier(candidate) else { continue }
                    #expect(decoded.flatMap { $0.keyIdentifier }.map(Array.init) == expected, "\(candidate)")
                    #expect(decoded?.authorityCertIssuer == nil && decoded?.authorityCertSerialNumber == nil)
                    compared += 1
                }
            }
        }
        #expect(compared > 20)
    }

    @Test("Equal authority key identifiers in different buffers are equal and hash alike")
    func authorityKeyIdentifierEquality() throws {
        let value = bytes("30 06 80 04 01 02 03 04")
        let first = try decodeValue(value) { try AuthorityKeyIdentifier(derEncoded: $0, valueRange: $1) }
        let second = try AuthorityKeyIdentifier(derEncoded: value, valueRange: 0..<value.count)
        #expect(first == second && first.hashValue == second.hashValue)
        let other = try AuthorityKeyIdentifier(derEncoded: bytes("30 06 80 04 01 02 03 05"), valueRange: 0..<8)
        #expect(first != other)
    }

    @Test("Each property of a decoded certificate's extensions can be cleared and set back, from the value's buffer or another")
    func decodedExtensionsSetters() throws {
        let url = RepositoryPaths.vectors("extensions/all-extensions.der")
        let bytes = [UInt8](try Data(contentsOf: url))
        let decoded = try Certificate(derEncoded: bytes).decodeAllExtensions()
        // A second copy of the certificate: equal values over another buffer.
        let other = try Certificate(derEncoded: Array(bytes)).decodeAllExtensions()
        #expect(decoded == other && decoded.hashValue == other.hashValue)

        func roundTrip<T: Equatable>(_ field: WritableKeyPath<DecodedExtensions, T?>) throws {
            let original = try #require(decoded[keyPath: field], "\(field) is absent from all-extensions.der")
            var changed = decoded
            changed[keyPath: field] = nil
            #expect(changed[keyPath: field] == nil && changed != decoded)
            changed[keyPath: field] = other[keyPath: field]
            #expect(changed[keyPath: field] == original && changed == decoded)
            #expect(changed.hashValue == decoded.hashValue)
        }
        try roundTrip(\.subjectKeyIdentifier)
        try roundTrip(\.authorityKeyIdentifier)
        try roundTrip(\.basicConstraints)
        try roundTrip(\.keyUsage)
        try roundTrip(\.extendedKeyUsage)
        try roundTrip(\.subjectAlternativeNames)
        try roundTrip(\.issuerAlternativeNames)
        try roundTrip(\.nameConstraints)
        try roundTrip(\.certificatePolicies)
        try roundTrip(\.policyMappings)
        try roundTrip(\.policyConstraints)
        try roundTrip(\.inhibitAnyPolicy)
        try roundTrip(\.crlDistributionPoints)
        try roundTrip(\.authorityInformationAccess)
    }
}
