import Foundation
import Testing

import TackDigest
import TackSignature
import TackTestSupport

/// Runs Vectors/signatures/rsa/signatures.json (made by generate.py there).
@Suite("RSA signature vectors")
struct RSAVectorTests {
    struct KeyVectors: CustomTestStringConvertible, Sendable {
        let name: String
        let modulus: [UInt8]
        let exponent: UInt64
        let pkcs1DER: [UInt8]
        let cases: [Case]
        var testDescription: String { name }
    }

    struct Case: Sendable {
        let scheme: String
        let hash: DigestAlgorithm
        let mgf1Hash: DigestAlgorithm
        let saltLength: Int
        let message: [UInt8]
        let digest: [UInt8]
        let signature: [UInt8]
        let valid: Bool
        let comment: String
    }

    static func hash(named name: String) throws -> DigestAlgorithm {
        switch name {
        case "sha224": .sha224
        case "sha256": .sha256
        case "sha384": .sha384
        case "sha512": .sha512
        default: throw CocoaError(.formatting)
        }
    }

    static func loadKeys() throws -> [KeyVectors] {
        let url = RSATestSupport.vectorDirectory.appendingPathComponent("signatures.json")
        let root = try #require(RSATestSupport.loadJSON(url) as? [String: Any])
        let keys = try #require(root["keys"] as? [String: [String: Any]])
        let cases = try #require(root["cases"] as? [[String: Any]])
        return try keys.keys.sorted().map { name in
            let key = try #require(keys[name])
            let keyCases = try cases.filter { ($0["key"] as? String) == name }.map { c in
                let hashName = try #require(c["hash"] as? String)
                return Case(
                    scheme: try #require(c["scheme"] as? String),
                    hash: try hash(named: hashName),
                    mgf1Hash: try hash(named: (c["mgf1Hash"] as? String) ?? hashName),
                    saltLength: (c["saltLength"] as? Int) ?? 0,
                    message: hexBytes(try #require(c["msg"] as? String)),
                    digest: hexBytes(try #require(c["digest"] as? String)),
                    signature: hexBytes(try #require(c["sig"] as? String)),
                    valid: try #require(c["valid"] as? Bool),
                    comment: try #require(c["comment"] as? String)
                )
            }
            return KeyVectors(
                name: name,
                modulus: hexBytes(try #require(key["n"] as? String)),
                exponent: UInt64(try #require(key["e"] as? Int)),
                pkcs1DER: hexBytes(try #require(key["pkcs1Der"] as? String)),
                cases: keyCases
            )
        }
    }

    /// Verifies one case through the message or the digest entry point.
    static func verify(_ c: Case, key: RSAPublicKey, viaDigest: Bool) throws(SignatureError) {
        if c.scheme == "pkcs1v15" {
            if viaDigest {
                try key.verifyPKCS1v15Signature(c.signature, forDigest: c.digest, hash: c.hash)
            } else {
                try key.verifyPKCS1v15Signature(c.signature, for: c.message, hash: c.hash)
            }
        } else {
            let parameters = try PSSParameters(hash: c.hash, mgf1Hash: c.mgf1Hash, saltLength: c.saltLength)
            if viaDigest {
                try key.verifyPSSSignature(c.signature, forDigest: c.digest, parameters: parameters)
            } else {
                try key.verifyPSSSignature(c.signature, for: c.message, parameters: parameters)
            }
        }
    }

    @Test("Every vector verifies or fails as generated, via message and via digest", arguments: try loadKeys())
    func vectors(_ key: KeyVectors) throws {
        let parsed = try RSAPublicKey(pkcs1DER: key.pkcs1DER)
        let raw = try RSAPublicKey(modulus: key.modulus, exponent: key.exponent)
        #expect(parsed == raw)
        #expect(parsed.modulusBitCount == Int(key.name.dropFirst(3).prefix(while: \.isNumber)))
        #expect(!key.cases.isEmpty)
        var validCount = 0
        for c in key.cases {
            for viaDigest in [false, true] {
                var outcome: SignatureError? = nil
                do {
                    try Self.verify(c, key: parsed, viaDigest: viaDigest)
                } catch {
                    outcome = error
                }
                if c.valid {
                    #expect(outcome == nil, "\(key.name): \(c.comment)")
                } else {
                    #expect(outcome != nil, "\(key.name): \(c.comment)")
                }
            }
            if c.valid { validCount += 1 }
        }
        // Keys with a flipped modulus bit have only failing cases.
        #expect(key.name.hasSuffix("-flipped") ? validCount == 0 : validCount >= 6)
    }

    @Test("Corrupted signatures fail with invalidSignature, wrong lengths and s ≥ n with malformedSignature")
    func errorNames() throws {
        let keys = try Self.loadKeys()
        let key = try #require(keys.first { $0.name == "rsa2048" })
        let publicKey = try RSAPublicKey(modulus: key.modulus, exponent: key.exponent)
        let good = try #require(key.cases.first { $0.valid && $0.scheme == "pkcs1v15" && $0.hash == .sha256 })
        var flipped = good.signature
        flipped[17] ^= 0x01
        #expect(throws: SignatureError.invalidSignature) {
            try publicKey.verifyPKCS1v15Signature(flipped, for: good.message, hash: .sha256)
        }
        #expect(throws: SignatureError.malformedSignature(.wrongLength(expected: 256, found: 255))) {
            try publicKey.verifyPKCS1v15Signature(good.signature.dropFirst(), for: good.message, hash: .sha256)
        }
        #expect(throws: SignatureError.malformedSignature(.representativeOutOfRange)) {
            try publicKey.verifyPKCS1v15Signature(key.modulus, for: good.message, hash: .sha256)
        }
        #expect(throws: SignatureError.invalidParameters(.digestLengthMismatch)) {
            try publicKey.verifyPKCS1v15Signature(good.signature, forDigest: good.digest, hash: .sha384)
        }
        // The same signature, handed over as a non-contiguous collection.
        try publicKey.verifyPKCS1v15Signature(good.signature.lazy.map { $0 }, for: good.message.lazy.map { $0 }, hash: .sha256)
    }
}
