import Foundation
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
            let n = RSATestSupport.bytes(hex: try #require(entry["n"] as? String))
            let cases = try #require(entry["cases"] as? [[Any]])
            let answers = try cases.map { c in
                (
                    exponent: UInt64(try #require(c[0] as? Int)),
                    base: RSATestSupport.bytes(hex: try #require(c[1] as? String)),
                    result: RSATestSupport.bytes(hex: try #require(c[2] as? String))
                )
            }
            return ModulusCase(modulus: n, answers: answers)
        }
    }

    /// Computes base^e mod n with the Montgomery code and returns it as
    /// minimal big-endian bytes.
    static func power(modulus: [UInt8], base: [UInt8], exponent: UInt64) -> [UInt8] {
        let prepared = RSAModulus(limbs: RSAPublicKey.limbs(fromBigEndian: modulus))
        let k = prepared.limbs.count
        var baseLimbs = RSAPublicKey.limbs(fromBigEndian: base)
        baseLimbs += [UInt64](repeating: 0, count: k - baseLimbs.count)
        var result = [UInt64](repeating: 0, count: k)
        var workspace = [UInt64](repeating: 0, count: prepared.powerWorkspaceLimbCount)
        baseLimbs.withUnsafeBufferPointer { b in
            result.withUnsafeMutableBufferPointer { r in
                workspace.withUnsafeMutableBufferPointer { w in
                    prepared.power(b.baseAddress!, exponent: exponent, into: r.baseAddress!, workspace: w.baseAddress!)
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

    @Test("R² mod n is right for a modulus just above a power of two")
    func rSquaredSmallModulus() {
        // n = 2^1023 + 1: R = 2^1024 ≡ −2 (mod n), so R² ≡ 4.
        var n = [UInt8](repeating: 0, count: 128)
        n[0] = 0x80
        n[127] = 0x01
        let prepared = RSAModulus(limbs: RSAPublicKey.limbs(fromBigEndian: n))
        #expect(prepared.rSquared[0] == 4)
        #expect(prepared.rSquared.dropFirst().allSatisfy { $0 == 0 })
        #expect(prepared.bitCount == 1024)
    }

    @Test("The Montgomery reduction factor is −n⁻¹ mod 2^64")
    func negatedInverse() throws {
        let key = try RSAPublicKey(
            modulus: [0xC0] + [UInt8](repeating: 0x5A, count: 126) + [0x4F], exponent: 65537
        )
        #expect(key.prepared.limbs[0] &* key.prepared.negatedInverse == UInt64.max)
    }
}
