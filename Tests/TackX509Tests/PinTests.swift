import Testing
import TackDER
import TackDigest
import TackTestSupport
import TackX509

@Suite("Pins: SPKI pins and certificate fingerprints")
struct PinTests {
    static let digest = SHA256Digest(bytes: (0..<32).map { UInt8($0 * 7 + 1) })!

    @Test("A pin round-trips through every text form")
    func roundTrip() throws {
        let pin = SPKIPin(digest: Self.digest)
        for format in PinFormat.allCases {
            let text = pin.formatted(format)
            #expect(try SPKIPin(text) == pin, "\(format): \(text)")
            #expect(try SPKIPin(text, format: format) == pin)
        }
        #expect(pin.base64.count == 44)
        #expect(pin.sha256Base64 == "sha256/" + pin.base64)
        #expect(pin.hex.count == 64)
        // Lowercase, as `openssl dgst -sha256` prints it.
        #expect(pin.hex == pin.hex.lowercased())
        #expect(try SPKIPin(pin.hex.uppercased()) == pin)
    }

    @Test("A Base64 pin that contains a slash is not mistaken for a prefix")
    func base64WithSlash() throws {
        let text = "r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E="
        #expect(try SPKIPin(text).base64 == text)
    }

    @Test("Malformed pins give their own errors")
    func errors() {
        #expect(throws: PinParseError.unknownPrefix) { try SPKIPin("sha1/AAAAAAAAAAAAAAAAAAAAAAAAAAA=") }
        #expect(throws: PinParseError.wrongLength(byteCount: 20)) { try SPKIPin("sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAA=") }
        #expect(throws: PinParseError.wrongLength(byteCount: 3)) { try SPKIPin("AAAA") }
        #expect(throws: PinParseError.invalidBase64(.invalidCharacter(UInt8(ascii: "!"), offset: 3))) { try SPKIPin("AAA!") }
        #expect(throws: PinParseError.invalidHex(offset: 2)) { try SPKIPin("00x0", format: .hex) }
        #expect(throws: PinParseError.wrongLength(byteCount: 2)) { try SPKIPin("0000", format: .hex) }
    }

    @Test("A fingerprint reads OpenSSL's colon form and rejects misplaced colons")
    func fingerprintForms() throws {
        let fingerprint = CertificateFingerprint(digest: Self.digest)
        #expect(try CertificateFingerprint(fingerprint.colonHex) == fingerprint)
        #expect(try CertificateFingerprint(fingerprint.colonHex.lowercased()) == fingerprint)
        #expect(try CertificateFingerprint(fingerprint.hex) == fingerprint)
        #expect(try CertificateFingerprint(fingerprint.base64) == fingerprint)
        #expect(throws: PinParseError.invalidHex(offset: 2)) { try CertificateFingerprint("010:2") }
    }
}

// The pins against the OpenSSL pipeline (`openssl x509 -pubkey | openssl pkey -outform der |
// openssl dgst -sha256 | base64`) are compared in one place: scripts/cli-check.py, over every
// certificate under Vectors/ and of the system CA bundle, through `tack pin`, which prints
// `Certificate.spkiPin`.
