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

@Suite("Extension fast paths agree with the full reader")
struct ExtensionFastPathTests {
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
