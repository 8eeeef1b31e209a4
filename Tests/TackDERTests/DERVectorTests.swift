import Foundation
import Testing
import TackDER
import TackTestSupport

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
        do {
            _ = try DERTree.parse(bytes)
            Issue.record("\(vector.file) parsed; expected \(vector.reason) at \(vector.offset)")
        } catch {
            #expect(error.reason.code == vector.reason, "\(vector.note)")
            #expect(error.offset == vector.offset, "\(vector.note)")
        }
    }

    @Test("Each valid vector parses and re-encodes byte for byte", arguments: validVectorFiles)
    func valid(_ file: String) throws {
        let bytes = try [UInt8](Data(contentsOf: vectorDirectory.appendingPathComponent("valid/" + file)))
        let tree = try DERTree.parse(bytes)
        #expect(tree.encoded() == bytes)
    }
}
