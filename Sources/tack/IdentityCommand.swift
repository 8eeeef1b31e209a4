// `tack identity`: opens a PKCS #12 file (.p12/.pfx) as SecPKCS12Import does and
// prints its identities, the other certificates, and the schemes with their
// warnings. The passphrase never comes from an argument.

import TackFormats
import Foundation
import TackDER
import TackPKCS12
import TackSignature
import TackTrust
import TackX509

enum IdentityCommand {
    static let help = """
        USAGE: tack identity [--passphrase-env VAR | --passphrase-file F | --passphrase-stdin]
                             [--roots FILE]... [--system-roots] [--host NAME]
                             [--allow-no-mac] [--format text|json] [--json] [--at TIME] FILE...

        Reads a PKCS #12 file (.p12, .pfx; BER or DER) and prints each identity (a
        certificate with its private key): subject, issuer, validity with the days left,
        key type and bits, whether the key matches the certificate, the key ID (SHA-1 of
        the subjectPublicKey bits, as SecPKCS12Import's kSecImportItemKeyID), the local
        key ID and friendly name, the SPKI pin, and its chain from the leaf (built by the
        path builder over the file's certificates, each signed by the next; no anchor
        needed, not validated); then the certificates without a key, the MAC and
        encryption schemes, and the warnings (SHA-1 MAC, RC2-40, fewer than 2,048
        iterations, no MAC, ...). Key material is never printed.

        The passphrase is never an argument (it would show in ps and shell history):
          --passphrase-env VAR   the value of environment variable VAR
          --passphrase-file F    the first line of file F
          --passphrase-stdin     the first line of standard input
        Without one, the empty and the absent passphrase are both tried, as OpenSSL does.

        OPTIONS:
          --allow-no-mac   read a file that has no MAC (its integrity cannot be checked)
          --format json    (or --json) one object: identities (certificate_sha256,
                           subject, key_type, key_bits, key_matches, key_id, local_key_id,
                           friendly_name, spki_sha256, chain_sha256, trust), certificates
                           (sha256, subject, friendly_name, local_key_id),
                           keys_without_certificate, mac (algorithm, iterations, or null),
                           encryption (content, scheme, iterations), warnings (code,
                           part: MAC, encryption, key bag, certificate bag, ...; message)
          --at TIME        the time the days left and the trust are evaluated at
                           (default: the clock); --now is the same option
          --roots FILE     evaluate each identity's trust against these anchors (PEM or
                           DER, or a directory; repeatable), with the file's other
                           certificates as intermediates
          --system-roots   evaluate against the system bundle (also with --roots)
          --host NAME      evaluate as a TLS server certificate for NAME (serverAuth);
                           without it, as a client certificate (clientAuth EKU)
        Without --roots or --system-roots, trust is not evaluated (`trust` is null).
        `trust` is {"verdict", "code", "purpose", "host", "failures"} otherwise, each
        failure {"code", "message"} as in tack verify.

        A bag Tack cannot read (a DSA key, say) does not stop the read: everything else
        is listed and the bag is a warning with its reason (code unreadable_key); a key
        stored without encryption is a warning too (unencrypted_key).

        EXAMPLES:
          tack identity --allow-no-mac Vectors/pkcs12/openssl-rsa-plain.p12
          tack identity --allow-no-mac --json Vectors/pkcs12/openssl-rsa-plain.p12 Vectors/pkcs12/openssl-p256-plain.p12

        Several FILEs (one passphrase for all) are reported one after the other, each under
        its name; with --format json, as an array of the objects above, with an error
        object ({"error": {code, message, exit_status}}) for a file that could not be read.

        Exit status: 0 the files were read, warnings or not (and, if asked, every identity is trusted),
        1 bad input or wrong passphrase (the message says which), 2 usage error,
        3 an identity is not trusted.
        """

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(
            arguments, valued: ["--passphrase-env", "--passphrase-file", "--format", "--at", "--now", "--roots", "--host"],
            switches: ["--passphrase-stdin", "--allow-no-mac", "--json", "--system-roots"])
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        let format = try args.outputFormat()
        guard !args.operands.isEmpty else { throw .usage("tack identity needs a FILE") }
        let now = try args.time(alias: "--now")
        let peer = try args.value("--host").map { (text) throws(CLIError) in try parsePeer(text) }
        let roots = args.values("--roots")
        let evaluatesTrust = !roots.isEmpty || args.isSet("--system-roots")
        if peer != nil && !evaluatesTrust {
            throw .usage("--host needs --roots FILE or --system-roots to evaluate against")
        }
        let passphrase = try readPassphrase(args, readsStandardInput: args.operands.contains("-"), io: io)
        var options = PKCS12Options()
        options.readsFilesWithoutMAC = args.isSet("--allow-no-mac")
        let anchors = evaluatesTrust ? try readAnchors(roots, systemRoots: args.isSet("--system-roots"), io: io) : nil

        /// One file: its JSON or text, and whether every identity is trusted.
        func report(_ path: String) throws(CLIError) -> (output: JSONValue, text: String, trusted: Bool) {
            let bytes = try readInput(path, io: io)
            let file: PKCS12File
            do {
                file = try PKCS12File(berEncoded: bytes, passphrase: passphrase, options: options)
            } catch {
                throw CLIError("\(inputName(path)): \(error.description)", code: errorCode(error))
            }
            let trust = anchors.map { evaluateTrust(file, anchors: $0, peer: peer, time: now) }
            return (json(file, trust: trust, peer: peer), text(file, now: now, trust: trust, peer: peer),
                    !(trust ?? []).contains { !$0.isTrusted })
        }

        // One FILE: its object (a failure is the command's). Several: an array with an
        // error object for each file that could not be read, which the others do not stop.
        if args.operands.count == 1 {
            let result = try report(args.operands[0])
            io.emit(format == .json ? result.output.serialized() : result.text)
            return result.trusted ? .success : .untrusted
        }
        var documents: [JSONValue] = []
        var failed = 0
        var allTrusted = true
        for (index, path) in args.operands.enumerated() {
            do {
                let result = try report(path)
                documents.append(result.output)
                allTrusted = allTrusted && result.trusted
                if format == .text { io.emit((index > 0 ? "\n" : "") + "== \(inputName(path)) ==\n" + result.text) }
            } catch {
                io.warn(error.description)
                documents.append(error.json)
                failed += 1
            }
        }
        if format == .json { io.emit(JSONValue.array(documents).serialized()) }
        if failed > 0 {
            io.warn(CLIError.inputsFailed(failed).description)
            return .failure
        }
        return allTrusted ? .success : .untrusted
    }

    // MARK: Trust

    /// Each identity's certificate validated to `anchors` at `time`, the file's other
    /// certificates as intermediates: for `peer` as a server, or as a TLS client.
    static func evaluateTrust(_ file: PKCS12File, anchors: AnchorStore, peer: PeerHost?, time: Int64) -> [TrustDecision] {
        let options = TrustOptions(purpose: peer == nil ? .clientAuthentication : .serverAuthentication)
        let evaluator = TrustEvaluator(anchors: anchors, options: options)
        return file.identities.map { identity in
            let others = file.certificates.indices.filter { $0 != identity.certificateIndex }
                .map { file.certificates[$0].certificate }
            // No pin policy: an identity is checked for trust only (`host: nil` also skips
            // the name check, for a client certificate).
            return evaluator.evaluate(
                servedChain: [file.certificates[identity.certificateIndex].certificate] + others,
                host: peer, at: time)
        }
    }

    static func trustJSON(_ decision: TrustDecision?, peer: PeerHost?) -> JSONValue {
        guard let decision else { return .null }
        return .object([
            ("verdict", .string(decision.isTrusted ? "trusted" : "untrusted")),
            ("code", .string(decision.code)),
            ("purpose", .string(peer == nil ? "client_auth" : "server_auth")),
            ("host", .optional(peer.map { $0.description })),
            ("failures", .array(decision.details.failures.map { failure in
                .object([("code", .string(failure.code)), ("message", .string(failure.description))])
            })),
        ])
    }

    static func trustText(_ decision: TrustDecision?, peer: PeerHost?) -> String {
        guard let decision else { return "not evaluated (no --roots)" }
        let purpose = peer.map { "as the server \($0.description)" } ?? "as a TLS client"
        if decision.isTrusted { return "trusted " + purpose }
        return "NOT trusted " + purpose + ": " + decision.details.failures.map { $0.description }.joined(separator: "; ")
    }

    // MARK: Passphrase

    private static func readPassphrase(_ args: Arguments, readsStandardInput: Bool, io: Console) throws(CLIError) -> String? {
        let variable = try args.value("--passphrase-env")
        let file = try args.value("--passphrase-file")
        let stdin = args.isSet("--passphrase-stdin")
        let count = (variable == nil ? 0 : 1) + (file == nil ? 0 : 1) + (stdin ? 1 : 0)
        guard count <= 1 else {
            throw .usage("give at most one of --passphrase-env, --passphrase-file and --passphrase-stdin")
        }
        let raw: [UInt8]
        if let variable {
            guard let value = ProcessInfo.processInfo.environment[variable] else {
                throw .usage("--passphrase-env: environment variable \(variable) is not set")
            }
            return value
        } else if let file {
            raw = try readInput(file, io: io)
        } else if stdin {
            guard !readsStandardInput else { throw .usage("--passphrase-stdin and FILE - both read standard input") }
            raw = try io.readAllInput()
        } else {
            return nil
        }
        // The first line, without its line ending.
        var line = raw.prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        guard let text = String(validating: line, as: UTF8.self) else {
            throw CLIError("the passphrase is not UTF-8", code: "bad_passphrase")
        }
        return text
    }

    private static func errorCode(_ error: PKCS12Error) -> String {
        switch error.reason {
        case .wrongPassphrase: "wrong_passphrase"
        case .wrongPassphraseOrCorrupted: "wrong_passphrase_or_corrupted"
        default: "invalid_pkcs12"
        }
    }

    // MARK: Content

    /// Why an identity's chain ends, in words.
    static func chainEndText(_ end: IssuerChain.End) -> String {
        switch end {
        case .selfIssued: "(ends in a self-issued certificate)"
        case .issuerNotFound: "(ends here: the file has no certificate of the next issuer)"
        case .issuerRejected(let failure): "(stops short: \(failure))"
        case .budgetExhausted(let failure): "(stops short: \(failure))"
        }
    }

    static func keyMatches(_ identity: PKCS12Identity) -> Bool {
        identity.match != .localKeyIDOnly
    }

    static func hex(_ bytes: [UInt8]?) -> String? { bytes.map { Hex.encode($0) } }

    static func encryptionEntries(_ file: PKCS12File) -> [(content: String, scheme: PKCS12EncryptionScheme)] {
        var entries: [(String, PKCS12EncryptionScheme)] = []
        for (index, content) in file.contents.enumerated() {
            if case .encrypted(let scheme) = content { entries.append(("content \(index + 1)", scheme)) }
        }
        for (index, key) in file.keys.enumerated() {
            if let scheme = key.encryption { entries.append(("key \(index + 1)", scheme)) }
        }
        for warning in file.warnings {
            if case .unreadableKey(_, let scheme?) = warning { entries.append(("key not read", scheme)) }
        }
        return entries
    }

    // MARK: JSON

    static func json(_ file: PKCS12File, trust: [TrustDecision]?, peer: PeerHost?) -> JSONValue {
        let identities: [JSONValue] = file.identities.enumerated().map { number, identity in
            let entry = file.certificates[identity.certificateIndex]
            let key = file.keys[identity.keyIndex]
            return .object([
                ("certificate_sha256", .string(CertificateFingerprint(entry.certificate).hex)),
                ("subject", .string(CertificateSummary(entry.certificate).subject)),
                ("key_type", .string(key.key.algorithm.description)),
                ("key_bits", .int(key.key.keySizeInBits)),
                ("key_matches", .bool(keyMatches(identity))),
                ("key_id", .optional(hex(identity.keyID))),
                ("local_key_id", .optional(hex(entry.attributes.localKeyID ?? key.attributes.localKeyID))),
                ("friendly_name", .optional(entry.attributes.friendlyName ?? key.attributes.friendlyName)),
                ("spki_sha256", .string(identity.spkiPin.hex)),
                ("chain_sha256", .strings(identity.chain.indices.map {
                    CertificateFingerprint(file.certificates[$0].certificate).hex
                })),
                ("trust", trustJSON(trust?[number], peer: peer)),
            ])
        }
        let certificates: [JSONValue] = file.certificates.map { entry in
            .object([
                ("sha256", .string(CertificateFingerprint(entry.certificate).hex)),
                ("subject", .string(CertificateSummary(entry.certificate).subject)),
                ("friendly_name", .optional(entry.attributes.friendlyName)),
                ("local_key_id", .optional(hex(entry.attributes.localKeyID))),
            ])
        }
        let mac: JSONValue = file.mac.map { .object([("algorithm", .string($0.description)), ("iterations", .int($0.iterations))]) } ?? .null
        let encryption: [JSONValue] = encryptionEntries(file).map { entry in
            .object([("content", .string(entry.content)), ("scheme", .string(entry.scheme.description)),
                     ("iterations", .int(entry.scheme.iterations))])
        }
        return .object([
            ("identities", .array(identities)),
            ("certificates", .array(certificates)),
            ("keys_without_certificate", .int(file.keysWithoutCertificate.count)),
            ("mac", mac),
            ("encryption", .array(encryption)),
            ("warnings", .array(file.warnings.map { warning in
                .object([("code", .string(warning.code)), ("part", .string(warning.part)), ("message", .string(warning.description))])
            })),
        ])
    }

    // MARK: Text

    static func text(_ file: PKCS12File, now: Int64, trust: [TrustDecision]?, peer: PeerHost?) -> String {
        var lines: [String] = []
        func add(_ label: String, _ value: String) {
            lines.append("  " + label.padding(toLength: 20, withPad: " ", startingAt: 0) + value)
        }
        for (number, identity) in file.identities.enumerated() {
            let entry = file.certificates[identity.certificateIndex]
            let key = file.keys[identity.keyIndex]
            let summary = CertificateSummary(entry.certificate)
            if !lines.isEmpty { lines.append("") }
            lines.append("Identity \(number + 1) of \(file.identities.count)")
            add("Subject:", summary.subject)
            add("Issuer:", summary.issuer)
            add("Not after:", summary.notAfter.description + "  ("
                + ShowCommand.validityPhrase(entry.certificate.validity, now: now) + ")")
            add("Key:", "\(key.key.algorithm) \(key.key.keySizeInBits) bits")
            add("Key matches:", keyMatches(identity) ? "yes (\(identity.match))" : "not verified (\(identity.match))")
            add("Key ID:", hex(identity.keyID) ?? "-")
            add("Local key ID:", hex(entry.attributes.localKeyID ?? key.attributes.localKeyID) ?? "-")
            add("Friendly name:", entry.attributes.friendlyName ?? key.attributes.friendlyName ?? "-")
            add("SPKI pin:", identity.spkiPin.base64)
            for (position, index) in identity.chain.indices.enumerated() {
                add(position == 0 ? "Chain:" : "", CertificateSummary(file.certificates[index].certificate).subject)
            }
            add("", chainEndText(identity.chain.end))
            add("Trust:", trustText(trust?[number], peer: peer))
        }
        let others = file.certificatesWithoutKey
        if !others.isEmpty {
            if !lines.isEmpty { lines.append("") }
            lines.append("Certificates without a key: \(others.count)")
            for index in others {
                let entry = file.certificates[index]
                add("-", CertificateSummary(entry.certificate).subject
                    + (entry.attributes.friendlyName.map { " (\($0))" } ?? ""))
            }
        }
        if !file.keysWithoutCertificate.isEmpty {
            lines.append("Keys without a certificate: \(file.keysWithoutCertificate.count)")
        }
        if !lines.isEmpty { lines.append("") }
        lines.append("MAC: " + (file.mac.map { "\($0), \($0.iterations) iterations" } ?? "none"))
        for entry in encryptionEntries(file) {
            lines.append("Encryption (\(entry.content)): \(entry.scheme), \(entry.scheme.iterations) iterations")
        }
        if file.isBER { lines.append("Encoding: BER") }
        for warning in file.warnings { lines.append("warning: \(warning) [\(warning.part): \(warning.code)]") }
        return lines.joined(separator: "\n")
    }
}
