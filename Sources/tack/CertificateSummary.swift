// The facts `tack show` and `tack scan` report about one certificate, computed once,
// and their one JSON form (snake_case keys, times in RFC 3339).

import TackFormats
import Foundation
import TackDER
import TackTrust
import TackX509

/// The summary of one certificate that `show --json` and `scan` print.
struct CertificateSummary {
    let subject: String
    let issuer: String
    /// The serial number's content octets in lowercase hex (two's complement, as encoded).
    let serial: String
    let notBefore: DERTime
    let notAfter: DERTime
    let keyType: String
    let keyBits: Int?
    let spkiPin: SPKIPin
    let fingerprint: CertificateFingerprint
    let signatureAlgorithm: String
    let dnsNames: [String]
    let ipAddresses: [String]
    let isCA: Bool?

    init(_ certificate: Certificate) {
        subject = subjectLine(certificate)
        issuer = issuerLine(certificate)
        serial = Hex.encode(certificate.serialNumber)
        notBefore = certificate.validity.notBefore
        notAfter = certificate.validity.notAfter
        keyType = certificate.publicKeyInfo.algorithm.description
        keyBits = certificate.publicKeyInfo.keySizeInBits
        spkiPin = certificate.spkiPin
        fingerprint = certificate.fingerprint
        signatureAlgorithm = certificate.signatureAlgorithm.description
        let names = (try? certificate.subjectAlternativeNames)??.names
        dnsNames = names?.dnsNames ?? []
        ipAddresses = names?.ipAddresses.map(\.description) ?? []
        isCA = (try? certificate.basicConstraints)??.isCertificateAuthority
    }

    /// The JSON fields, in a fixed order (after those a command puts first, such as
    /// the file). Times are RFC 3339.
    func jsonFields() -> [(String, JSONValue)] {
        [
            ("subject", .string(subject)),
            ("issuer", .string(issuer)),
            ("serial", .string(serial)),
            ("not_before", .string(notBefore.description)),
            ("not_after", .string(notAfter.description)),
            ("key_type", .string(keyType)),
            ("key_bits", keyBits.map(JSONValue.int) ?? .null),
            ("signature_algorithm", .string(signatureAlgorithm)),
            ("spki_sha256", .string(spkiPin.base64)),
            ("sha256", .string(fingerprint.hex)),
            ("dns_names", .strings(dnsNames)),
            ("ip_addresses", .strings(ipAddresses)),
            ("is_ca", isCA.map(JSONValue.bool) ?? .null),
        ]
    }
}
