import Testing
import TackTestSupport

@testable import TackDigest

/// `SHA256.hashes(of:)` and `SHA256.hash(_:_:)` (interleaved on SHA-NI)
/// against the single-message path, on seeded random messages.
@Suite("SHA-256 of several messages at once")
struct MultiMessageTests {
    /// Lengths around every padding boundary (55/56/63/64 bytes mod 64) and
    /// a spread of longer ones, so pairs differ in block count both ways.
    static let lengths: [Int] = {
        var lengths = [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 191, 192, 294, 1024]
        var stream = DeterministicStream(state: 0x5a5a)
        for _ in 0..<60 { lengths.append(Int(stream.next() % 3000)) }
        return lengths
    }()

    @Test("Every pair of lengths hashes as the single-message path does", arguments: [UInt64(1), 2])
    func pairsAgree(seed: UInt64) {
        var stream = DeterministicStream(state: seed)
        for firstLength in Self.lengths {
            for secondLength in Self.lengths where (firstLength &+ secondLength) % 3 == Int(seed % 3) {
                let first = stream.bytes(firstLength)
                let second = stream.bytes(secondLength)
                let (digestA, digestB) = first.withUnsafeBytes { a in
                    second.withUnsafeBytes { b in SHA256.hash(a, b) }
                }
                #expect(digestA == SHA256.hash(first), "lengths \(firstLength), \(secondLength)")
                #expect(digestB == SHA256.hash(second), "lengths \(firstLength), \(secondLength)")
                // And against the portable path, which shares nothing with SHA-NI.
                var portable = SHA256(implementation: .portable)
                portable.update(second)
                #expect(digestB == portable.finalize())
            }
        }
    }

    @Test("A collection of messages, odd and even counts, arrays and slices")
    func collectionsAgree() {
        var stream = DeterministicStream(state: 77)
        for count in 0..<8 {
            let messages = (0..<count).map { _ in stream.bytes(Int(stream.next() % 1500)) }
            let expected = messages.map { SHA256.hash($0) }
            #expect(SHA256.hashes(of: messages) == expected)
            let slices = messages.map { $0.isEmpty ? $0[...] : $0[1...] }
            #expect(SHA256.hashes(of: slices) == slices.map { SHA256.hash($0) })
        }
    }

    @Test("Known answers: the FIPS 180-4 examples hashed together")
    func knownAnswers() {
        let abc = Array("abc".utf8)
        let twoBlock = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        let digests = SHA256.hashes(of: [abc, twoBlock, []])
        #expect(digests.map(\.hexString) == [
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        ])
    }
}
