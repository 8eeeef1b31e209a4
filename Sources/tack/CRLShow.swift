// `tack show` on a CRL: its issuer, number, times, signature algorithm and every
// revoked serial, in text and JSON.

import TackFormats
import TackDER
import TackTrust
import TackX509

enum CRLShow {
    /// The serial of a revoked entry, hex with colons (as OCSP serials are shown).
    static func serial(_ entry: CertificateRevocationList.RevokedCertificate, in list: CertificateRevocationList) -> String {
        Hex.encode(list.derEncoded[entry.serialNumberRange], separator: ":")
    }

    /// The issuer in RFC 4514 (it decoded when the CRL was read).
    static func issuer(_ list: CertificateRevocationList) -> String {
        (try? list.issuer)?.rfc4514String ?? "#" + Hex.encode(list.derEncoded[list.issuerRange])
    }

    static func text(_ list: CertificateRevocationList, file: String) -> String {
        var lines = ["CRL (\(file))"]
        func add(_ label: String, _ value: String) {
            lines.append("  " + label.padding(toLength: 20, withPad: " ", startingAt: 0) + value)
        }
        add("Issuer:", issuer(list))
        add("Number:", list.crlNumber.isEmpty ? "(none)" : Hex.encode(list.crlNumber, separator: ":"))
        add("This update:", RFC3339.format(list.thisUpdate.secondsSince1970))
        add("Next update:", RFC3339.format(list.nextUpdate.secondsSince1970))
        add("Signature:", list.signatureAlgorithm.description)
        add("Revoked:", "\(list.revokedCertificates.count) certificate\(list.revokedCertificates.count == 1 ? "" : "s")")
        for entry in list.revokedCertificates {
            add("", "serial \(serial(entry, in: list)) at \(RFC3339.format(entry.revocationTime))")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ list: CertificateRevocationList, file: String) -> JSONValue {
        .object([
            ("file", .string(file)),
            ("issuer", .string(issuer(list))),
            ("number", .optional(list.crlNumber.isEmpty ? nil : Hex.encode(list.crlNumber))),
            ("this_update", .string(RFC3339.format(list.thisUpdate.secondsSince1970))),
            ("next_update", .string(RFC3339.format(list.nextUpdate.secondsSince1970))),
            ("signature_algorithm", .string(list.signatureAlgorithm.description)),
            ("revoked", .array(list.revokedCertificates.map { entry in
                .object([("serial", .string(Hex.encode(list.derEncoded[entry.serialNumberRange]))),
                         ("revocation_time", .string(RFC3339.format(entry.revocationTime)))])
            })),
        ])
    }
}
