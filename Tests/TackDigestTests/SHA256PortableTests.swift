import Testing
import TackTestSupport

@testable import TackDigest

/// The two portable SHA-256 compression functions held to each other: the 64 rounds
/// written out (`sha256CompressUnrolled`, what 64-bit targets run) and eight rounds a
/// turn (`sha256CompressEightRounds`, the general path, what 32-bit targets run), on
/// seeded random chaining values and blocks. The known-answer suites check whichever
/// one the host runs against FIPS 180-4; this checks the other against it.
@Suite("SHA-256 portable compression: unrolled and eight rounds a turn")
struct SHA256PortableTests {
    /// Whether two chaining values are equal (a tuple of eight has no `==`).
    static func same(_ a: SHA256Compression.State, _ b: SHA256Compression.State) -> Bool {
        a.0 == b.0 && a.1 == b.1 && a.2 == b.2 && a.3 == b.3 && a.4 == b.4 && a.5 == b.5 && a.6 == b.6 && a.7 == b.7
    }

    @Test("Same chaining value from both on seeded random blocks", arguments: [1, 2, 3] as [UInt64])
    func pathsAgree(seed: UInt64) {
        var generator = DeterministicStream(state: seed)
        func word() -> UInt32 { UInt32(truncatingIfNeeded: generator.next()) }
        for _ in 0..<300 {
            let blockCount = Int(generator.next() % 4) + 1
            let bytes = (0..<(64 * blockCount)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let start: SHA256Compression.State = (word(), word(), word(), word(), word(), word(), word(), word())
            var unrolled = start
            var eightRounds = start
            bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                sha256CompressUnrolled(&unrolled, base, blockCount)
                sha256CompressEightRounds(&eightRounds, base, blockCount)
            }
            #expect(Self.same(unrolled, eightRounds), "\(blockCount) blocks")
            #expect(!Self.same(unrolled, start))
        }
    }

    @Test("Both give FIPS 180-4's digest of \"abc\" (one padded block)")
    func knownAnswer() {
        // "abc", 0x80, zeros, and the bit length 24 in the last byte (FIPS 180-4 §5.1.1).
        var block = [UInt8](repeating: 0, count: 64)
        block[0] = 0x61
        block[1] = 0x62
        block[2] = 0x63
        block[3] = 0x80
        block[63] = 24
        let expected: SHA256Compression.State = (
            0xba78_16bf, 0x8f01_cfea, 0x4141_40de, 0x5dae_2223, 0xb003_61a3, 0x9617_7a9c, 0xb410_ff61, 0xf200_15ad
        )
        for compress in [sha256CompressUnrolled, sha256CompressEightRounds] {
            var state = SHA256.initialState
            block.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                compress(&state, base, 1)
            }
            #expect(Self.same(state, expected))
        }
    }
}
