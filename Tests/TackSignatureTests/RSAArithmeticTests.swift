import Foundation
import TackTestSupport
import Testing

@testable import TackSignature

@Suite("RSA Montgomery arithmetic")
struct RSAArithmeticTests {
    struct ModulusCase: CustomTestStringConvertible, Sendable {
        let modulus: [UInt8]
        let answers: [(exponent: UInt64, base: [UInt8], result: [UInt8])]
        var testDescription: String { "\(modulus.count * 8 - modulus[0].leadingZeroBitCount)-bit modulus" }
    }

    static func modexpCases() throws -> [ModulusCase] {
        let url = RSATestSupport.vectorDirectory.appendingPathComponent("modexp.json")
        let entries = try #require(RSATestSupport.loadJSON(url) as? [[String: Any]])
        return try entries.map { entry in
            let n = hexBytes(integer: try #require(entry["n"] as? String))
            let cases = try #require(entry["cases"] as? [[Any]])
            let answers = try cases.map { c in
                (
                    exponent: UInt64(try #require(c[0] as? Int)),
                    base: hexBytes(integer: try #require(c[1] as? String)),
                    result: hexBytes(integer: try #require(c[2] as? String))
                )
            }
            return ModulusCase(modulus: n, answers: answers)
        }
    }

    /// Computes base^e mod n with the Montgomery code and returns it as
    /// minimal big-endian bytes.
    static func power(modulus: [UInt8], base: [UInt8], exponent: UInt64) -> [UInt8] {
        let n = RSAPublicKey.limbs(fromBigEndian: modulus)
        let prepared = RSAModulus(limbs: n)
        let k = prepared.limbCount
        var baseLimbs = RSAPublicKey.limbs(fromBigEndian: base)
        baseLimbs += [UInt64](repeating: 0, count: k - baseLimbs.count)
        var result = [UInt64](repeating: 0, count: k)
        var workspace = [UInt64](repeating: 0, count: 2 * k + RSAModulus.powerScratchLimbCount(k: k))
        baseLimbs.withUnsafeBufferPointer { b in
            result.withUnsafeMutableBufferPointer { r in
                workspace.withUnsafeMutableBufferPointer { w in
                    n.withUnsafeBufferPointer { nb in
                        prepared.power(
                            b.baseAddress!, exponent: exponent, into: r.baseAddress!, workspace: w.baseAddress!,
                            scratch: w.baseAddress! + 2 * k, modulus: nb.baseAddress!)
                    }
                }
            }
        }
        var bytes: [UInt8] = []
        for limb in result.reversed() {
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift)))
            }
        }
        return Array(bytes.drop(while: { $0 == 0 }))
    }

    @Test("s^e mod n agrees with Python's pow for every modulus size and exponent", arguments: try modexpCases())
    func modularPower(_ modulusCase: ModulusCase) {
        #expect(modulusCase.answers.count == 30)
        for answer in modulusCase.answers {
            let got = Self.power(modulus: modulusCase.modulus, base: answer.base, exponent: answer.exponent)
            let expected = Array(answer.result.drop(while: { $0 == 0 }))
            #expect(got == expected, "e = \(answer.exponent)")
        }
    }

    /// R² mod n by the long division that enters the Montgomery domain
    /// (x·R mod n with x = R: k zero limbs and a 1).
    static func rSquared(_ n: [UInt64]) -> [UInt64] {
        RSAModulus(limbs: n).shiftedRemainder([UInt64](repeating: 0, count: n.count) + [1], modulus: n)
    }

    @Test("R² mod n is right for a modulus just above a power of two")
    func rSquaredSmallModulus() {
        // n = 2^1023 + 1: R = 2^1024 ≡ −2 (mod n), so R² ≡ 4.
        var n = [UInt8](repeating: 0, count: 128)
        n[0] = 0x80
        n[127] = 0x01
        let prepared = RSAModulus(limbs: RSAPublicKey.limbs(fromBigEndian: n))
        let rSquared = Self.rSquared(RSAPublicKey.limbs(fromBigEndian: n))
        #expect(rSquared[0] == 4)
        #expect(rSquared.dropFirst().allSatisfy { $0 == 0 })
        #expect(prepared.bitCount == 1024)
    }

    @Test("s·R mod n by division is the Montgomery form of s: a Montgomery multiplication by 1 gives s back", arguments: [1024, 2048, 4096])
    func montgomeryFormByDivision(_ bits: Int) {
        // Seeded: the same moduli and values on every run.
        var generator = DeterministicStream(state: UInt64(bits))
        let k = bits / 64
        var n = (0..<k).map { _ in generator.next() }
        n[0] |= 1
        n[k - 1] |= 1 << 63
        let prepared = RSAModulus(limbs: n)
        // s = n − 1 (the largest value), 1, and a random value below n.
        var random = (0..<k).map { _ in generator.next() }
        random[k - 1] >>= 1
        for s in [[n[0] - 1] + n.dropFirst(), [1] + [UInt64](repeating: 0, count: k - 1), random] {
            let sR = prepared.shiftedRemainder(s, modulus: n)
            // (s·R)·1·R⁻¹ = s: a Montgomery multiplication by 1 undoes the form.
            var one = [UInt64](repeating: 0, count: k)
            one[0] = 1
            var back = [UInt64](repeating: 0, count: k)
            var scratch = [UInt64](repeating: 0, count: k + 1)
            sR.withUnsafeBufferPointer { a in
                one.withUnsafeBufferPointer { b in
                    n.withUnsafeBufferPointer { nb in
                        back.withUnsafeMutableBufferPointer { r in
                            scratch.withUnsafeMutableBufferPointer { t in
                                RSAModulus.montgomeryMultiply(
                                    r.baseAddress!, a.baseAddress!, b.baseAddress!, nb.baseAddress!,
                                    prepared.negatedInverse, k, t.baseAddress!)
                            }
                        }
                    }
                }
            }
            #expect(back == s)
            #expect(sR.reversed().lexicographicallyPrecedes(n.reversed()))  // fully reduced
        }
    }

    @Test("Big-endian bytes load into little-endian limbs for every length mod 8", arguments: 0...17)
    func limbLoading(_ count: Int) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: 0xA1 &+ 37 &* $0) }
        // The reference: one byte at a time from the end.
        var expected = [UInt64](repeating: 0, count: (count + 7) / 8)
        for (offset, byte) in bytes.reversed().enumerated() {
            expected[offset / 8] |= UInt64(byte) << UInt64(8 * (offset % 8))
        }
        #expect(RSAPublicKey.limbs(fromBigEndian: bytes) == expected)
    }

    @Test("The Montgomery reduction factor is −n⁻¹ mod 2^64")
    func negatedInverse() throws {
        let key = try RSAPublicKey(
            modulus: [0xC0] + [UInt8](repeating: 0x5A, count: 126) + [0x4F], exponent: 65537
        )
        #expect(RSAPublicKey.limbs(fromBigEndian: key.modulus)[0] &* key.prepared.negatedInverse == UInt64.max)
        #expect(key.prepared.limbCount == 16 && key.prepared.bitCount == 1024)
    }

    /// Moduli for which Algorithm D's quotient estimate is still one too
    /// large after refinement, so the add-back step (Knuth D6) runs: found by
    /// simulating the R² division (`RSAModulus.divide` with x = R) in Python over 1024-bit moduli built from
    /// the limbs 0, 1, 2^63 − 1, 2^63, 2^64 − 2, 2^64 − 1 and random ones.
    /// Pairs of (n, R² mod n) in hex, R = 2^1024.
    static let addBackCases: [(modulus: String, rSquared: String)] = [
        ("80000000000000000000000000000000fffffffffffffffe800000000000000000000000000000017fffffffffffffff7ffffffffffffffffffffffffffffffefffffffffffffffe00000000000000000000000000000001ffffffffffffffffe2934bf1d37c9961000000000000000000000000000000000000000000000001",
         "4230e1542c51f36e5854eb5964e1fbf6d3d58a534d8ec25d4af466a4dd9865d111c2475cdfed5780f5d06e9670bdfc37c639c8e348e41d1fa1dd45e5647e4cd0c83a65d92f5aca83e51569e5e783f4c6cfdfbd4cc5cc45c83d7ed5bdfcc8e3ddaef783af21e7a07effffffffffffef21d6cb40e2c8369afb3dcf1eabd3ae641d"),
        ("80000000000000008000000000000000fffffffffffffffe00000000000000005b58796aad611a3e000000000000000192947d945fac971a0000000000000001fffffffffffffffeac859f8ff706a8328000000000000000fffffffffffffffe00000000000000000000000000000000ffffffffffffffff0000000000000001",
         "71bcce8a7f9408b606cdc86fe9523136a13d039a31593f259b8bc486095d36b586d428255cbec1545e6634d70ff7ae9681928dd23fee3bc8391f7d4e8c491a8e5e0ff2a36610358369f33bb92de006b5a281aeb1cab6d73b0288522a336ef1bcf9aca91ac2dbce42fbb1bac96718abb350c46f2d4cc1f54097cf62f9c5727df2"),
        ("800000000000000000000000000000007fffffffffffffff0000000000000000fffffffffffffffe00000000000000004f4c8db65c7061067fffffffffffffffffffffffffffffffffffffffffffffff8000000000000000fffffffffffffffe7fffffffffffffff2a66b259bb798e9bfffffffffffffffe8000000000000001",
         "797e90ba9325d86b083f33db108a37b0a51d92d9536eb380e5aeb87d27ef3284e76f0c72753811f3f73cfd28a68b295bb774154468e95c91b66e950b86635d78f6f4c09e0be517803c7855c8b49dc94c6ba69109fc5a0e1c0d8710e30d4c2f16517fc6ada41dafcab7b680ae56c093bbb009f70e4787791620bf165a6488c1e3"),
    ]

    @Test("R² mod n is right where Algorithm D must add back", arguments: 0..<addBackCases.count)
    func rSquaredAddBack(_ index: Int) {
        let (modulus, rSquared) = Self.addBackCases[index]
        let n = RSAPublicKey.limbs(fromBigEndian: hexBytes(integer: modulus))
        let expected = RSAPublicKey.limbs(fromBigEndian: hexBytes(integer: rSquared))
        let padded = expected + [UInt64](repeating: 0, count: n.count - expected.count)
        #expect(Self.rSquared(n) == padded)
    }

    @Test("The stack workspace is for moduli up to 2048 bits, each of its blocks at most 1 KiB (never the heap fallback)")
    func stackWorkspaceBound() {
        let k = RSAPublicKey.stackLimbBound
        #expect(k == 32)
        #expect(8 * max(3 * k, 4 * k, RSAModulus.powerScratchLimbCount(k: k)) <= 1024)
    }

    @Test("RSAVP1 on the stack (up to 2048 bits) and on the heap agrees with the power of an array workspace; a key from a slice equals one from a copy",
          arguments: [1024, 2048, 2056, 3072, 4096])
    func messageRepresentativeWorkspaces(_ bits: Int) throws {
        // Seeded: the same moduli and signatures on every run.
        var generator = DeterministicStream(state: 0x75A_0000 &+ UInt64(bits))
        var modulus = generator.bytes((bits + 7) / 8)
        modulus[0] |= 0x80
        modulus[modulus.count - 1] |= 1
        // The modulus in the middle of a larger buffer, after a leading zero, as a
        // certificate's INTEGER carries it.
        let buffer = [0x30, 0x00] + modulus + [0x02, 0x03]
        let slice = buffer[1..<(buffer.count - 2)]
        let shared = try RSAPublicKey(magnitude: slice, exponent: 65537)
        let copied = try RSAPublicKey(modulus: modulus, exponent: 65537)
        #expect(shared == copied && shared.hashValue == copied.hashValue)
        #expect(shared.modulus == modulus && shared.signatureByteCount == modulus.count)
        for _ in 0..<4 {
            var signature = generator.bytes(modulus.count)
            signature[0] &= 0x7F
            let expected = Self.power(modulus: modulus, base: signature, exponent: 65537)
            for key in [shared, copied] {
                let recovered = try signature.withUnsafeBufferPointer { (bytes) throws(SignatureError) -> [UInt8] in
                    try key.withMessageRepresentative(signature: bytes) { (recovered, _) throws(SignatureError) in Array(recovered) }
                }
                #expect(Array(recovered.drop(while: { $0 == 0 })) == expected)
            }
        }
        let tooLarge = modulus  // s = n
        #expect(throws: SignatureError.malformedSignature(.representativeOutOfRange)) {
            try tooLarge.withUnsafeBufferPointer { (bytes) throws(SignatureError) in
                try shared.withMessageRepresentative(signature: bytes) { (_, _) throws(SignatureError) in }
            }
        }
    }
}
