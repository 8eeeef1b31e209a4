// `tack show` for OCSP responses: status, responder, times, and each single response
// with the certificate it names (among the certificates shown in the same run and
// those the response carries).

import TackFormats
import Foundation
import TackDER
import TackTrust
import TackX509

enum OCSPShow {
    /// Whether `bytes` is an OCSP response rather than a certificate: a PEM
    /// `OCSP RESPONSE` block, or DER whose outer SEQUENCE starts with an ENUMERATED
    /// (a certificate's starts with a SEQUENCE).
    static func isResponse(_ bytes: [UInt8]) -> Bool {
        if bytes.contains(text: "-----BEGIN OCSP RESPONSE-----") { return true }
        guard bytes.count > 2, bytes[0] == 0x30 else { return false }
        let lengthOctets = bytes[1] < 0x80 ? 0 : Int(bytes[1] & 0x7F)
        let first = 2 + lengthOctets
        return first < bytes.count && bytes[first] == 0x0A
    }

    /// The response in `bytes` (DER, or the first PEM `OCSP RESPONSE` block).
    static func parse(_ bytes: [UInt8], name: String) throws(CLIError) -> OCSPResponse {
        var der = bytes
        if bytes.contains(text: "-----BEGIN ") {
            guard let block = (try? PEM.parse(bytes))?.first(where: { $0.label == "OCSP RESPONSE" }) else {
                throw CLIError("\(name): no readable OCSP RESPONSE block", code: "malformed_ocsp_response")
            }
            der = block.bytes
        }
        do {
            return try OCSPResponse(derEncoded: der)
        } catch {
            throw CLIError("\(name): OCSP response: \(error) [\(error.code)]", code: "malformed_ocsp_response")
        }
    }

    /// The certificate a single response names, among `known`: the subject line of the
    /// first certificate whose serial matches and whose issuer (also among `known`)
    /// hashes to the CertID.
    static func namedCertificate(_ single: OCSPSingleResponse, known: [Certificate]) -> Certificate? {
        for certificate in known where certificate.serialNumber.elementsEqual(single.certID.serialNumber) {
            for issuer in known where single.certID.identifies(certificate, issuedBy: issuer) { return certificate }
        }
        return nil
    }

    static func responderText(_ basic: BasicOCSPResponse) -> String {
        // A name ID always decodes (the response's reader checked it); its DER in hex
        // stands in for it otherwise, never a placeholder.
        switch basic.responderID {
        case .byName(let range):
            return "name " + (((try? basic.responderName) ?? nil)?.rfc4514String ?? "#" + Hex.encode(basic.derEncoded[range]))
        case .byKey(let range):
            return "key SHA-1 " + Hex.encode(basic.derEncoded[range], separator: ":")
        }
    }

    static func statusFields(_ status: OCSPCertificateStatus) -> (time: Int64?, reason: String?) {
        if case .revoked(let time, let reason) = status { return (time, reason?.description) }
        return (nil, nil)
    }

    static func text(_ response: OCSPResponse, file: String, known: [Certificate]) -> String {
        var lines = ["OCSP response (\(file))"]
        func add(_ label: String, _ value: String, indent: String = "  ") {
            lines.append(indent + label.padding(toLength: 20, withPad: " ", startingAt: 0) + value)
        }
        add("Status:", response.status.description)
        guard let basic = response.basicResponse else { return lines.joined(separator: "\n") }
        add("Responder:", responderText(basic))
        add("Produced at:", RFC3339.format(basic.producedAt.secondsSince1970))
        add("Signature:", basic.signatureAlgorithm.description)
        add("Nonce:", basic.nonce.map { Hex.encode($0, separator: ":") } ?? "(none)")
        add("Certificates:", basic.certificates.isEmpty ? "(none)" : basic.certificates.map(subjectLine).joined(separator: "; "))
        let everyone = known + basic.certificates
        for (index, single) in basic.responses.enumerated() {
            lines.append("  Single response \(index + 1) of \(basic.responses.count):")
            let named = namedCertificate(single, known: everyone).map(subjectLine) ?? "(not among the certificates given)"
            add("Certificate:", named, indent: "    ")
            add("Serial:", Hex.encode(single.certID.serialNumber, separator: ":"), indent: "    ")
            add("CertID hash:", single.certID.hashAlgorithm?.description ?? single.certID.hashAlgorithmOID.dottedString, indent: "    ")
            var status = single.status.description
            let (time, reason) = statusFields(single.status)
            if let time { status += " at " + RFC3339.format(time) }
            if let reason { status += " (\(reason))" }
            add("Status:", status, indent: "    ")
            add("This update:", RFC3339.format(single.thisUpdate.secondsSince1970), indent: "    ")
            add("Next update:", single.nextUpdate.map { RFC3339.format($0.secondsSince1970) } ?? "(none)", indent: "    ")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ response: OCSPResponse, file: String, known: [Certificate]) -> JSONValue {
        var fields: [(String, JSONValue)] = [("file", .string(file)), ("status", .string(response.status.description))]
        guard let basic = response.basicResponse else {
            fields += [("responder", .null), ("produced_at", .null), ("signature_algorithm", .null), ("nonce", .null),
                       ("certificates", .array([])), ("responses", .array([]))]
            return .object(fields)
        }
        let everyone = known + basic.certificates
        fields += [
            ("responder", .string(responderText(basic))),
            ("produced_at", .string(RFC3339.format(basic.producedAt.secondsSince1970))),
            ("signature_algorithm", .string(basic.signatureAlgorithm.description)),
            ("nonce", .optional(basic.nonce.map { Hex.encode($0) })),
            ("certificates", .strings(basic.certificates.map(subjectLine))),
            ("responses", .array(basic.responses.map { single in
                let (time, reason) = statusFields(single.status)
                return .object([
                    ("certificate", .optional(namedCertificate(single, known: everyone).map(subjectLine))),
                    ("serial", .string(Hex.encode(single.certID.serialNumber))),
                    ("hash_algorithm", .string(single.certID.hashAlgorithm?.description ?? single.certID.hashAlgorithmOID.dottedString)),
                    ("status", .string(single.status.description)),
                    ("revocation_time", .optional(time.map(RFC3339.format))),
                    ("reason", .optional(reason)),
                    ("this_update", .string(RFC3339.format(single.thisUpdate.secondsSince1970))),
                    ("next_update", .optional(single.nextUpdate.map { RFC3339.format($0.secondsSince1970) })),
                ])
            })),
        ]
        return .object(fields)
    }
}
