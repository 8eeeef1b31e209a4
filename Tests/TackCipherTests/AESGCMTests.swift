import Foundation
import TackTestSupport
import TackVectorSuites
import Testing

@testable import TackCipher

/// AES-GCM (NIST SP 800-38D): the test cases of the original specification,
/// Wycheproof through the runner and on each implementation, the hardware
/// path against the portable one, and the refusals.
@Suite("AES-GCM")
struct AESGCMTests {
    let implementations: [AESImplementation] = AESImplementation.hardware.isAvailable ? [.portable, .hardware] : [.portable]

    /// McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)", 2005,
    /// appendix B: test cases 1–6 (AES-128) and 13–18 (AES-256).
    static let specificationCases: [(name: String, key: String, nonce: String, aad: String, plaintext: String, ciphertext: String, tag: String)] = {
        let key128 = "feffe9928665731c6d6a8f9467308308"
        let key256 = key128 + key128
        let plaintext64 =
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
            + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
        let plaintext60 = String(plaintext64.prefix(120))
        let aad = "feedfacedeadbeeffeedfacedeadbeefabaddad2"
        let nonce60 =
            "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728"
            + "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b"
        return [
            ("1", String(repeating: "0", count: 32), String(repeating: "0", count: 24), "", "", "",
             "58e2fccefa7e3061367f1d57a4e7455a"),
            ("2", String(repeating: "0", count: 32), String(repeating: "0", count: 24), "", String(repeating: "0", count: 32),
             "0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf"),
            ("3", key128, "cafebabefacedbaddecaf888", "", plaintext64,
             "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                + "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
             "4d5c2af327cd64a62cf35abd2ba6fab4"),
            ("4", key128, "cafebabefacedbaddecaf888", aad, plaintext60,
             "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                + "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
             "5bc94fbc3221a5db94fae95ae7121a47"),
            ("5", key128, "cafebabefacedbad", aad, plaintext60,
             "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
                + "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
             "3612d2e79e3b0785561be14aaca2fccb"),
            ("6", key128, nonce60, aad, plaintext60,
             "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
                + "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
             "619cc5aefffe0bfa462af43c1699d050"),
            ("13", String(repeating: "0", count: 64), String(repeating: "0", count: 24), "", "", "",
             "530f8afbc74536b9a963b4f1c4cb738b"),
            ("14", String(repeating: "0", count: 64), String(repeating: "0", count: 24), "", String(repeating: "0", count: 32),
             "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919"),
            ("15", key256, "cafebabefacedbaddecaf888", "", plaintext64,
             "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
             "b094dac5d93471bdec1a502270e3cc6c"),
            ("16", key256, "cafebabefacedbaddecaf888", aad, plaintext60,
             "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
             "76fc6ece0f4e1768cddf8853bb2d551b"),
            ("17", key256, "cafebabefacedbad", aad, plaintext60,
             "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0"
                + "feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f",
             "3a337dbf46a792c45e454913fe2ea8f2"),
            ("18", key256, nonce60, aad, plaintext60,
             "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4"
                + "0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
             "a44a8266ee1c8eb0c8b5d4cf5ae9f19a"),
        ]
    }()

    @Test("The specification's test cases 1–6 and 13–18 seal and open, every implementation",
          arguments: specificationCases.indices)
    func specificationCase(_ index: Int) throws {
        let c = Self.specificationCases[index]
        for implementation in implementations {
            let gcm = try AESGCM(key: hexBytes(c.key), implementation: implementation)
            let sealed = try gcm.seal(hexBytes(c.plaintext), nonce: hexBytes(c.nonce), authenticating: hexBytes(c.aad))
            #expect(sealed == hexBytes(c.ciphertext) + hexBytes(c.tag), "case \(c.name), \(implementation)")
            #expect(try gcm.open(sealed, nonce: hexBytes(c.nonce), authenticating: hexBytes(c.aad)) == hexBytes(c.plaintext))
        }
    }

    @Test("Every bit flipped in the ciphertext, the tag, the nonce or the associated data fails authentication")
    func tampering() throws {
        let c = Self.specificationCases[3]
        let gcm = try AESGCM(key: hexBytes(c.key))
        let nonce = hexBytes(c.nonce)
        let aad = hexBytes(c.aad)
        let sealed = try gcm.seal(hexBytes(c.plaintext), nonce: nonce, authenticating: aad)
        for bit in 0..<(8 * sealed.count) {
            var modified = sealed
            modified[bit / 8] ^= 1 << (bit % 8)
            #expect(throws: AEADError.authenticationFailed) { try gcm.open(modified, nonce: nonce, authenticating: aad) }
        }
        for bit in 0..<(8 * nonce.count) {
            var modified = nonce
            modified[bit / 8] ^= 1 << (bit % 8)
            #expect(throws: AEADError.authenticationFailed) { try gcm.open(sealed, nonce: modified, authenticating: aad) }
        }
        #expect(throws: AEADError.authenticationFailed) { try gcm.open(sealed, nonce: nonce, authenticating: aad.dropLast()) }
        #expect(throws: AEADError.authenticationFailed) { try gcm.open(sealed.dropFirst(), nonce: nonce, authenticating: aad) }
    }

    @Test("Refusals carry exact errors and codes")
    func refusals() throws {
        #expect(throws: AEADError.invalidKeyLength(15)) { try AESGCM(key: [UInt8](repeating: 0, count: 15)) }
        #expect(throws: AEADError.invalidKeyLength(0)) { try AESGCM(key: [UInt8]()) }
        let gcm = try AESGCM(key: [UInt8](repeating: 0, count: 16))
        #expect(throws: AEADError.invalidNonceLength(0)) { try gcm.seal([1, 2, 3], nonce: [UInt8]()) }
        #expect(throws: AEADError.invalidNonceLength(0)) { try gcm.open([UInt8](repeating: 0, count: 16), nonce: [UInt8]()) }
        #expect(throws: AEADError.ciphertextTooShort(15)) {
            try gcm.open([UInt8](repeating: 0, count: 15), nonce: [UInt8](repeating: 0, count: 12))
        }
        #expect(AEADError.authenticationFailed.code == "aead_authentication_failed")
        #expect(AEADError.invalidNonceLength(0).code == "aead_invalid_nonce_length")
        #expect(AEADError.inputTooLong.description.contains("longer"))
    }

    @Test("The portable GHASH multiplication is the field's: H·1 = H, and it agrees with bit-serial multiplication")
    func ghashMultiplicationIsTheFields() {
        // The field's one is the block 80 00 … 00 (x⁰ is the first bit).
        let one = GHASHBlock(high: 1 << 63, low: 0)
        // Bit-serial multiplication, SP 800-38D §6.3 Algorithm 1, as the reference.
        func reference(_ x: GHASHBlock, _ y: GHASHBlock) -> GHASHBlock {
            var z = GHASHBlock.zero
            var v = y
            for i in 0..<128 {
                let bit = i < 64 ? (x.high >> (63 - UInt64(i))) & 1 : (x.low >> (127 - UInt64(i))) & 1
                if bit == 1 { z = z ^ v }
                let carry = v.low & 1
                v.low = (v.low >> 1) | (v.high << 63)
                v.high >>= 1
                if carry == 1 { v.high ^= 0xe100_0000_0000_0000 }
            }
            return z
        }
        var stream = DeterministicStream(state: 0x6C0A_5EED)
        for _ in 0..<200 {
            let a = GHASHBlock(high: stream.next(), low: stream.next())
            let b = GHASHBlock(high: stream.next(), low: stream.next())
            #expect(ghashMultiply(a, b) == reference(a, b))
            #expect(ghashMultiply(a, one) == a)
        }
    }

    @Test("Wycheproof aes_gcm_test.json through the runner: every vector agrees, none skipped",
          .enabled(if: VectorAvailability.runs(needing: RepositoryPaths.sharedVectors("wycheproof-tls")),
                   "../shared/vectors/wycheproof-tls is absent (a failure when CI=true)"))
    func wycheproofRunner() throws {
        let report = try WycheproofRunner.run(path: RepositoryPaths.sharedVectors("wycheproof-tls/aes_gcm_test.json").path)
        let tally = report.tally
        #expect(tally.disagreements.isEmpty, "disagreeing tcIds \(tally.disagreements.map(\.tcId))")
        #expect(tally.skippedGroups.isEmpty)
        #expect(tally.acceptable.isEmpty)
        #expect(tally.agreed == report.vectorCount)
        #expect(report.vectorCount == 316)
    }

    @Test("Wycheproof aes_gcm_test.json on each implementation",
          .enabled(if: VectorAvailability.runs(needing: RepositoryPaths.sharedVectors("wycheproof-tls")),
                   "../shared/vectors/wycheproof-tls is absent (a failure when CI=true)"))
    func wycheproofEachImplementation() throws {
        let url = RepositoryPaths.sharedVectors("wycheproof-tls/aes_gcm_test.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var checked = 0
        for group in try #require(json["testGroups"] as? [[String: Any]]) {
            for test in try #require(group["tests"] as? [[String: Any]]) {
                let id = try #require(test["tcId"] as? Int)
                func field(_ name: String) throws -> [UInt8] { hexBytes(try #require(test[name] as? String)) }
                let sealed = try field("ct") + field("tag")
                let result = try #require(test["result"] as? String)
                for implementation in implementations {
                    let opened = try? AESGCM(key: field("key"), implementation: implementation)
                        .open(sealed, nonce: field("iv"), authenticating: field("aad"))
                    if result == "valid" {
                        #expect(opened == (try field("msg")), "tcId \(id), \(implementation)")
                        let resealed = try? AESGCM(key: field("key"), implementation: implementation)
                            .seal(field("msg"), nonce: field("iv"), authenticating: field("aad"))
                        #expect(resealed == sealed, "tcId \(id), \(implementation)")
                    } else {
                        #expect(opened == nil, "tcId \(id), \(implementation)")
                    }
                }
                checked += 1
            }
        }
        #expect(checked == json["numberOfTests"] as? Int)
    }

    @Test("The hardware path equals the portable one on seeded random keys, nonces, lengths and records",
          .enabled(if: AESImplementation.hardware.isAvailable, "no hardware AES on this machine or in this build"))
    func hardwareMatchesPortable() throws {
        var stream = DeterministicStream(state: 0x6C_A11E)
        for round in 0..<300 {
            let key = stream.bytes([16, 24, 32][round % 3])
            let nonce = stream.bytes(round % 5 == 0 ? 1 + Int(stream.next() % 40) : 12)
            let aad = stream.bytes(Int(stream.next() % 70))
            let plaintext = stream.bytes(Int(stream.next() % 600))
            let portable = try AESGCM(key: key, implementation: .portable)
            let hardware = try AESGCM(key: key, implementation: .hardware)
            let sealed = try portable.seal(plaintext, nonce: nonce, authenticating: aad)
            #expect(try hardware.seal(plaintext, nonce: nonce, authenticating: aad) == sealed, "round \(round)")
            #expect(try hardware.open(sealed, nonce: nonce, authenticating: aad) == plaintext, "round \(round)")
            // Random records mostly fail authentication, alike on both.
            let random = stream.bytes(Int(stream.next() % 100))
            let a = Result { () throws(AEADError) in try portable.open(random, nonce: nonce, authenticating: aad) }
            let b = Result { () throws(AEADError) in try hardware.open(random, nonce: nonce, authenticating: aad) }
            #expect(a == b, "round \(round)")
        }
    }

    @Test("The PCLMULQDQ GHASH equals the portable one on seeded random keys and lengths (4-block groups and the rest)",
          .enabled(if: GHASHKey(.zero, hardware: true).usesHardware, "no PCLMULQDQ on this machine or in this build"))
    func ghashHardwareMatchesPortable() {
        var stream = DeterministicStream(state: 0x6C_C1A5)
        for round in 0..<200 {
            let h = GHASHBlock(high: stream.next(), low: stream.next())
            let portable = GHASHKey(h)
            let hardware = GHASHKey(h, hardware: true)
            let data = stream.bytes(Int(stream.next() % 300))
            var a = GHASHBlock(high: stream.next(), low: stream.next())
            var b = a
            data.withUnsafeBufferPointer { bytes in
                portable.absorbPadded(&a, bytes)
                hardware.absorbPadded(&b, bytes)
            }
            #expect(!portable.usesHardware)
            #expect(a == b, "round \(round), \(data.count) bytes")
        }
    }
}
