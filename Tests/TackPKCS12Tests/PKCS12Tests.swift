import Foundation
import Testing
import TackDER
import TackSignature
import TackTestSupport
import TackX509
@testable import TackPKCS12

/// One entry of Vectors/pkcs12/manifest.json (see generate.py there).
struct PKCS12Vector: Decodable, Sendable, CustomStringConvertible {
    struct CertificateReading: Decodable, Sendable {
        let sha256: String
        let friendly_name: String?
    }
    struct CryptographyReading: Decodable, Sendable {
        let error: String?
        let key_spki_sha256: String?
        let certificates: [CertificateReading]?
    }
    let file: String
    let passphrase: String?
    let generator: String
    let reads_without_mac: Bool
    let tack: String
    let cryptography: CryptographyReading

    var description: String { file }

    static func load() throws -> [PKCS12Vector] {
        let data = try Data(contentsOf: RepositoryPaths.vectors("pkcs12/manifest.json"))
        return try JSONDecoder().decode([PKCS12Vector].self, from: data)
    }

    func bytes() throws -> [UInt8] { try RepositoryPaths.vectorBytes("pkcs12/" + file) }

    func read(cryptography: PKCS12Cryptography = .standard) throws -> PKCS12File {
        var options = PKCS12Options()
        options.readsFilesWithoutMAC = reads_without_mac
        return try PKCS12Reader(options: options, cryptography: cryptography).read(try bytes(), passphrase: passphrase)
    }
}

func sha256Hex(_ certificate: Certificate) -> String { CertificateFingerprint(certificate).hex }

func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
}

@Suite("PKCS #12")
struct PKCS12Tests {
    static let vectors: [PKCS12Vector] = (try? PKCS12Vector.load()) ?? []
    static func vector(_ name: String) throws -> PKCS12Vector {
        try #require(vectors.first { $0.file == name })
    }

    @Test("The manifest is present")
    func manifestLoads() {
        #expect(Self.vectors.count >= 30)
    }

    @Test("Each file reads as the manifest says, and as cryptography reads it", arguments: vectors)
    func manifest(vector: PKCS12Vector) throws {
        guard vector.tack == "read" else {
            do {
                let file = try vector.read()
                Issue.record("\(vector.file) was read: \(file.certificates.count) certificates")
            } catch let error as PKCS12Error {
                #expect(error.code == vector.tack)
            }
            return
        }
        let file = try vector.read()
        if vector.reads_without_mac {
            #expect(file.mac == nil)
            #expect(file.warnings.contains(.noMAC))
        } else {
            #expect(file.mac != nil)
            #expect(!file.warnings.contains(.noMAC))
        }
        guard let certificates = vector.cryptography.certificates else {
            Issue.record("cryptography could not read \(vector.file): \(vector.cryptography.error ?? "")")
            return
        }
        // Every certificate cryptography reads, with its friendly name.
        let ours = Dictionary(file.certificates.map { (sha256Hex($0.certificate), $0.attributes.friendlyName) },
                              uniquingKeysWith: { first, _ in first })
        #expect(Set(ours.keys) == Set(certificates.map(\.sha256)))
        for certificate in certificates {
            // Known divergence (README): OpenSSL 3.0, under cryptography, drops a
            // friendlyName with characters beyond the BMP (surrogate pairs); Tack reads it.
            if certificate.friendly_name == nil, let name = ours[certificate.sha256] ?? nil,
               name.unicodeScalars.contains(where: { $0.value > 0xFFFF }) {
                continue
            }
            #expect(ours[certificate.sha256] == .some(certificate.friendly_name))
        }
        if let keySPKI = vector.cryptography.key_spki_sha256 {
            #expect(file.keys.contains { $0.key.publicKeyInfo.map { SPKIPin($0).hex } == keySPKI })
            // The key cryptography reads is paired with a certificate of the same public key
            // (unless the file pairs it by localKeyID with another key's certificate,
            // which Tack refuses to pair: assembled-key-id-mismatch.p12).
            let mismatched = file.warnings.contains { if case .localKeyIDMismatch = $0 { true } else { false } }
            #expect(mismatched || file.identities.contains { identity in
                identity.spkiPin.hex == keySPKI
                    && file.keys[identity.keyIndex].key.publicKeyInfo.map { SPKIPin($0).hex } == keySPKI
            })
            // Every identity has its key ID: SHA-1 of the subjectPublicKey bits.
            #expect(file.identities.allSatisfy { $0.keyID?.count == 20 })
        } else {
            #expect(file.keys.isEmpty)
        }
    }

    @Test("OpenSSL's unencrypted file: one identity, its chain's CA without a key")
    func openSSLIdentity() throws {
        let file = try Self.vector("openssl-rsa-plain.p12").read()
        #expect(file.identities.count == 1)
        let identity = try #require(file.identities.first)
        #expect(identity.match == .localKeyIDAndPublicKey)
        // SHA-1 of the subjectPublicKey bits, as cryptography's
        // SubjectKeyIdentifier.from_public_key computes it for rsa-leaf.pem.
        #expect(identity.keyID.map(hex) == "2781b050daf83331e7fb524b142e5c1ece0c1b64")
        let leaf = file.certificates[identity.certificateIndex]
        #expect(leaf.attributes.friendlyName == "Alice")
        #expect(leaf.attributes.localKeyID != nil)
        #expect(identity.spkiPin == SPKIPin(leaf.certificate))
        #expect(file.certificatesWithoutKey.count == 1)
        #expect(file.keysWithoutCertificate.isEmpty)
        #expect(file.contents == [.none, .none])
    }

    @Test("Three identities, Unicode names, DER and BER alike", arguments: [false, true])
    func threeIdentities(ber: Bool) throws {
        let file = try Self.vector("assembled-three-identities\(ber ? "-ber" : "").p12").read()
        #expect(file.isBER == ber)
        #expect(file.identities.count == 3)
        #expect(file.identities.allSatisfy { $0.match == .localKeyIDAndPublicKey })
        let names = file.identities.map { file.certificates[$0.certificateIndex].attributes.friendlyName }
        #expect(names == ["Ärger", "𝄞 music", "名前"])
        #expect(file.keys.map { $0.key.algorithm } == [.rsa, .ec(.p256), .ed25519])
        #expect(file.certificatesWithoutKey == [3])
    }

    @Test("Nested safeContentsBags, secret and CRL bags, unknown attributes")
    func nestedBags() throws {
        let file = try Self.vector("assembled-nested-bags.p12").read()
        #expect(file.keys.count == 1)
        #expect(file.identities.first?.match == .publicKey)
        #expect(file.unopenedBags == [.secret(OID(1, 2, 3, 4)), .crl(file.unopenedBags.last.flatMap {
            if case .crl(let bytes) = $0 { bytes } else { nil }
        } ?? [])])
        #expect(file.warnings.contains(.unknownAttribute(OID(1, 3, 6, 1, 4, 1, 311, 17, 1))))
        #expect(file.warnings.contains(.unopenedBag(.secret(OID(1, 2, 3, 4)))))
    }

    @Test("A localKeyID shared by a key and another key's certificate is said, not paired")
    func keyIDMismatch() throws {
        let file = try Self.vector("assembled-key-id-mismatch.p12").read()
        #expect(file.identities.isEmpty)
        #expect(file.warnings.contains(.localKeyIDMismatch(keyIndex: 0, certificateIndex: 0)))
        #expect(file.keysWithoutCertificate == [0])
    }

    @Test("Every truncation of a small file is an error, never a trap",
          arguments: ["openssl-ed25519-plain.p12", "assembled-three-identities-ber.p12"])
    func truncations(name: String) throws {
        let vector = try Self.vector(name)
        let bytes = try vector.bytes()
        var options = PKCS12Options()
        options.readsFilesWithoutMAC = true
        for length in 0..<bytes.count {
            #expect(throws: PKCS12Error.self) {
                try PKCS12File(berEncoded: Array(bytes[0..<length]), passphrase: nil, options: options)
            }
        }
    }

    @Test("BER bombs stop at their limits")
    func berBombs() throws {
        // 100,000 nested indefinite SEQUENCEs.
        let deep: [UInt8] = (0..<200_000).map { $0 % 2 == 0 ? 0x30 : 0x80 }
        #expect(throws: PKCS12Error(.ber(.nestingTooDeep), at: 64, in: .file)) {
            try PKCS12File(berEncoded: deep, passphrase: nil)
        }
        // A constructed OCTET STRING of many empty segments.
        let segments = [UInt8]([0x24, 0x80]) + [UInt8](repeating: 0, count: 0).reduce(into: []) { _, _ in }
            + Array([[UInt8]](repeating: [0x04, 0x00], count: 20).joined()) + [0x00, 0x00]
        let document = try BERDocument(segments, limits: BERLimits(maximumSegmentCount: 10))
        #expect(document.isBER)
        #expect(throws: BERError(.tooManySegments, at: 22)) { try document.octets(0) }
        #expect(throws: BERError(.tooManyElements, at: 8)) {
            try BERDocument(segments, limits: BERLimits(maximumElementCount: 4))
        }
        // End-of-contents where no indefinite length is open, and a primitive indefinite.
        #expect(throws: BERError(.unexpectedEndOfContents, at: 2)) { try BERDocument([0x30, 0x02, 0x00, 0x00], limits: BERLimits()) }
        #expect(throws: BERError(.indefinitePrimitive, at: 0)) { try BERDocument([0x04, 0x80, 0x00, 0x00], limits: BERLimits()) }
        #expect(throws: BERError(.missingEndOfContents, at: 2)) { try BERDocument([0x30, 0x80], limits: BERLimits()) }
        #expect(throws: BERError(.trailingData, at: 2)) { try BERDocument([0x05, 0x00, 0x05], limits: BERLimits()) }
        // Non-minimal lengths are BER, not DER.
        #expect(try BERDocument([0x04, 0x81, 0x01, 0xAA], limits: BERLimits()).isBER)
        #expect(try !BERDocument([0x04, 0x01, 0xAA], limits: BERLimits()).isBER)
    }

    @Test("The size, bag and depth limits are enforced")
    func limits() throws {
        let vector = try Self.vector("assembled-three-identities.p12")
        let bytes = try vector.bytes()
        var options = PKCS12Options()
        options.readsFilesWithoutMAC = true
        options.maximumFileSize = bytes.count - 1
        #expect(throws: PKCS12Error(.fileTooLarge(limit: bytes.count - 1), at: 0, in: .file)) {
            try PKCS12File(berEncoded: bytes, passphrase: nil, options: options)
        }
        options.maximumFileSize = bytes.count
        options.maximumBagCount = 6
        do {
            _ = try PKCS12File(berEncoded: bytes, passphrase: nil, options: options)
            Issue.record("seven bags read with a limit of six")
        } catch {
            #expect(error.code == "pkcs12.too_many_bags")
            #expect(error.layer == .safeContents(index: 1))
        }
        options.maximumBagCount = 7
        #expect(try PKCS12File(berEncoded: bytes, passphrase: nil, options: options).keys.count == 3)
    }

    // MARK: The cryptography seam

    /// A stand-in for the primitives: the MAC is "ok" under `good`, and decryption
    /// returns `plaintext` under `good` and bad padding otherwise.
    static func fake(good: PKCS12Passphrase, plaintext: [UInt8]?) -> PKCS12Cryptography {
        PKCS12Cryptography(
            computeMAC: { scheme, passphrase, _ in passphrase == good ? scheme.digest : [0] },
            decrypt: { _, passphrase, _ in
                guard passphrase == good, let plaintext else { return .badPadding }
                return .plaintext(plaintext)
            },
            sha1: { _ in [UInt8](repeating: 0xAB, count: 20) })
    }

    @Test("A wrong passphrase is told apart; the empty and absent passphrases are both tried")
    func passphrases() throws {
        let vector = try Self.vector("openssl-rsa-default.p12")
        let bytes = try vector.bytes()
        let reader = PKCS12Reader(options: PKCS12Options(), cryptography: Self.fake(good: .text("other"), plaintext: nil))
        do {
            _ = try reader.read(bytes, passphrase: "correct horse")
            Issue.record("read with the wrong passphrase")
        } catch {
            #expect(error.code == "pkcs12.wrong_passphrase")
        }
        // The MAC verifies under the absent passphrase when "" is given; the
        // encrypted layer then fails to decrypt: corruption, as the MAC vouches for the passphrase.
        let absent = PKCS12Reader(options: PKCS12Options(), cryptography: Self.fake(good: .absent, plaintext: nil))
        do {
            _ = try absent.read(bytes, passphrase: "")
            Issue.record("read although nothing decrypts")
        } catch {
            #expect(error.code == "pkcs12.decryption_failed")
        }
        // Without a MAC, a layer that does not decrypt is a wrong passphrase or corruption.
        let nomac = try Self.vector("openssl-rsa-nomac-encrypted.p12")
        var options = PKCS12Options()
        options.readsFilesWithoutMAC = true
        let guessing = PKCS12Reader(options: options, cryptography: Self.fake(good: .text("x"), plaintext: nil))
        let nomacBytes = try nomac.bytes()
        do {
            _ = try guessing.read(nomacBytes, passphrase: "y")
            Issue.record("read with the wrong passphrase")
        } catch {
            #expect(error.code == "pkcs12.wrong_passphrase_or_corrupted")
        }
    }

    @Test("The MAC scheme and encryption schemes are reported before decryption")
    func schemes() throws {
        let vector = try Self.vector("openssl-rsa-default.p12")
        // Decryption gives the RSA key for a ciphertext of its padded length, and
        // an empty SafeContents (30 00) otherwise.
        let pem = try PEM.parse(try RepositoryPaths.vectorBytes("pkcs12/rsa-key.pem"), requiresBlock: true)
        let keyDER = try #require(pem.first).bytes
        // AES pads to 16 bytes, triple DES (the legacy file) to 8.
        let paddedLengths = [(keyDER.count / 16 + 1) * 16, (keyDER.count / 8 + 1) * 8]
        let reader = PKCS12Reader(options: PKCS12Options(), cryptography: PKCS12Cryptography(
            computeMAC: { scheme, passphrase, _ in passphrase == .text("correct horse") ? scheme.digest : [0] },
            decrypt: { _, _, ciphertext in .plaintext(paddedLengths.contains(ciphertext.count) ? keyDER : [0x30, 0x00]) },
            sha1: { _ in nil }))
        let file = try reader.read(try vector.bytes(), passphrase: "correct horse")
        #expect(file.mac?.kind == .pkcs12KDF(hash: .sha256))
        #expect(file.mac?.iterations == 2048)
        #expect(file.contents.count == 2)
        guard case .encrypted(let scheme) = file.contents.first else {
            Issue.record("the certificates' ContentInfo is not encrypted")
            return
        }
        #expect(scheme.cipher == .aes256CBC)
        #expect(scheme.keyDerivation == .pbkdf2(prf: .sha256, keyLength: nil))
        #expect(scheme.iterations == 2048)
        #expect(file.keys.count == 1)
        // The key has its own salt and IV, under the same scheme.
        #expect(file.keys.first?.encryption?.cipher == .aes256CBC)
        #expect(file.keys.first?.encryption?.keyDerivation == scheme.keyDerivation)
        #expect(file.keys.first?.encryption?.salt != scheme.salt)
        let legacy = try reader.read(try Self.vector("openssl-rsa-legacy.p12").bytes(), passphrase: "correct horse")
        #expect(legacy.mac?.kind == .pkcs12KDF(hash: .sha1))
        #expect(legacy.warnings.contains(.macUsesSHA1))
        guard case .encrypted(let rc2) = legacy.contents.first else {
            Issue.record("the legacy file's certificates are not encrypted")
            return
        }
        #expect(rc2.cipher == .rc2CBC(bits: 40))
        #expect(legacy.warnings.contains(.weakEncryption(rc2)))
    }

    // MARK: The standard primitives

    static let encryptedWithMAC = [
        "openssl-rsa-default.p12", "openssl-p256-default.p12", "openssl-ed25519-default.p12", "openssl-rsa-legacy.p12",
        "openssl-rsa-descert.p12", "openssl-rsa-macsha1.p12", "openssl-rsa-noiter.p12", "openssl-rsa-aes128.p12",
        "openssl-rsa-3des.p12", "cryptography-rsa-best.p12", "cryptography-p256-best.p12",
        "cryptography-ed25519-best.p12", "cryptography-rsa-pbesv1-sha1.p12", "cryptography-rsa-pbesv2-sha256.p12",
    ]

    @Test("A wrong passphrase is refused by the MAC", arguments: encryptedWithMAC)
    func wrongPassphrase(name: String) throws {
        let bytes = try Self.vector(name).bytes()
        for passphrase in ["correct horsE", "", "correct horse "] as [String?] + [nil] {
            do {
                _ = try PKCS12File(berEncoded: bytes, passphrase: passphrase)
                Issue.record("\(name) read with \(passphrase ?? "no passphrase")")
            } catch {
                #expect(error.code == "pkcs12.wrong_passphrase")
            }
        }
    }

    @Test("Without a MAC, a wrong passphrase shows when the first layer does not decrypt")
    func wrongPassphraseWithoutMAC() throws {
        let bytes = try Self.vector("openssl-rsa-nomac-encrypted.p12").bytes()
        var options = PKCS12Options()
        options.readsFilesWithoutMAC = true
        do {
            _ = try PKCS12File(berEncoded: bytes, passphrase: "correct horsE", options: options)
            Issue.record("read with the wrong passphrase")
        } catch {
            #expect(error.code == "pkcs12.wrong_passphrase_or_corrupted")
        }
        let file = try PKCS12File(berEncoded: bytes, passphrase: "correct horse", options: options)
        #expect(file.identities.count == 1)
    }

    @Test("A damaged MAC value reads as a wrong passphrase (the MAC cannot tell them apart)")
    func damagedMAC() throws {
        var bytes = try Self.vector("openssl-rsa-default.p12").bytes()
        let scheme = try #require(try PKCS12File(berEncoded: bytes, passphrase: "correct horse").mac)
        // The MAC value is the file's only copy of those 32 bytes: flip its last one.
        let start = try #require(Self.firstIndex(of: scheme.digest, in: bytes))
        bytes[start + scheme.digest.count - 1] ^= 1
        #expect(throws: PKCS12Error.self) { try PKCS12File(berEncoded: bytes, passphrase: "correct horse") }
        do {
            _ = try PKCS12File(berEncoded: bytes, passphrase: "correct horse")
        } catch {
            #expect(error.code == "pkcs12.wrong_passphrase")
        }
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test("The schemes each tool writes are reported as they are")
    func standardSchemes() throws {
        let modern = try Self.vector("openssl-rsa-default.p12").read()
        #expect(modern.mac?.kind == .pkcs12KDF(hash: .sha256))
        #expect(modern.mac?.iterations == 2048)
        #expect(modern.contents.count == 2)
        #expect(modern.keys.first?.encryption?.cipher == .aes256CBC)
        #expect(modern.keys.first?.encryption?.keyDerivation == .pbkdf2(prf: .sha256, keyLength: nil))

        let legacy = try Self.vector("openssl-rsa-legacy.p12").read()
        #expect(legacy.mac?.kind == .pkcs12KDF(hash: .sha1))
        #expect(legacy.warnings.contains(.macUsesSHA1))
        guard case .encrypted(let rc2) = legacy.contents.first else {
            Issue.record("the legacy file's certificates are not encrypted")
            return
        }
        #expect(rc2.cipher == .rc2CBC(bits: 40))
        #expect(rc2.keyDerivation == .pkcs12KDF)
        #expect(legacy.warnings.contains(.weakEncryption(rc2)))
        #expect(legacy.keys.first?.encryption?.cipher == .desEDE3CBC)
        #expect(legacy.identities.count == 1)

        let noiter = try Self.vector("openssl-rsa-noiter.p12").read()
        #expect(noiter.warnings.contains(.fewIterations(1)))
        #expect(noiter.identities.count == 1)

        let pbesv1 = try Self.vector("cryptography-rsa-pbesv1-sha1.p12").read()
        #expect(pbesv1.keys.first?.encryption?.cipher == .desEDE3CBC)
        #expect(pbesv1.keys.first?.encryption?.keyDerivation == .pkcs12KDF)
        #expect(pbesv1.mac?.kind == .pkcs12KDF(hash: .sha1))

        let empty = try Self.vector("openssl-rsa-empty-passphrase.p12").read()
        #expect(empty.identities.count == 1)
        // No passphrase at all reads it too: both empty forms are tried.
        #expect(try PKCS12File(berEncoded: try Self.vector("openssl-rsa-empty-passphrase.p12").bytes(),
                               passphrase: nil).identities.count == 1)
    }

    @Test("A caller's lower iteration cap refuses the file before any work")
    func iterationCap() throws {
        let bytes = try Self.vector("openssl-rsa-default.p12").bytes()
        var options = PKCS12Options()
        options.maximumIterations = 2047
        do {
            _ = try PKCS12File(berEncoded: bytes, passphrase: "correct horse", options: options)
            Issue.record("read above the iteration cap")
        } catch {
            #expect(error.code == "pkcs12.iterations_above_limit")
        }
    }

    @Test("friendlyName decodes UTF-16 with surrogate pairs and refuses lone surrogates")
    func friendlyNames() {
        #expect(PKCS12Reader.utf16BigEndian([0xD8, 0x34, 0xDD, 0x1E]) == "𝄞")
        #expect(PKCS12Reader.utf16BigEndian([0x00, 0x41, 0x00, 0xC4]) == "AÄ")
        #expect(PKCS12Reader.utf16BigEndian([0xD8, 0x34]) == nil)
        #expect(PKCS12Reader.utf16BigEndian([0x00]) == nil)
        #expect(PKCS12Reader.utf16BigEndian([]) == "")
    }
}

@Suite("BER reader")
struct BERReaderTests {
    @Test("An indefinite element cannot run past its definite parent")
    func indefiniteInsideDefinite() {
        // 30 04 { 30 80 05 00 } 00 00: the inner end-of-contents lies outside the outer SEQUENCE.
        #expect(throws: BERError(.missingEndOfContents, at: 6)) {
            try BERDocument([0x30, 0x04, 0x30, 0x80, 0x05, 0x00, 0x00, 0x00], limits: BERLimits())
        }
        // The same, closed inside: 30 06 { 30 80 05 00 00 00 }.
        #expect(throws: Never.self) {
            let document = try BERDocument([0x30, 0x06, 0x30, 0x80, 0x05, 0x00, 0x00, 0x00], limits: BERLimits())
            #expect(document.nodes.count == 3)
            #expect(document.nodes[1].isIndefinite && document.nodes[1].end == 8)
            #expect(document.children(of: 0) == [1])
        }
    }

    @Test("A constructed OCTET STRING joins its segments, nested ones included")
    func segments() throws {
        // 24 80 { 04 01 AA, 24 04 { 04 02 BB CC } } 00 00
        let document = try BERDocument([0x24, 0x80, 0x04, 0x01, 0xAA, 0x24, 0x04, 0x04, 0x02, 0xBB, 0xCC, 0x00, 0x00],
                                       limits: BERLimits())
        #expect(try document.octets(0) == [0xAA, 0xBB, 0xCC])
        // A segment of another type is refused.
        let mixed = try BERDocument([0x24, 0x03, 0x05, 0x01, 0x00], limits: BERLimits())
        #expect(throws: BERError(.invalidSegment, at: 2)) { try mixed.octets(0) }
    }
}
