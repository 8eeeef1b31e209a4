import Foundation
import TackTestSupport
import TackVectorSuites
import TackX509
import Testing

@testable import TackSignature

/// A RandomSource that replays a DeterministicStream, so that key generation
/// reproduces from the seed.
private struct SeededSource: RandomSource {
    var stream: DeterministicStream

    mutating func fill(_ bytes: inout [UInt8]) throws(RandomSourceError) {
        bytes = stream.bytes(bytes.count)
    }
}

/// A RandomSource that fails, or gives bytes that are never a valid scalar.
private struct BrokenSource: RandomSource {
    let fails: Bool

    mutating func fill(_ bytes: inout [UInt8]) throws(RandomSourceError) {
        if fails { throw .sourceFailed }
        bytes = [UInt8](repeating: 0xff, count: bytes.count)
    }
}

/// ECDH on P-256 and P-384: RFC 5903's known answers, Wycheproof's ecpoint
/// vectors through the runner, the complete formulas against the verifier's,
/// key generation and the refusals.
@Suite("ECDH P-256 and P-384")
struct ECDHTests {
    /// RFC 5903 §8.1 (P-256) and §8.2 (P-384): i, g^i, r, g^r, and g^ir's x.
    static let rfc5903: [(curve: ECCurve, i: String, gi: String, r: String, gr: String, shared: String)] = [
        (.p256,
         "c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433",
         "04dad0b65394221cf9b051e1feca5787d098dfe637fc90b9ef945d0c3772581180"
            + "5271a0461cdb8252d61f1c456fa3e59ab1f45b33accf5f58389e0577b8990bb3",
         "c6ef9c5d78ae012a011164acb397ce2088685d8f06bf9be0b283ab46476bee53",
         "04d12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf63"
            + "56fbf3ca366cc23e8157854c13c58d6aac23f046ada30f8353e74f33039872ab",
         "d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de"),
        (.p384,
         "099f3c7034d4a2c699884d73a375a67f7624ef7c6b3c0f160647b67414dce655e35b538041e649ee3faef896783ab194",
         "04667842d7d180ac2cde6f74f37551f55755c7645c20ef73e31634fe72b4c55ee6de3ac808acb4bdb4c88732aee95f41aa"
            + "9482ed1fc0eeb9cafc4984625ccfc23f65032149e0e144ada024181535a0f38eeb9fcff3c2c947dae69b4c634573a81c",
         "41cb0779b4bdb85d47846725fbec3c9430fab46cc8dc5060855cc9bda0aa2942e0308312916b8ed2960e4bd55a7448fc",
         "04e558dbef53eecde3d3fccfc1aea08a89a987475d12fd950d83cfa41732bc509d0d1ac43a0336def96fda41d0774a3571"
            + "dcfbec7aacf3196472169e838430367f66eebe3c6e70c416dd5f0c68759dd1fff83fa40142209dff5eaad96db9e6386c",
         "11187331c279962d93d604243fd592cb9d0a926f422e47187521287e7156c5c4d603135569b9e9d09cf5d4a270f59746"),
    ]

    @Test("RFC 5903's known answers: both public keys and the shared secret, each way", arguments: rfc5903.indices)
    func rfc5903KnownAnswer(_ index: Int) throws {
        let c = Self.rfc5903[index]
        let i = try ECDHPrivateKey(curve: c.curve, rawRepresentation: hexBytes(c.i))
        let r = try ECDHPrivateKey(curve: c.curve, rawRepresentation: hexBytes(c.r))
        #expect(i.publicKey.x963Representation == hexBytes(c.gi))
        #expect(r.publicKey.x963Representation == hexBytes(c.gr))
        let gr = try ECDHPublicKey(curve: c.curve, x963Representation: hexBytes(c.gr))
        let gi = try ECDHPublicKey(curve: c.curve, x963Representation: hexBytes(c.gi))
        #expect(try i.sharedSecret(with: gr) == hexBytes(c.shared))
        #expect(try r.sharedSecret(with: gi) == hexBytes(c.shared))
    }

    @Test("Wycheproof ecdh_secp256r1_ecpoint_test.json through the runner: every vector agrees, none skipped",
          .enabled(if: VectorAvailability.runs(needing: RepositoryPaths.sharedVectors("wycheproof-tls")),
                   "../shared/vectors/wycheproof-tls is absent (a failure when CI=true)"))
    func wycheproof() throws {
        let report = try WycheproofRunner.run(
            path: RepositoryPaths.sharedVectors("wycheproof-tls/ecdh_secp256r1_ecpoint_test.json").path)
        let tally = report.tally
        #expect(tally.disagreements.isEmpty, "disagreeing tcIds \(tally.disagreements.map(\.tcId))")
        #expect(tally.skippedGroups.isEmpty)
        #expect(report.vectorCount == 355)
        // The one acceptable vector (a compressed point) is decoded, as the stance says.
        #expect(tally.acceptable.count == 1)
        #expect(tally.acceptable.allSatisfy { $0.accepted })
        #expect(tally.agreed + tally.acceptable.count == report.vectorCount)
    }

    @Test("The complete formulas agree with the verifier's Jacobian ones on seeded multiples of G")
    func completeFormulasMatchVerifier() {
        var stream = DeterministicStream(state: 0xEC_D11)
        let curve = P256.curve
        let field = curve.field
        for _ in 0..<40 {
            let k = ECLimbs4((stream.next(), stream.next(), stream.next(), stream.next() >> 1))
            let l = ECLimbs4((stream.next(), stream.next(), stream.next(), stream.next() >> 1))
            guard let kg = curve.multiplySecret(k, curve.generator), let lg = curve.multiplySecret(l, curve.generator) else {
                Issue.record("a multiple was infinity")
                continue
            }
            // kG + lG, and 2·kG, by both formula sets, compared in affine form.
            let jacobianSum = ECWeierstrassCurve.toAffine(
                ECWeierstrassCurve.addAffine(ECJacobianPoint(x: kg.x, y: kg.y, z: field.one), lg, field), field)
            let jacobianDouble = ECWeierstrassCurve.toAffine(
                ECWeierstrassCurve.double(ECJacobianPoint(x: kg.x, y: kg.y, z: field.one), field), field)
            let p = ECProjectivePoint(x: kg.x, y: kg.y, z: field.one)
            let q = ECProjectivePoint(x: lg.x, y: lg.y, z: field.one)
            func affine(_ point: ECProjectivePoint<ECLimbs4>) -> ECAffinePoint<ECLimbs4> {
                let zInverse = field.inverse(point.z)
                return ECAffinePoint(x: field.multiply(point.x, zInverse), y: field.multiply(point.y, zInverse))
            }
            #expect(affine(ECWeierstrassCurve.completeAdd(p, q, b: curve.b, field)) == jacobianSum)
            #expect(affine(ECWeierstrassCurve.completeAdd(p, p, b: curve.b, field)) == jacobianDouble)
            // P + (−P) is infinity (Z = 0), with no special case.
            let negated = ECProjectivePoint(x: p.x, y: field.negate(p.y), z: p.z)
            #expect(ECWeierstrassCurve.completeAdd(p, negated, b: curve.b, field).z.isZero)
            // (k + l)·G from the ladder equals kG + lG.
            let (sum, _) = k.addingWithCarry(l)
            #expect(curve.multiplySecret(sum, curve.generator) == jacobianSum)
        }
    }

    @Test("The ladder against the verifier's multiplication: small scalars, scalars below n and past it (n + 30 meets P = Q in P-256's last window, n + 26 in P-384's), seeded ones")
    func ladderMatchesVerifier() {
        Self.checkLadder(P256.curve, seed: 0x1ADD_E256)
        #if TACK_P384
        Self.checkLadder(P384.curve, seed: 0x1ADD_E384)
        #endif
    }

    /// `multiplySecret` (masked Jacobian additions, the complete one in the last
    /// window, P-256's inversion chain) against `multiplyTwo(u1: k, u2: 0, …)`, the
    /// verifier's variable-time wNAF, for k·G.
    private static func checkLadder<Limbs: ECLimbs>(_ curve: ECWeierstrassCurve<Limbs>, seed: UInt64) {
        let n = curve.order.modulus
        var scalars: [Limbs] = []
        for i in 1...33 {
            let small = Limbs(small: UInt64(i))
            scalars.append(small)
            scalars.append(n.subtractingWithBorrow(small).difference)
            scalars.append(n.addingWithCarry(small).sum)
        }
        var stream = DeterministicStream(state: seed)
        for _ in 0..<12 {
            var k = Limbs()
            for i in 0..<Limbs.limbCount { k[i] = stream.next() }
            scalars.append(k)
        }
        for k in scalars {
            let expected = ECWeierstrassCurve.toAffine(curve.multiplyTwo(u1: k, u2: Limbs(), q: curve.generator), curve.field)
            #expect(curve.multiplySecret(k, curve.generator) == expected, "k = \(k.bigEndianBytes(count: 8 * Limbs.limbCount))")
        }
        // n·G is infinity: nil, never a point.
        #expect(curve.multiplySecret(n, curve.generator) == nil)
    }

    @Test("Generated keys agree with each other, on both curves, from a seeded source", arguments: [ECCurve.p256, .p384])
    func generatedKeysAgree(_ curve: ECCurve) throws {
        var source = SeededSource(stream: DeterministicStream(state: 0xD1FF_1E))
        for _ in 0..<4 {
            let a = try ECDHPrivateKey(curve: curve, using: &source)
            let b = try ECDHPrivateKey(curve: curve, using: &source)
            let ab = try a.sharedSecret(with: b.publicKey)
            #expect(ab == (try b.sharedSecret(with: a.publicKey)))
            #expect(ab.count == curve.coordinateByteCount)
            // A compressed encoding of the same point gives the same key.
            let uncompressed = a.publicKey.x963Representation
            let compressed = [0x02 | (uncompressed[uncompressed.count - 1] & 1)] + uncompressed[1...curve.coordinateByteCount]
            #expect(try ECDHPublicKey(curve: curve, x963Representation: compressed) == a.publicKey)
        }
    }

    @Test("Refusals: bad scalars, bad points, mismatched curves, broken sources; no scalar in the description")
    func refusals() throws {
        let order = hexBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        #expect(throws: KeyAgreementError.privateKeyOutOfRange) { try ECDHPrivateKey(curve: .p256, rawRepresentation: order) }
        #expect(throws: KeyAgreementError.privateKeyOutOfRange) {
            try ECDHPrivateKey(curve: .p256, rawRepresentation: [UInt8](repeating: 0, count: 32))
        }
        #expect(throws: KeyAgreementError.invalidPrivateKeyLength(expected: 32, found: 31)) {
            try ECDHPrivateKey(curve: .p256, rawRepresentation: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: KeyAgreementError.unsupportedCurve(.p521)) {
            try ECDHPrivateKey(curve: .p521, rawRepresentation: [UInt8](repeating: 1, count: 66))
        }
        let c = Self.rfc5903[0]
        var offCurve = hexBytes(c.gr)
        offCurve[offCurve.count - 1] ^= 1
        #expect(throws: KeyAgreementError.invalidPublicKey(.notOnCurve)) {
            try ECDHPublicKey(curve: .p256, x963Representation: offCurve)
        }
        #expect(throws: KeyAgreementError.invalidPublicKey(.pointAtInfinity)) {
            try ECDHPublicKey(curve: .p256, x963Representation: [0x00])
        }
        #expect(throws: KeyAgreementError.invalidPublicKey(.wrongLength(expected: 65, found: 64))) {
            try ECDHPublicKey(curve: .p256, x963Representation: hexBytes(c.gr).dropLast())
        }
        let key = try ECDHPrivateKey(curve: .p256, rawRepresentation: hexBytes(c.i))
        let p384 = try ECDHPublicKey(curve: .p384, x963Representation: hexBytes(Self.rfc5903[1].gr))
        #expect(throws: KeyAgreementError.curveMismatch(privateKey: .p256, publicKey: .p384)) { try key.sharedSecret(with: p384) }
        #expect(!key.description.lowercased().contains("c88f"))
        #expect(key.description == "ECDHPrivateKey(\(ECCurve.p256))")
        var failing = BrokenSource(fails: true)
        #expect(throws: KeyAgreementError.randomSourceFailed(.sourceFailed)) { try ECDHPrivateKey(curve: .p256, using: &failing) }
        var stuck = BrokenSource(fails: false)
        #expect(throws: KeyAgreementError.randomSourceUnusable) { try ECDHPrivateKey(curve: .p256, using: &stuck) }
        #expect(KeyAgreementError.privateKeyOutOfRange.code == "key_agreement_private_key_out_of_range")
    }
}
