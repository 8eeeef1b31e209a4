import Foundation
import Testing
import TackDER
import TackSignature
import TackTestSupport
import TackX509

/// One entry of Vectors/private-keys/manifest.json (see generate.py there).
struct PrivateKeyVector: Decodable, Sendable, CustomStringConvertible {
    let file: String
    let format: String
    let pem: Bool
    let algorithm: String?
    let bits: Int?
    let spki: String?
    let checked: Bool
    let error: String?

    var description: String { file }

    static func load() throws -> [PrivateKeyVector] {
        let data = try Data(contentsOf: RepositoryPaths.vectors("private-keys/manifest.json"))
        return try JSONDecoder().decode([PrivateKeyVector].self, from: data)
    }

    var keyFormat: PrivateKeyFormat {
        switch format {
        case "pkcs1": .pkcs1
        case "sec1": .sec1
        default: .pkcs8
        }
    }

    func read() throws -> PrivateKey {
        let bytes = try RepositoryPaths.vectorBytes("private-keys/" + file)
        if pem {
            let blocks = try PEM.parse(bytes, requiresBlock: true)
            let block = try #require(blocks.first)
            #expect(PrivateKey.format(forPEMLabel: block.label) == keyFormat)
            return try PrivateKey(pemBlock: block)
        }
        return try PrivateKey(derEncoded: bytes, format: keyFormat)
    }
}

@Suite("Private keys (PKCS #8, PKCS #1, SEC 1)")
struct PrivateKeyTests {
    static let vectors: [PrivateKeyVector] = (try? PrivateKeyVector.load()) ?? []

    @Test("The manifest is present and covers valid and invalid keys")
    func manifestLoads() {
        #expect(Self.vectors.count >= 60)
        #expect(Self.vectors.contains { $0.error == nil } && Self.vectors.contains { $0.error != nil })
    }

    @Test("Valid keys read, check, and give cryptography's SubjectPublicKeyInfo",
          arguments: vectors.filter { $0.error == nil })
    func valid(vector: PrivateKeyVector) throws {
        let key = try vector.read()
        #expect(key.algorithm.description == vector.algorithm)
        #expect(key.keySizeInBits == vector.bits)
        #expect(key.format == vector.keyFormat)
        #expect(key.isChecked == vector.checked)
        if let spki = vector.spki {
            let info = try #require(key.publicKeyInfo)
            #expect(hexString(info.derEncoded) == spki)
        } else {
            #expect(key.publicKeyInfo == nil)
        }
        if vector.checked {
            let info = try key.checkedPublicKeyInfo()
            #expect(SPKIPin(info) == SPKIPin(spkiDER: try #require(key.publicKeyInfo).derEncoded))
        } else {
            #expect(throws: PrivateKeyError.self) { try key.checkedPublicKeyInfo() }
            do { _ = try key.checkedPublicKeyInfo() } catch {
                #expect(error.code == "private_key.public_key_not_derivable")
            }
        }
    }

    @Test("Invalid keys throw the manifest's error code", arguments: vectors.filter { $0.error != nil })
    func invalid(vector: PrivateKeyVector) throws {
        do {
            let key = try vector.read()
            Issue.record("\(vector.file) was read as \(key)")
        } catch let error as PrivateKeyError {
            #expect(error.code == vector.error)
        }
    }

    @Test("No description or debug description shows key material")
    func descriptionsHideSecrets() throws {
        for vector in Self.vectors where vector.error == nil {
            let key = try vector.read()
            var secret: [UInt8] = []
            key.withPrivateKeyBytes { span in
                for index in span.indices { secret.append(span[index]) }
            }
            #expect(secret.count >= 32)
            let texts = [key.description, key.debugDescription, String(describing: key), String(reflecting: key)]
            // Any 8 consecutive secret bytes, as hex in either case, or the decimal bytes.
            let hex = hexString(secret)
            for text in texts {
                #expect(text.hasSuffix(")"))
                let lower = text.lowercased()
                for start in stride(from: 0, to: hex.count - 16, by: 16) {
                    let window = hex.dropFirst(start).prefix(16)
                    #expect(!lower.contains(window))
                }
                #expect(!text.contains(secret.prefix(4).map(String.init).joined(separator: ", ")))
            }
        }
    }

    @Test("The scoped accessor hands out the documented form")
    func accessorForms() throws {
        let rsa = try #require(Self.vectors.first { $0.file == "rsa2048-e65537.pk1.der" })
        let rsaBytes = try RepositoryPaths.vectorBytes("private-keys/" + rsa.file)
        let key = try rsa.read()
        key.withPrivateKeyBytes { span in
            #expect(span.count == rsaBytes.count)
            #expect(span[0] == 0x30)
        }
        let ec = try #require(Self.vectors.first { $0.file == "p521.sec1.der" })
        try ec.read().withPrivateKeyBytes { span in #expect(span.count == 66) }
        let ed = try #require(Self.vectors.first { $0.file == "ed25519.pk8.der" })
        try ed.read().withPrivateKeyBytes { span in #expect(span.count == 32) }
    }

    @Test("RFC 8032 §7.1 TEST 1: the seed derives its public key")
    func ed25519Derivation() throws {
        let seed = hexBytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
        let der: [UInt8] = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70,
                            0x04, 0x22, 0x04, 0x20] + seed
        let key = try PrivateKey(derEncoded: der)
        let info = try key.checkedPublicKeyInfo()
        #expect(hexString(info.rawKey) == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    }

    @Test("Every truncation of a key is an error, never a trap")
    func truncations() throws {
        for name in ["rsa2048-e65537.pk8.der", "p384.sec1.der", "ed25519-v2.pk8.der", "p256.pk8.der"] {
            let bytes = try RepositoryPaths.vectorBytes("private-keys/" + name)
            let format: PrivateKeyFormat = name.contains("sec1") ? .sec1 : .pkcs8
            for length in 0..<bytes.count {
                #expect(throws: PrivateKeyError.self) {
                    try PrivateKey(derEncoded: Array(bytes[0..<length]), format: format)
                }
            }
        }
    }

    @Test("Offsets point at the offending element")
    func offsets() throws {
        // ENCRYPTED PRIVATE KEY and other labels are named.
        #expect(throws: PrivateKeyError(.encrypted, at: 0)) {
            try PrivateKey(pemBlock: PEMBlock(label: "ENCRYPTED PRIVATE KEY", bytes: [0x30, 0x00]))
        }
        #expect(throws: PrivateKeyError(.unexpectedPEMLabel("CERTIFICATE"), at: 0)) {
            try PrivateKey(pemBlock: PEMBlock(label: "CERTIFICATE", bytes: [0x30, 0x00]))
        }
        // A PKCS #8 version 3 at byte 2 (the INTEGER after the SEQUENCE header).
        let bytes = try RepositoryPaths.vectorBytes("private-keys/ed25519-bad-version.pk8.der")
        #expect(throws: PrivateKeyError(.unsupportedVersion(2), at: 2)) { try PrivateKey(derEncoded: bytes) }
        // A wrapped DER error keeps its reason and offset.
        #expect(throws: PrivateKeyError(.der(.truncated), at: 0)) { try PrivateKey(derEncoded: [0x30]) }
    }
}
