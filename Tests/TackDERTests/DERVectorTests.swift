import Foundation
import Testing
import TackDER
import TackTestSupport

/// The reason names used in `Vectors/der/malformed/manifest.tsv`.
private let reasonsByName: [String: DERError.Reason] = [
    "truncated": .truncated, "indefiniteLength": .indefiniteLength, "nonMinimalLength": .nonMinimalLength,
    "unsupportedLength": .unsupportedLength, "lengthExceedsInput": .lengthExceedsInput,
    "nonMinimalTagNumber": .nonMinimalTagNumber, "tagNumberTooLarge": .tagNumberTooLarge,
    "trailingData": .trailingData, "nestingTooDeep": .nestingTooDeep, "elementTooLarge": .elementTooLarge,
    "wrongConstructedBit": .wrongConstructedBit, "invalidBoolean": .invalidBoolean, "invalidNull": .invalidNull,
    "emptyInteger": .emptyInteger, "nonMinimalInteger": .nonMinimalInteger,
    "invalidBitStringUnusedBits": .invalidBitStringUnusedBits, "nonZeroBitStringPadding": .nonZeroBitStringPadding,
    "emptyObjectIdentifier": .emptyObjectIdentifier, "nonMinimalObjectIdentifierArc": .nonMinimalObjectIdentifierArc,
    "truncatedObjectIdentifier": .truncatedObjectIdentifier, "objectIdentifierArcTooLong": .objectIdentifierArcTooLong, "invalidTimeFormat": .invalidTimeFormat,
    "fractionalSecondsNotAllowed": .fractionalSecondsNotAllowed, "invalidDate": .invalidDate,
    "invalidPrintableString": .invalidPrintableString, "invalidIA5String": .invalidIA5String,
    "invalidNumericString": .invalidNumericString, "invalidVisibleString": .invalidVisibleString,
    "invalidUTF8String": .invalidUTF8String, "invalidBMPString": .invalidBMPString,
    "invalidUniversalString": .invalidUniversalString,
]

struct MalformedVector: CustomTestStringConvertible, Sendable {
    let file: String
    let reason: String
    let offset: Int
    let note: String
    var testDescription: String { file }
}

private let vectorDirectory = RepositoryPaths.vectors("der")

private let malformedVectors: [MalformedVector] = {
    let url = vectorDirectory.appendingPathComponent("malformed/manifest.tsv")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
        guard !line.hasPrefix("#") else { return nil }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 4, let offset = Int(fields[2]) else { return nil }
        return MalformedVector(file: String(fields[0]), reason: String(fields[1]), offset: offset, note: String(fields[3]))
    }
}()

private let validVectorFiles: [String] = {
    let url = vectorDirectory.appendingPathComponent("valid")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix(".der") }.sorted()
}()

@Suite("DER vectors")
struct DERVectorTests {
    @Test("The vector sets are present")
    func vectorsPresent() {
        #expect(malformedVectors.count >= 40)
        #expect(validVectorFiles.count >= 15)
    }

    @Test("Each malformed vector is rejected with its reason and offset", arguments: malformedVectors)
    func malformed(_ vector: MalformedVector) throws {
        let bytes = try [UInt8](Data(contentsOf: vectorDirectory.appendingPathComponent("malformed/" + vector.file)))
        let expectedReason = try #require(reasonsByName[vector.reason], "unknown reason \(vector.reason)")
        #expect(throws: DERError(expectedReason, at: vector.offset), "\(vector.note)") {
            _ = try DERTree.parse(bytes)
        }
    }

    @Test("Each valid vector parses and re-encodes byte for byte", arguments: validVectorFiles)
    func valid(_ file: String) throws {
        let bytes = try [UInt8](Data(contentsOf: vectorDirectory.appendingPathComponent("valid/" + file)))
        let tree = try DERTree.parse(bytes)
        #expect(tree.encoded() == bytes)
    }
}
