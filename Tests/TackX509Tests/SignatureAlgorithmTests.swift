import Testing
import TackDER
import TackTestSupport
import TackX509

@Suite("Certificate: signature algorithm identifiers")
struct SignatureAlgorithmTests {
    static func parse(_ hexText: String) throws(X509Error) -> SignatureAlgorithm {
        let der = hexBytes(hexText)
        return try SignatureAlgorithm(derEncoded: der, range: 0..<der.count)
    }

    static let sha256RSA = "06 09 2a 86 48 86 f7 0d 01 01 0b"
    static let pss = "06 09 2a 86 48 86 f7 0d 01 01 0a"
    static let ecdsaSHA384 = "06 08 2a 86 48 ce 3d 04 03 03"

    @Test("RSA PKCS #1 v1.5 takes NULL parameters, and absent ones too (RFC 4055 §5)")
    func pkcs1Parameters() throws {
        #expect(try Self.parse("30 0d " + Self.sha256RSA + " 05 00") == .rsaPKCS1v15(.sha256))
        #expect(try Self.parse("30 0b " + Self.sha256RSA) == .rsaPKCS1v15(.sha256))
        #expect(throws: X509Error(.invalidAlgorithmParameters(.mustBeNull), at: 13)) {
            try Self.parse("30 0e " + Self.sha256RSA + " 02 01 00")
        }
    }

    @Test("MD5 and SHA-1 signatures are recognised by name and marked as not collision resistant")
    func weakDigests() throws {
        let md5 = try Self.parse("30 0d 06 09 2a 86 48 86 f7 0d 01 01 04 05 00")
        let sha1 = try Self.parse("30 0d 06 09 2a 86 48 86 f7 0d 01 01 05 05 00")
        let ecdsaSHA1 = try Self.parse("30 09 06 07 2a 86 48 ce 3d 04 01")
        #expect(md5 == .rsaPKCS1v15(.md5) && sha1 == .rsaPKCS1v15(.sha1) && ecdsaSHA1 == .ecdsa(.sha1))
        #expect(md5.description == "md5WithRSAEncryption" && sha1.description == "sha1WithRSAEncryption")
        #expect(md5.digest?.isCollisionResistant == false && sha1.digest?.isCollisionResistant == false)
        #expect(try Self.parse("30 0b " + Self.sha256RSA).digest?.isCollisionResistant == true)
    }

    @Test("ECDSA and EdDSA identifiers must omit the parameters (RFC 5758 §3.2, RFC 8410 §3)")
    func absentParameters() throws {
        #expect(try Self.parse("30 0a " + Self.ecdsaSHA384) == .ecdsa(.sha384))
        #expect(try Self.parse("30 05 06 03 2b 65 70") == .ed25519)
        #expect(try Self.parse("30 05 06 03 2b 65 71") == .ed448)
        // Refused at the NULL (byte 7).
        #expect(throws: X509Error(.invalidAlgorithmParameters(.mustBeAbsent), at: 7)) { try Self.parse("30 07 06 03 2b 65 70 05 00") }
        #expect(throws: X509Error(.invalidAlgorithmParameters(.mustBeAbsent), at: 7)) { try Self.parse("30 07 06 03 2b 65 71 05 00") }
    }

    @Test("ECDSA takes NULL parameters as a deliberate leniency (Java keytool), and nothing else but absent ones")
    func ecdsaNullLeniency() throws {
        #expect(try Self.parse("30 0c " + Self.ecdsaSHA384 + " 05 00") == .ecdsa(.sha384))
        #expect(try Self.parse("30 0b 06 07 2a 86 48 ce 3d 04 01 05 00") == .ecdsa(.sha1))
        // Any other parameters are refused where they start (byte 12).
        for other in ["30 0d \(Self.ecdsaSHA384) 02 01 00", "30 0c \(Self.ecdsaSHA384) 30 00",
                      "30 0d \(Self.ecdsaSHA384) 04 01 00", "30 14 \(Self.ecdsaSHA384) 06 08 2a 86 48 ce 3d 03 01 07"] {
            do throws(X509Error) {
                let algorithm = try Self.parse(other)
                Issue.record("accepted \(other) as \(algorithm)")
            } catch {
                guard case .invalidAlgorithmParameters = error.reason else {
                    Issue.record("\(other): \(error)")
                    continue
                }
                #expect(error.offset == 12, "\(other)")
            }
        }
        // NULL with contents is not a DER NULL (X.690 §8.8.2), and one NULL is the most.
        #expect(throws: X509Error(.invalidAlgorithmParameters(.mustBeAbsent), at: 12)) { try Self.parse("30 0d " + Self.ecdsaSHA384 + " 05 01 00") }
        #expect(throws: X509Error(.der(.trailingData), at: 14)) { try Self.parse("30 0e " + Self.ecdsaSHA384 + " 05 00 05 00") }
    }

    @Test("An unknown algorithm is kept with its OID and its parameters are not checked")
    func unknownAlgorithm() throws {
        let algorithm = try Self.parse("30 0a 06 06 2a 03 04 05 06 07 02 00")
        #expect(algorithm == .unknown(OID(1, 2, 3, 4, 5, 6, 7)))
        #expect(algorithm.description == "1.2.3.4.5.6.7")
    }

    @Test("RSASSA-PSS parameters: present fields are read, absent ones take the RFC 4055 defaults")
    func pssParameters() throws {
        // SHA-384, MGF1-SHA-384, salt 48 (openssl's usual SHA-384 PSS encoding).
        let sha384 = try Self.parse("""
            30 41 \(Self.pss) 30 34
              a0 0f 30 0d 06 09 60 86 48 01 65 03 04 02 02 05 00
              a1 1c 30 1a 06 09 2a 86 48 86 f7 0d 01 01 08 30 0d 06 09 60 86 48 01 65 03 04 02 02 05 00
              a2 03 02 01 30
            """)
        #expect(sha384 == .rsaPSS(RSAPSSParameters(digest: .sha384, maskGenerationDigest: .sha384, saltLength: 48)))
        // Empty parameters: every default (SHA-1, MGF1-SHA-1, salt 20).
        #expect(try Self.parse("30 0d \(Self.pss) 30 00") == .rsaPSS(.defaults))
        // Hash with absent parameters is accepted as equivalent to NULL (RFC 4055 §2.1).
        let absentHashParameters = try Self.parse("30 1c \(Self.pss) 30 0f a0 0d 30 0b 06 09 60 86 48 01 65 03 04 02 01")
        #expect(absentHashParameters.digest == .sha256)
    }

    @Test("RSASSA-PSS parameter errors", arguments: [
        // Missing parameters in a signature algorithm.
        ("30 0b \(pss)", "invalid_algorithm_parameters.missing", 0),
        // Encoded DEFAULT salt length 20.
        ("30 12 \(pss) 30 05 a2 03 02 01 14", "der.default_value_encoded", 15),
        // Trailer field other than 1.
        ("30 12 \(pss) 30 05 a3 03 02 01 02", "invalid_algorithm_parameters.trailer_field_not_one", 15),
        // Encoded DEFAULT trailer field 1.
        ("30 12 \(pss) 30 05 a3 03 02 01 01", "der.default_value_encoded", 15),
        // Negative salt length.
        ("30 12 \(pss) 30 05 a2 03 02 01 ff", "invalid_algorithm_parameters.negative_salt_length", 15),
        // MD5 as the PSS hash.
        ("30 1d \(pss) 30 10 a0 0e 30 0c 06 08 2a 86 48 86 f7 0d 02 05 05 00", "invalid_algorithm_parameters.unsupported_hash", 17),
        // Explicit SHA-1 hash, the DEFAULT.
        ("30 1a \(pss) 30 0d a0 0b 30 09 06 05 2b 0e 03 02 1a 05 00", "der.default_value_encoded", 17),
    ])
    func pssErrors(hexText: String, expected: String, offset: Int) {
        do {
            let algorithm = try Self.parse(hexText)
            Issue.record("parsed as \(algorithm)")
        } catch {
            #expect(error.code == expected, "\(error)")
            #expect(error.offset == offset, "\(error)")
        }
    }
}
