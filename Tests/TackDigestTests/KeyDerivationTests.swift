import Foundation
import TackTestSupport
import Testing

@testable import TackDigest

/// The shared Wycheproof primitive files (`../shared/vectors/wycheproof-primitives`),
/// read in place: every test group's tests as dictionaries.
enum PrimitiveVectors {
    static let folder = RepositoryPaths.sharedVectors("wycheproof-primitives")
    /// Runs when the folder is present, and always under CI=true (where a missing
    /// folder then fails).
    static let runs = VectorAvailability.runs(needing: folder)

    /// The hex field `name` of a test, decoded.
    static func bytes(_ test: [String: Any], _ name: String) throws -> [UInt8] {
        let text = try #require(test[name] as? String, "field \(name)")
        return try #require(hexBytesIfValid(text), "field \(name) is not hex")
    }

    static func groups(_ name: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["testGroups"] as? [[String: Any]])
    }
}

@Suite("HMAC over every hash")
struct HMACEveryHashTests {
    /// RFC 2202 §3, HMAC-SHA-1 test cases 1 to 7.
    static let rfc2202: [(key: String, data: [UInt8], code: String)] = [
        (String(repeating: "0b", count: 20), Array("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00"),
        ("4a656665", Array("what do ya want for nothing?".utf8), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        (String(repeating: "aa", count: 20), [UInt8](repeating: 0xdd, count: 50), "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        ("0102030405060708090a0b0c0d0e0f10111213141516171819", [UInt8](repeating: 0xcd, count: 50),
         "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        (String(repeating: "0c", count: 20), Array("Test With Truncation".utf8), "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"),
        (String(repeating: "aa", count: 80), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        (String(repeating: "aa", count: 80),
         Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
         "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
    ]

    @Test("RFC 2202 HMAC-SHA-1, generic and through DigestAlgorithm")
    func rfc2202() throws {
        for (number, testCase) in Self.rfc2202.enumerated() {
            let key = try #require(hexBytesIfValid(testCase.key))
            #expect(HMAC<SHA1>.authenticationCode(for: testCase.data, key: key).hexString == testCase.code, "case \(number + 1)")
            #expect(hexString(try DigestAlgorithm.sha1.authenticationCode(for: testCase.data, key: key)) == testCase.code)
        }
    }

    /// RFC 4231 cases 2 and 6 for SHA-512/224 and SHA-512/256, which the RFC does
    /// not cover: answers from Python's hmac module (hashlib sha512_224/sha512_256).
    @Test("HMAC-SHA-512/224 and HMAC-SHA-512/256 (RFC 4231 cases 2 and 6's inputs)")
    func sha512t() throws {
        let case2 = RFC4231Case.all[1]
        let case6 = RFC4231Case.all[5]
        func code(_ hash: DigestAlgorithm, _ testCase: RFC4231Case) throws -> String {
            hexString(try hash.authenticationCode(
                for: try #require(hexBytesIfValid(testCase.data)), key: try #require(hexBytesIfValid(testCase.key))))
        }
        #expect(try code(.sha512_224, case2) == "4a530b31a79ebcce36916546317c45f247d83241dfb818fd37254bde")
        #expect(try code(.sha512_224, case6) == "29bef8ce88b54d4226c3c7718ea9e32ace2429026f089e38cea9aeda")
        #expect(try code(.sha512_256, case2) == "6df7b24630d5ccb2ee335407081a87188c221489768fa2020513b2d593359456")
        #expect(try code(.sha512_256, case6) == "87123c45f7c537a404f8f47cdbedda1fc9bec60eeb971982ce7ef10e774e6539")
        #expect(try code(.sha224, case2) == case2.sha224)
        #expect(try code(.sha384, case6) == case6.sha384)
    }

    @Test("MD5 is refused by value, with its code")
    func md5Refused() {
        #expect(throws: HashError.unsupportedDigest(.md5)) { try DigestAlgorithm.md5.authenticationCode(for: [], key: []) }
        #expect(HashError.unsupportedDigest(.md5).code == "unsupported_digest")
        #expect(!DigestAlgorithm.md5.isComputable && DigestAlgorithm.sha1.isComputable)
    }

    @Test("Wycheproof hmac_sha{1,256,384,512}: valid tags match, invalid ones do not",
          .enabled(if: PrimitiveVectors.runs, "../shared/vectors/wycheproof-primitives is missing"),
          arguments: [("hmac_sha1_test.json", DigestAlgorithm.sha1), ("hmac_sha256_test.json", .sha256),
                      ("hmac_sha384_test.json", .sha384), ("hmac_sha512_test.json", .sha512)])
    func wycheproof(file: String, hash: DigestAlgorithm) throws {
        var counted = 0
        for group in try PrimitiveVectors.groups(file) {
            let tagBytes = try #require(group["tagSize"] as? Int) / 8
            for test in try #require(group["tests"] as? [[String: Any]]) {
                let key = try PrimitiveVectors.bytes(test, "key")
                let message = try PrimitiveVectors.bytes(test, "msg")
                let tag = try PrimitiveVectors.bytes(test, "tag")
                let valid = try #require(test["result"] as? String) == "valid"
                let code = try hash.authenticationCode(for: message, key: key)
                let matches = tag.count == tagBytes && Array(code.prefix(tagBytes)) == tag
                #expect(matches == valid, "\(file) tcId \(test["tcId"] ?? "?")")
                counted += 1
            }
        }
        #expect(counted > 100)
    }
}

@Suite("PBKDF2")
struct PBKDF2Tests {
    /// RFC 6070 §2, PBKDF2-HMAC-SHA1 (the 2^24-iteration case runs from Wycheproof).
    @Test("RFC 6070 test vectors")
    func rfc6070() throws {
        func derive(_ password: String, _ salt: String, _ count: Int, _ length: Int) throws -> String {
            hexString(try PBKDF2.deriveKey(
                password: Array(password.utf8), salt: Array(salt.utf8), iterationCount: count, keyByteCount: length,
                hash: .sha1))
        }
        #expect(try derive("password", "salt", 1, 20) == "0c60c80f961f0e71f3a9b524af6012062fe037a6")
        #expect(try derive("password", "salt", 2, 20) == "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957")
        #expect(try derive("password", "salt", 4096, 20) == "4b007901b765489abead49d926f721d065a429c1")
        #expect(
            try derive("passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, 25)
                == "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038")
        #expect(try derive("pass\0word", "sa\0lt", 4096, 16) == "56fa6aa75548099dcc37d7f03425e0c3")
    }

    /// The definition, written with the general HMAC: what the fast iteration
    /// path inside PBKDF2 is held to.
    static func reference<H: HashFunction>(_: H.Type, _ password: [UInt8], _ salt: [UInt8], _ count: Int, _ length: Int)
        -> [UInt8]
    {
        var output: [UInt8] = []
        var index: UInt32 = 1
        while output.count < length {
            var u = Array(HMAC<H>.authenticationCode(for: salt + withUnsafeBytes(of: index.bigEndian, Array.init), key: password))
            var t = u
            for _ in 1..<count {
                u = Array(HMAC<H>.authenticationCode(for: u, key: password))
                for i in t.indices { t[i] ^= u[i] }
            }
            output += t
            index += 1
        }
        return Array(output.prefix(length))
    }

    @Test("The fast iteration path equals the HMAC definition, every hash, seeded random inputs",
          arguments: [1, 2] as [UInt64])
    func differential(seed: UInt64) throws {
        var stream = DeterministicStream(state: seed)
        func bytes(_ limit: UInt64) -> [UInt8] { (0..<Int(stream.next() % limit)).map { _ in UInt8(truncatingIfNeeded: stream.next()) } }
        for hash in DigestAlgorithm.allCases where hash.isComputable {
            for _ in 0..<3 {
                let password = bytes(150)
                let salt = bytes(40)
                let count = Int(stream.next() % 40) + 1
                let length = Int(stream.next() % 150)
                let derived = try PBKDF2.deriveKey(
                    password: password, salt: salt, iterationCount: count, keyByteCount: length, hash: hash)
                let expected: [UInt8] = switch hash {
                case .sha1: Self.reference(SHA1.self, password, salt, count, length)
                case .sha224: Self.reference(SHA224.self, password, salt, count, length)
                case .sha256: Self.reference(SHA256.self, password, salt, count, length)
                case .sha384: Self.reference(SHA384.self, password, salt, count, length)
                case .sha512: Self.reference(SHA512.self, password, salt, count, length)
                case .sha512_224: Self.reference(SHA512_224.self, password, salt, count, length)
                case .sha512_256: Self.reference(SHA512_256.self, password, salt, count, length)
                case .md5: []
                }
                #expect(derived == expected, "\(hash) count \(count) length \(length)")
            }
        }
    }

    @Test("Iteration and length limits are typed errors")
    func limits() {
        #expect(throws: HashError.iterationCountNotPositive(0)) {
            try PBKDF2.deriveKey(password: [], salt: [], iterationCount: 0, keyByteCount: 16, hash: .sha256)
        }
        #expect(throws: HashError.iterationCountAboveLimit(count: 1 << 31, limit: PBKDF2.defaultMaximumIterationCount)) {
            try PBKDF2.deriveKey(password: [], salt: [], iterationCount: 1 << 31, keyByteCount: 16, hash: .sha256)
        }
        #expect(throws: HashError.iterationCountAboveLimit(count: 1001, limit: 1000)) {
            try PBKDF2.deriveKey(
                password: [], salt: [], iterationCount: 1001, keyByteCount: 16, hash: .sha1, maximumIterationCount: 1000)
        }
        #expect(throws: HashError.keyByteCountOutOfRange(count: 1025, limit: 1024)) {
            try PBKDF2.deriveKey(password: [], salt: [], iterationCount: 1, keyByteCount: 1025, hash: .sha1)
        }
        #expect(throws: HashError.unsupportedDigest(.md5)) {
            try PBKDF2.deriveKey(password: [], salt: [], iterationCount: 1, keyByteCount: 16, hash: .md5)
        }
        // The description names counts, never the password.
        #expect(HashError.iterationCountAboveLimit(count: 5, limit: 4).description == "iteration count 5 exceeds the limit of 4")
    }

    /// Counts above this run only in release builds' speed; the 2^24-iteration RFC 6070
    /// case is counted, not silently dropped.
    static let largestIterationCountRun = 100_000

    @Test("Wycheproof pbkdf2_hmacsha{1,256,512}",
          .enabled(if: PrimitiveVectors.runs, "../shared/vectors/wycheproof-primitives is missing"),
          arguments: [("pbkdf2_hmacsha1_test.json", DigestAlgorithm.sha1, 1), ("pbkdf2_hmacsha256_test.json", .sha256, 0),
                      ("pbkdf2_hmacsha512_test.json", .sha512, 0)])
    func wycheproof(file: String, hash: DigestAlgorithm, expectedSkips: Int) throws {
        var (checked, skipped) = (0, 0)
        for group in try PrimitiveVectors.groups(file) {
            for test in try #require(group["tests"] as? [[String: Any]]) {
                let count = try #require(test["iterationCount"] as? Int)
                guard count <= Self.largestIterationCountRun else {
                    skipped += 1
                    continue
                }
                let derived = try PBKDF2.deriveKey(
                    password: try PrimitiveVectors.bytes(test, "password"),
                    salt: try PrimitiveVectors.bytes(test, "salt"),
                    iterationCount: count, keyByteCount: try #require(test["dkLen"] as? Int), hash: hash)
                let expected = try PrimitiveVectors.bytes(test, "dk")
                #expect((derived == expected) == (test["result"] as? String == "valid"), "\(file) tcId \(test["tcId"] ?? "?")")
                checked += 1
            }
        }
        #expect(checked > 10)
        #expect(skipped == expectedSkips, "only RFC 6070's 2^24-iteration case is left to release runs")
    }
}

@Suite("PKCS #12 key derivation")
struct PKCS12KeyDerivationTests {
    static let digests: [String: DigestAlgorithm] = [
        "sha1": .sha1, "sha224": .sha224, "sha256": .sha256, "sha384": .sha384, "sha512": .sha512,
        "sha512_224": .sha512_224, "sha512_256": .sha512_256,
    ]

    @Test("Vectors/pkcs12-kdf: 126 OpenSSL PKCS12KDF answers, every hash and ID")
    func openSSLVectors() throws {
        let text = try String(contentsOf: RepositoryPaths.vectors("pkcs12-kdf/vectors.txt"), encoding: .utf8)
        let records = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").map(String.init) }
        #expect(records.count == 126)
        for record in records {
            try #require(record.count == 7)
            let hash = try #require(Self.digests[record[0]])
            let purpose = try #require(UInt8(record[1]).flatMap(PKCS12KeyDerivation.Purpose.init(rawValue:)))
            let password: String? = switch record[4] {
            case "absent": nil
            case "-": ""
            default: String(decoding: try #require(hexBytesIfValid(record[4])), as: UTF8.self)
            }
            let key = try PKCS12KeyDerivation.deriveKey(
                password: PKCS12KeyDerivation.passwordBytes(password),
                salt: record[5] == "-" ? [] : try #require(hexBytesIfValid(record[5])),
                purpose: purpose, iterationCount: try #require(Int(record[2])), keyByteCount: try #require(Int(record[3])),
                hash: hash)
            #expect(hexString(key) == (record[6] == "-" ? "" : record[6]), "\(record[0]) id \(record[1]) \(record[2])")
        }
    }

    @Test("The published SHA-1 vector (password \"smeg\", ID 1, 24 bytes) and the BMPString encoding")
    func classicVectorAndEncoding() throws {
        let password = PKCS12KeyDerivation.passwordBytes("smeg")
        #expect(password == [0, 0x73, 0, 0x6d, 0, 0x65, 0, 0x67, 0, 0])
        let key = try PKCS12KeyDerivation.deriveKey(
            password: password, salt: try #require(hexBytesIfValid("0a58cf64530d823f")), purpose: .key,
            iterationCount: 1, keyByteCount: 24, hash: .sha1)
        #expect(hexString(key) == "8aaae6297b6cb04642ab5b077851284eb7128f1a2a7fbca3")
        #expect(PKCS12KeyDerivation.passwordBytes(nil) == [])
        #expect(PKCS12KeyDerivation.passwordBytes("") == [0, 0])
        // U+1F511 outside the BMP: a surrogate pair, as OpenSSL writes it.
        #expect(PKCS12KeyDerivation.passwordBytes("\u{1F511}") == [0xd8, 0x3d, 0xdd, 0x11, 0, 0])
    }

    @Test("Iteration cap and limits are typed errors")
    func limits() {
        #expect(throws: HashError.iterationCountAboveLimit(count: 1 << 31, limit: PKCS12KeyDerivation.defaultMaximumIterationCount)) {
            try PKCS12KeyDerivation.deriveKey(
                password: [0, 0], salt: [1], purpose: .mac, iterationCount: 1 << 31, keyByteCount: 20, hash: .sha1)
        }
        #expect(throws: HashError.iterationCountNotPositive(-1)) {
            try PKCS12KeyDerivation.deriveKey(
                password: [0, 0], salt: [1], purpose: .mac, iterationCount: -1, keyByteCount: 20, hash: .sha1)
        }
        #expect(throws: HashError.keyByteCountOutOfRange(count: -1, limit: 1024)) {
            try PKCS12KeyDerivation.deriveKey(
                password: [0, 0], salt: [1], purpose: .key, iterationCount: 1, keyByteCount: -1, hash: .sha256)
        }
        #expect(throws: HashError.unsupportedDigest(.md5)) {
            try PKCS12KeyDerivation.deriveKey(
                password: [0, 0], salt: [1], purpose: .initializationVector, iterationCount: 1, keyByteCount: 8, hash: .md5)
        }
    }
}
