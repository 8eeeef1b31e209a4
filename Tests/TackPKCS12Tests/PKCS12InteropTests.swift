import Foundation
import Testing
import TackDER
import TackDigest
import TackTestSupport
@testable import TackPKCS12

/// Java keytool's keystores, RFC 9579's PBMAC1 files, and damaged encrypted files
/// (Vectors/pkcs12; the manifest test compares each file with cryptography too).
@Suite("PKCS #12 interoperability and damage")
struct PKCS12InteropTests {
    /// Java's trustedKeyUsage attribute (Oracle arc) on a trusted-certificate entry.
    static let javaTrustedKeyUsage = OID(2, 16, 840, 1, 113894, 746875, 1, 1)

    // MARK: keytool

    @Test("keytool's key pairs: PBES2 AES-256 and an HMAC-SHA-256 MAC at 10,000 iterations, two entries two identities")
    func keytoolKeyPairs() throws {
        for (name, count) in [("keytool-rsa.p12", 1), ("keytool-ec.p12", 1), ("keytool-two-entries.p12", 2)] {
            let file = try PKCS12Tests.vector(name).read()
            #expect(file.identities.count == count, "\(name)")
            #expect(file.identities.allSatisfy { $0.match == .localKeyIDAndPublicKey && $0.chain.end == .selfIssued })
            #expect(file.mac?.kind == .pkcs12KDF(hash: .sha256))
            #expect(file.mac?.iterations == 10_000)
            #expect(file.warnings.isEmpty, "\(name): \(file.warnings)")
            let names = file.identities.map { file.certificates[$0.certificateIndex].attributes.friendlyName }
            #expect(names == (count == 1 ? [name.contains("rsa") ? "rsa" : "ec"] : ["rsa", "ec"]))
        }
    }

    @Test("keytool's trusted-certificate entry: its trustedKeyUsage attribute is reported, not dropped")
    func keytoolTrustedCertificate() throws {
        let file = try PKCS12Tests.vector("keytool-trusted-certificate.p12").read()
        #expect(file.keys.isEmpty)
        let entry = try #require(file.certificates.first)
        #expect(file.certificates.count == 1)
        #expect(entry.attributes.friendlyName == "root")
        #expect(entry.attributes.otherAttributes == [Self.javaTrustedKeyUsage])
        #expect(file.warnings == [.unknownAttribute(Self.javaTrustedKeyUsage)])
    }

    @Test("keytool's secret key: a secret bag, reported and not opened")
    func keytoolSecretKey() throws {
        let file = try PKCS12Tests.vector("keytool-secret-key.p12").read()
        #expect(file.certificates.isEmpty)
        #expect(file.keys.isEmpty)
        // Java wraps the key as a PKCS #8 shrouded key bag inside the secret bag.
        let type = OID(1, 2, 840, 113549, 1, 12, 10, 1, 2)
        #expect(file.unopenedBags == [.secret(type)])
        #expect(file.warnings == [.unopenedBag(.secret(type))])
    }

    @Test("keytool's legacy algorithms (keystore.pkcs12.legacy): SHA-1 MAC, RC2-40 certificates, warned")
    func keytoolLegacy() throws {
        let file = try PKCS12Tests.vector("keytool-rsa-legacy.p12").read()
        #expect(file.identities.count == 1)
        #expect(file.mac?.kind == .pkcs12KDF(hash: .sha1))
        #expect(file.warnings.contains(.macUsesSHA1))
        #expect(file.warnings.contains { if case .weakEncryption(let scheme) = $0 { scheme.cipher == .rc2CBC(bits: 40) } else { false } })
        #expect(file.keys.first?.encryption?.cipher == .desEDE3CBC)
    }

    // MARK: RFC 9579

    @Test("RFC 9579 appendix A.1 to A.3: PBMAC1 verifies with password 1234", arguments: [
        ("rfc9579-a1-sha256-sha256.p12", DigestAlgorithm.sha256, DigestAlgorithm.sha256, 32),
        ("rfc9579-a2-sha256-prf-sha512.p12", DigestAlgorithm.sha512, DigestAlgorithm.sha256, 32),
        ("rfc9579-a3-sha512-sha512.p12", DigestAlgorithm.sha512, DigestAlgorithm.sha512, 64),
    ])
    func pbmac1Valid(name: String, prf: DigestAlgorithm, mac: DigestAlgorithm, keyLength: Int) throws {
        let file = try PKCS12Tests.vector(name).read()
        #expect(file.mac?.kind == .pbmac1(prf: prf, mac: mac, keyLength: keyLength))
        // PBKDF2's salt and count, not the MacData's "NOT USED" and 1 (RFC 9579 §3).
        #expect(file.mac?.iterations == 2048)
        #expect(file.mac?.salt.count == 8)
        #expect(file.identities.count == 1)
        #expect(file.warnings.isEmpty)
        // And a wrong password is refused by the MAC.
        #expect(throws: PKCS12Error.self) { try PKCS12File(berEncoded: try PKCS12Tests.vector(name).bytes(), passphrase: "1235") }
    }

    @Test("RFC 9579 appendix A.4 to A.6: the invalid files fail with their exact error", arguments: [
        // A.4 (PBKDF2 count 2049) and A.5 (PBKDF2 salt "NOT USED") derive another MAC key:
        // refused at the MacData (offset 2576).
        ("rfc9579-a4-wrong-iterations.p12", PKCS12Error.Reason.wrongPassphrase, 2576),
        ("rfc9579-a5-wrong-salt.p12", PKCS12Error.Reason.wrongPassphrase, 2576),
        // A.6 has no keyLength, which RFC 9579 §3 requires: refused at its PBKDF2-params (2608).
        ("rfc9579-a6-no-key-length.p12", PKCS12Error.Reason.invalidAlgorithmParameters, 2608),
    ])
    func pbmac1Invalid(name: String, reason: PKCS12Error.Reason, offset: Int) throws {
        let bytes = try PKCS12Tests.vector(name).bytes()
        #expect(throws: PKCS12Error(reason, at: offset, in: .file)) {
            try PKCS12File(berEncoded: bytes, passphrase: "1234")
        }
    }

    // MARK: Damage

    static let smallEncrypted = ["keytool-secret-key.p12", "keytool-trusted-certificate.p12", "openssl-ed25519-default.p12"]

    @Test("Every truncation of a small encrypted file is a structural error of the file: never success, never a trap, never taken for a wrong passphrase",
          arguments: smallEncrypted)
    func encryptedTruncations(name: String) throws {
        let vector = try PKCS12Tests.vector(name)
        let bytes = try vector.bytes()
        for length in 0..<bytes.count {
            do {
                let file = try PKCS12File(berEncoded: Array(bytes[0..<length]), passphrase: vector.passphrase)
                Issue.record("\(name) cut to \(length) bytes was read: \(file.certificates.count) certificates")
            } catch {
                // The definite lengths of the PFX run past the end: the BER layer says so
                // before any passphrase is tried.
                #expect(error.layer == .file && error.code.hasPrefix("pkcs12.ber."), "\(length): \(error)")
            }
        }
        // The whole file reads.
        _ = try PKCS12File(berEncoded: bytes, passphrase: vector.passphrase)
    }

    /// The standard primitives, except that decryption sees the ciphertext shortened
    /// by `cut` bytes: what the reader meets when a file's encrypted content was
    /// truncated within its framing (and its MAC, if any, made again).
    static func truncatingCiphertext(by cut: Int) -> PKCS12Cryptography {
        let standard = PKCS12Cryptography.standard
        return PKCS12Cryptography(
            computeMAC: standard.computeMAC,
            decrypt: { scheme, passphrase, ciphertext in standard.decrypt(scheme, passphrase, Array(ciphertext.dropLast(cut))) },
            sha1: standard.sha1)
    }

    @Test("A truncated ciphertext under a verified MAC is a corrupted file (decryptionFailed), not a wrong passphrase",
          arguments: [1, 15, 16, 32])
    func truncatedCiphertextWithMAC(cut: Int) throws {
        let vector = try PKCS12Tests.vector("openssl-ed25519-default.p12")
        do {
            let file = try vector.read(cryptography: Self.truncatingCiphertext(by: cut))
            Issue.record("read with a truncated ciphertext: \(file.keys.count) keys")
        } catch let error as PKCS12Error {
            #expect(error.reason == .decryptionFailed, "\(error)")
        }
    }

    @Test("Without a MAC: a ciphertext cut mid-block is corrupted (decryptionFailed); cut by whole blocks it cannot be told from a wrong passphrase",
          arguments: [(1, "pkcs12.decryption_failed"), (17, "pkcs12.decryption_failed"),
                      (16, "pkcs12.wrong_passphrase_or_corrupted"), (48, "pkcs12.wrong_passphrase_or_corrupted")])
    func truncatedCiphertextWithoutMAC(cut: Int, code: String) throws {
        let vector = try PKCS12Tests.vector("openssl-rsa-nomac-encrypted.p12")
        do {
            let file = try vector.read(cryptography: Self.truncatingCiphertext(by: cut))
            Issue.record("read with a truncated ciphertext: \(file.keys.count) keys")
        } catch let error as PKCS12Error {
            #expect(error.code == code, "\(error)")
        }
    }

    // MARK: Typed payloads

    @Test("An RC4 PBE is refused with its object identifier, not a name in a string")
    func rc4RefusedByOID() throws {
        let vector = try PKCS12Tests.vector("assembled-rc4.p12")
        do {
            let file = try vector.read()
            Issue.record("read an RC4-encrypted file: \(file.keys.count) keys")
        } catch let error as PKCS12Error {
            // pbeWithSHAAnd128BitRC4 or pbeWithSHAAnd40BitRC4 (RFC 7292 appendix C).
            let rc4 = [OID(1, 2, 840, 113549, 1, 12, 1, 1), OID(1, 2, 840, 113549, 1, 12, 1, 2)]
            guard case .unsupportedEncryption(let oid) = error.reason else {
                Issue.record("\(error)")
                return
            }
            #expect(rc4.contains(oid), "\(oid)")
            #expect(error.code == "pkcs12.unsupported_encryption")
            #expect(error.description.contains("RC4"))
        }
    }

    @Test("A scheme the seam cannot run is reported as the typed scheme (encryption) or the algorithm's OID (MAC)")
    func unavailableSchemesAreTyped() throws {
        let standard = PKCS12Cryptography.standard
        let noDecryption = PKCS12Cryptography(
            computeMAC: standard.computeMAC, decrypt: { _, _, _ in .unavailable }, sha1: standard.sha1)
        do {
            _ = try PKCS12Tests.vector("openssl-ed25519-default.p12").read(cryptography: noDecryption)
            Issue.record("read without decryption")
        } catch let error as PKCS12Error {
            guard case .encryptionUnavailable(let scheme) = error.reason else {
                Issue.record("\(error)")
                return
            }
            #expect(scheme.cipher == .aes256CBC)
            #expect(error.code == "pkcs12.encryption_unavailable")
        }
        let noMAC = PKCS12Cryptography(computeMAC: { _, _, _ in nil }, decrypt: standard.decrypt, sha1: standard.sha1)
        do {
            _ = try PKCS12Tests.vector("openssl-ed25519-default.p12").read(cryptography: noMAC)
            Issue.record("read without a MAC computation")
        } catch let error as PKCS12Error {
            // OpenSSL 3's default MAC: HMAC-SHA-256 with the PKCS #12 KDF, named by SHA-256's OID.
            #expect(error.reason == .macAlgorithmUnavailable(DigestAlgorithm.sha256.oid), "\(error)")
            #expect(error.code == "pkcs12.mac_algorithm_unavailable")
        }
    }
}
