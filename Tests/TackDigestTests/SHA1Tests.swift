import TackTestSupport
import Testing

@testable import TackDigest

/// The implementations SHA-1 can run here: both where the build and CPU have
/// the SHA-1 instructions (arm64 with TACK_HARDWARE_SHA), else the portable one.
let testedSHA1Implementations: [SHA2Implementation] =
    SHA1.hardwareIsAvailable ? [.portable, .hardware] : [.portable]

@Suite("SHA-1")
struct SHA1Tests {
    static func digest(_ message: [UInt8], _ implementation: SHA2Implementation) -> String {
        var hasher = SHA1(implementation: implementation)
        hasher.update(message)
        return hasher.finalize().hexString
    }

    /// FIPS 180-4 examples (NIST "Examples with Intermediate Values", SHA-1) and
    /// RFC 3174 §7.3's TEST1, TEST2 and TEST3.
    @Test("Known answers: abc, the 448-bit message, one million 'a', the empty message",
          arguments: testedSHA1Implementations)
    func knownAnswers(implementation: SHA2Implementation) {
        #expect(Self.digest(Array("abc".utf8), implementation) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            Self.digest(KnownAnswerTests.message448, implementation) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(
            Self.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000), implementation)
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        #expect(Self.digest([], implementation) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        // RFC 3174 TEST4: "01234567" repeated 80 times (640 bytes, ten blocks).
        let test4 = Array(String(repeating: "0123456701234567012345670123456701234567012345670123456701234567", count: 10).utf8)
        #expect(Self.digest(test4, implementation) == "dea356a2cddd90c7a7ecedc5ebb563934f460452")
    }

    @Test("Every split of a two-part update, and byte-at-a-time, give the one-shot digest",
          arguments: testedSHA1Implementations)
    func incremental(implementation: SHA2Implementation) {
        for length in [0, 55, 56, 63, 64, 65, 119, 120, 128, 300] {
            let message = patternMessage(count: length)
            let expected = Self.digest(message, implementation)
            for split in 0...length {
                var hasher = SHA1(implementation: implementation)
                hasher.update(message[..<split])
                hasher.update(message[split...])
                #expect(hasher.finalize().hexString == expected, "length \(length) split \(split)")
            }
            var bytewise = SHA1(implementation: implementation)
            for index in message.indices { bytewise.update(message[index...index]) }
            #expect(bytewise.finalize().hexString == expected, "length \(length) byte at a time")
        }
    }

    @Test("Digest shape: 20 bytes, init(bytes:), the runtime entry point agrees")
    func digestShape() throws {
        let digest = SHA1.hash(Array("abc".utf8))
        #expect(digest.count == 20 && SHA1Digest.byteCount == 20)
        #expect(SHA1Digest(bytes: Array(digest)) == digest)
        #expect(SHA1Digest(bytes: [UInt8](repeating: 0, count: 19)) == nil)
        #expect(try DigestAlgorithm.sha1.hash(Array("abc".utf8)) == Array(digest))
    }

    /// Without the SHA-1 instructions there is only the portable path: a visible skip.
    @Test("Hardware and portable paths agree on seeded random messages",
          .enabled(if: SHA1.hardwareIsAvailable, "no SHA-1 hardware path in this build or CPU (x86-64 has none)"),
          arguments: [1, 2, 3] as [UInt64])
    func pathsAgree(seed: UInt64) {
        var generator = DeterministicStream(state: seed)
        for _ in 0..<200 {
            let count = Int(generator.next() % 2000)
            let message = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(Self.digest(message, .portable) == Self.digest(message, .hardware), "length \(count)")
        }
    }

    @Test("A hasher reports its implementation; where SHA-1 has no hardware path it is portable")
    func implementationReported() {
        #expect(SHA1(implementation: .portable).implementation == .portable)
        #expect(SHA1(implementation: .hardware).implementation == (SHA1.hardwareIsAvailable ? .hardware : .portable))
        #if !arch(arm64)
            #expect(!SHA1.hardwareIsAvailable)
        #endif
    }
}

@Suite("SHA-512/224")
struct SHA512_224Tests {
    @Test("FIPS 180-4 example: abc; the length field across a block boundary")
    func knownAnswer() {
        // NIST "Examples with Intermediate Values", SHA-512/224.
        #expect(SHA512_224.hash(Array("abc".utf8)).hexString == "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa")
        #expect(SHA512_224.hash(KnownAnswerTests.message896).hexString
            == "23fec5bb94d60b23308192640b0c453335d664734fe40e7268674af9")
        #expect(SHA512_224Digest.byteCount == 28)
    }
}
