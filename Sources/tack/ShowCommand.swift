// `tack show`: a readable dump of each certificate, focused on what pinning needs.

import TackFormats
import Foundation
import TackDER
import TackTrust
import TackX509

enum ShowCommand {
    static let help = """
        USAGE: tack show [--format text|json] [--json] [--at TIME] [--ct-log-list FILE] FILE...
               tack show --connect HOST[:PORT] [--servername NAME] [--timeout SECONDS] [--tls 1.2|1.3] [...]

        Prints each certificate (PEM with any number of blocks, DER, or `openssl s_client
        -showcerts` output; `-` reads standard input): subject, issuer, serial, validity with
        the days left (or how long ago it expired), subject alternative names, key type and
        size, signature algorithm, every extension with its critical flag and decoded value,
        the SPKI pin (what NSPinnedDomains and OkHttp pin) and the certificate's SHA-256
        fingerprint. An OCSP response (DER, or a PEM "OCSP RESPONSE" block) is printed too:
        its status, responder, times, and each single response with its status and the
        certificate it names, when that certificate and its issuer are among the FILEs. A
        CRL (DER, or PEM "X509 CRL" blocks) is printed with its issuer, number, times,
        signature algorithm and every revoked serial.

        OPTIONS:
          --format json   (or --json) one JSON object: "certificates", one object per
                          certificate (the fields of tack scan, plus file, index, version,
                          days_left, seconds_left, validity: not_yet_valid, valid
                          or expired, and extensions), "ocsp_responses", one object per
                          OCSP response (status, responder, produced_at, responses),
                          and "errors", one object (code, message) per input that failed
          --at TIME       the time the days left are counted from (default: the clock),
                          RFC 3339 (2026-01-01T00:00:00Z) or seconds since 1970;
                          --now is the same option
          --ct-log-list FILE
                          a CT log list (v3 JSON): the text lists each embedded SCT's
                          log and status (verified when the issuer is among the FILEs);
                          without it, each SCT's log ID, timestamp and algorithm
          --connect HOST[:PORT]
                          show the chain the server serves (a TLS handshake by Tack's
                          own client, as tack fetch runs it) instead of FILEs
        \(Connection.optionsHelp)

        EXAMPLES:
          tack show Vectors/certs/chain-example.pem
          tack show --json Vectors/certs/p256-leaf.pem
          tack show Vectors/ocsp/responses/openssl-multi.der Vectors/ocsp/certs/leaf-openssl-revoked.der Vectors/ocsp/certs/intermediate.der

        Exit status: 0 on success, 1 if an input could not be read or a certificate did not
        parse (the others are still shown), 2 on a usage error.
        """

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: Set(["--at", "--now", "--format", "--ct-log-list", "--connect"] + Connection.valued), switches: ["--json"])
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        let format = try args.outputFormat()
        let sources = try InputSource.operandsOrConnection(args, command: "show", missing: "tack show needs at least one FILE (or - for standard input)")
        let now = try args.time(alias: "--now")
        let logList = try args.value("--ct-log-list").map { (path) throws(CLIError) in try CTOptions.readLogList(path, io: io) }
        // Each input is read once (standard input cannot be read twice): an OCSP
        // response is told apart from certificates by its first field.
        var certificates: [(file: String, certificate: Certificate)] = []
        var responses: [(file: String, response: OCSPResponse)] = []
        var lists: [(file: String, list: CertificateRevocationList)] = []
        var failures: [CLIError] = []
        InputSource.readEach(sources, io: io, failed: { failures.append($0) }) { name, bytes in
            if OCSPShow.isResponse(bytes) {
                do throws(CLIError) {
                    responses.append((name, try OCSPShow.parse(bytes, name: name)))
                } catch {
                    failures.append(error)
                }
            } else if InputKind.recognise(bytes) == .crl {
                do throws(CLIError) {
                    lists += try revocationLists(bytes, name: name).map { (name, $0) }
                } catch {
                    failures.append(error)
                }
            } else {
                let found = certificateObjects(bytes, name: name)
                certificates += found.certificates
                failures += found.failures
            }
        }
        for failure in failures { io.warn(failure.description) }
        let known = certificates.map(\.certificate)
        switch format {
        case .json:
            let records = certificates.enumerated().map { index, entry in
                jsonRecord(entry.certificate, file: entry.file, index: index + 1, now: now)
            }
            let ocsp = responses.map { OCSPShow.json($0.response, file: $0.file, known: known) }
            io.emit(JSONValue.object([("certificates", .array(records)), ("ocsp_responses", .array(ocsp)),
                                      ("crls", .array(lists.map { CRLShow.json($0.list, file: $0.file) })),
                                      ("errors", .array(failures.map(PinCommand.errorRecord)))])
                .serialized())
        case .text:
            for (index, entry) in certificates.enumerated() {
                if index > 0 { io.emit("") }
                var block = text(entry.certificate, file: entry.file, index: index + 1, count: certificates.count, now: now)
                let issuer = known.first { $0.subjectBytes.elementsEqual(entry.certificate.issuerBytes) }
                let scts = CTOptions.showLines(entry.certificate, issuer: issuer, logList: logList, time: now)
                if !scts.isEmpty { block += "\n  Embedded SCTs:\n" + scts.map { "  " + $0 }.joined(separator: "\n") }
                io.emit(block)
            }
            for (index, entry) in responses.enumerated() {
                if index > 0 || !certificates.isEmpty { io.emit("") }
                io.emit(OCSPShow.text(entry.response, file: entry.file, known: known))
            }
            for (index, entry) in lists.enumerated() {
                if index > 0 || !certificates.isEmpty || !responses.isEmpty { io.emit("") }
                io.emit(CRLShow.text(entry.list, file: entry.file))
            }
        }
        if !failures.isEmpty {
            io.warn(CLIError.inputsFailed(failures.count).description)
            return .failure
        }
        return .success
    }

    // MARK: Text

    private static func text(_ certificate: Certificate, file: String, index: Int, count: Int, now: Int64) -> String {
        let summary = CertificateSummary(certificate)
        var lines = ["Certificate \(index) of \(count) (\(file))"]
        func add(_ label: String, _ value: String) {
            lines.append("  " + label.padding(toLength: 20, withPad: " ", startingAt: 0) + value)
        }
        add("Subject:", summary.subject)
        add("Issuer:", summary.issuer)
        add("Serial:", Hex.encode(certificate.serialNumber, separator: ":"))
        add("Version:", "v\(certificate.version.rawValue + 1)")
        add("Not before:", summary.notBefore.description)
        add("Not after:", summary.notAfter.description + "  (" + validityPhrase(certificate.validity, now: now) + ")")
        let sans = ((try? certificate.subjectAlternativeNames) ?? nil).map { Array($0.names).map(\.description) } ?? []
        add("Alternative names:", sans.isEmpty ? "(none)" : sans.joined(separator: ", "))
        add("Key:", summary.keyType + (summary.keyBits.map { " (\($0) bits)" } ?? ""))
        add("Signature:", summary.signatureAlgorithm)
        add("SPKI pin:", summary.spkiPin.base64)
        add("SPKI pin (OkHttp):", summary.spkiPin.sha256Base64)
        add("SHA-256:", summary.fingerprint.colonHex)
        if certificate.extensions.isEmpty {
            add("Extensions:", "(none)")
        } else {
            lines.append("  Extensions:")
            for ext in certificate.extensions {
                let (name, value) = describe(ext, in: certificate)
                lines.append("    \(name)\(ext.isCritical ? " (critical)" : ""): \(value)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// "364 days left", "23 hours left", "expired 2 minutes ago", "not yet valid: starts
    /// in 8 hours": the largest unit that is not zero (``TrustFailure/span(_:_:)``).
    static func validityPhrase(_ validity: Certificate.Validity, now: Int64) -> String {
        let start = validity.notBefore.secondsSince1970
        let end = validity.notAfter.secondsSince1970
        switch validityState(validity, now: now) {
        case "not_yet_valid": return "not yet valid: starts in \(TrustFailure.span(start, now))"
        case "expired": return "expired \(TrustFailure.span(now, end)) ago"
        default: return "\(TrustFailure.span(end, now)) left"
        }
    }

    /// `not_yet_valid`, `valid` or `expired` at `now` (RFC 5280 §4.1.2.5: both
    /// bounds inclusive).
    static func validityState(_ validity: Certificate.Validity, now: Int64) -> String {
        if now < validity.notBefore.secondsSince1970 { return "not_yet_valid" }
        if now > validity.notAfter.secondsSince1970 { return "expired" }
        return "valid"
    }

    /// The extension's name and its decoded value (or the decoding error).
    static func describe(_ ext: Extension, in certificate: Certificate) -> (name: String, value: String) {
        func value(_ body: () throws(X509Error) -> String) -> String {
            do { return try body() } catch { return "malformed: \(error)" }
        }
        switch ext.oid {
        case BasicConstraints.oid:
            return ("basicConstraints", value { () throws(X509Error) in
                guard let constraints = try certificate.basicConstraints else { return "" }
                var text = constraints.isCertificateAuthority ? "CA:TRUE" : "CA:FALSE"
                if let length = constraints.pathLengthConstraint { text += ", pathlen:\(length)" }
                return text
            })
        case KeyUsage.oid:
            return ("keyUsage", value { () throws(X509Error) in
                guard let usage = try certificate.keyUsage else { return "" }
                return keyUsageNames(usage).joined(separator: ", ")
            })
        case ExtendedKeyUsage.oid:
            return ("extendedKeyUsage", value { () throws(X509Error) in
                guard let usage = try certificate.extendedKeyUsage else { return "" }
                return usage.map(purposeName).joined(separator: ", ")
            })
        case SubjectAlternativeNames.oid:
            return ("subjectAltName", value { () throws(X509Error) in
                (try certificate.subjectAlternativeNames).map { Array($0.names).map(\.description).joined(separator: ", ") } ?? ""
            })
        case IssuerAlternativeNames.oid:
            return ("issuerAltName", value { () throws(X509Error) in
                (try certificate.issuerAlternativeNames).map { Array($0.names).map(\.description).joined(separator: ", ") } ?? ""
            })
        case SubjectKeyIdentifier.oid:
            return ("subjectKeyIdentifier", value { () throws(X509Error) in
                (try certificate.subjectKeyIdentifier).map { Hex.encode($0.keyIdentifier, separator: ":") } ?? ""
            })
        case AuthorityKeyIdentifier.oid:
            return ("authorityKeyIdentifier", value { () throws(X509Error) in
                guard let identifier = try certificate.authorityKeyIdentifier else { return "" }
                var parts: [String] = []
                if let key = identifier.keyIdentifier { parts.append("keyid:" + Hex.encode(key, separator: ":")) }
                if let issuer = identifier.authorityCertIssuer { parts.append("issuer:" + Array(issuer).map(\.description).joined(separator: ", ")) }
                if let serial = identifier.authorityCertSerialNumber { parts.append("serial:" + Hex.encode(serial, separator: ":")) }
                return parts.joined(separator: ", ")
            })
        case NameConstraints.oid:
            return ("nameConstraints", value { () throws(X509Error) in
                guard let constraints = try certificate.nameConstraints else { return "" }
                var parts: [String] = []
                if let permitted = constraints.permittedSubtrees {
                    parts.append("permitted: " + Array(permitted).map { "\($0)" }.joined(separator: ", "))
                }
                if let excluded = constraints.excludedSubtrees {
                    parts.append("excluded: " + Array(excluded).map { "\($0)" }.joined(separator: ", "))
                }
                return parts.joined(separator: "; ")
            })
        case CertificatePolicies.oid:
            return ("certificatePolicies", value { () throws(X509Error) in
                (try certificate.certificatePolicies).map { Array($0).map(\.policyIdentifier.dottedString).joined(separator: ", ") } ?? ""
            })
        case PolicyMappings.oid:
            return ("policyMappings", value { () throws(X509Error) in
                (try certificate.policyMappings).map {
                    Array($0).map { "\($0.issuerDomainPolicy.dottedString) → \($0.subjectDomainPolicy.dottedString)" }.joined(separator: ", ")
                } ?? ""
            })
        case PolicyConstraints.oid:
            return ("policyConstraints", value { () throws(X509Error) in
                guard let constraints = try certificate.policyConstraints else { return "" }
                var parts: [String] = []
                if let skip = constraints.requireExplicitPolicy { parts.append("requireExplicitPolicy:\(skip)") }
                if let skip = constraints.inhibitPolicyMapping { parts.append("inhibitPolicyMapping:\(skip)") }
                return parts.joined(separator: ", ")
            })
        case InhibitAnyPolicy.oid:
            return ("inhibitAnyPolicy", value { () throws(X509Error) in
                (try certificate.inhibitAnyPolicy).map { "skipCerts:\($0.skipCerts)" } ?? ""
            })
        case CRLDistributionPoints.oid:
            return ("crlDistributionPoints", value { () throws(X509Error) in
                guard let points = try certificate.crlDistributionPoints else { return "" }
                return Array(points).map { point -> String in
                    switch point.name {
                    case .fullName(let names)?: Array(names).map(\.description).joined(separator: ", ")
                    case .nameRelativeToCRLIssuer?: "(name relative to the CRL issuer)"
                    case nil: "(no name)"
                    }
                }.joined(separator: "; ")
            })
        case AuthorityInformationAccess.oid:
            return ("authorityInfoAccess", value { () throws(X509Error) in
                guard let access = try certificate.authorityInformationAccess else { return "" }
                return Array(access).map { description -> String in
                    let method = switch description.method {
                    case AuthorityInformationAccess.ocsp: "OCSP"
                    case AuthorityInformationAccess.caIssuers: "CA Issuers"
                    default: description.method.dottedString
                    }
                    return "\(method) - \(description.location)"
                }.joined(separator: ", ")
            })
        case SignedCertificateTimestampList.oid:
            return ("signedCertificateTimestamps", value { () throws(X509Error) in
                (try certificate.signedCertificateTimestamps).map { "\($0.count) SCT\($0.count == 1 ? "" : "s")" } ?? ""
            })
        default:
            let bytes = certificate.derEncoded[ext.valueRange]
            return (ext.oid.dottedString, "\(bytes.count) bytes: " + Hex.encode(bytes.prefix(32), separator: ":") + (bytes.count > 32 ? "…" : ""))
        }
    }

    static func keyUsageNames(_ usage: KeyUsage) -> [String] {
        let names: [(KeyUsage, String)] = [
            (.digitalSignature, "digitalSignature"), (.nonRepudiation, "nonRepudiation"),
            (.keyEncipherment, "keyEncipherment"), (.dataEncipherment, "dataEncipherment"),
            (.keyAgreement, "keyAgreement"), (.keyCertSign, "keyCertSign"), (.cRLSign, "cRLSign"),
            (.encipherOnly, "encipherOnly"), (.decipherOnly, "decipherOnly"),
        ]
        return names.filter { usage.contains($0.0) }.map(\.1)
    }

    static func purposeName(_ oid: OID) -> String {
        switch oid {
        case ExtendedKeyUsage.serverAuth: "serverAuth"
        case ExtendedKeyUsage.clientAuth: "clientAuth"
        case ExtendedKeyUsage.codeSigning: "codeSigning"
        case ExtendedKeyUsage.emailProtection: "emailProtection"
        case ExtendedKeyUsage.timeStamping: "timeStamping"
        case ExtendedKeyUsage.ocspSigning: "OCSPSigning"
        case ExtendedKeyUsage.anyExtendedKeyUsage: "anyExtendedKeyUsage"
        default: oid.dottedString
        }
    }

    // MARK: JSON

    private static func jsonRecord(_ certificate: Certificate, file: String, index: Int, now: Int64) -> JSONValue {
        let summary = CertificateSummary(certificate)
        var fields: [(String, JSONValue)] = [("file", .string(file)), ("index", .int(index)),
                                             ("version", .int(certificate.version.rawValue + 1))]
        fields += summary.jsonFields()
        let end = certificate.validity.notAfter.secondsSince1970
        fields.append(("days_left", .int((end - now) / 86_400)))
        fields.append(("seconds_left", .int(end - now)))
        fields.append(("validity", .string(validityState(certificate.validity, now: now))))
        fields.append(("spki_sha256_hex", .string(summary.spkiPin.hex)))
        let extensions = certificate.extensions.map { ext -> JSONValue in
            let (name, value) = describe(ext, in: certificate)
            return .object([("oid", .string(ext.oid.dottedString)), ("name", .string(name)),
                            ("critical", .bool(ext.isCritical)), ("value", .string(value))])
        }
        fields.append(("extensions", .array(extensions)))
        return .object(fields)
    }
}
