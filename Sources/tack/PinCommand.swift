// `tack pin`: the SPKI pin of every certificate or public key in the inputs, or of a
// raw key as SecKeyCopyExternalRepresentation returns it.

import TackFormats
import Foundation
import TackDER
import TackTrust
import TackX509

enum PinCommand {
    static let help = """
        USAGE: tack pin [--format base64|sha256|hex|json] [--json] FILE...
               tack pin --connect HOST[:PORT] [--servername NAME] [--timeout SECONDS] [--tls 1.2|1.3] [--format ...]
               tack pin --raw-key FILE --key-type rsa|p256|p384|p521|ed25519|x25519 [--format ...]

        Prints, for each certificate (PEM with any number of blocks, DER, or the whole
        output of `openssl s_client -showcerts`; `-` reads standard input), one line with
        its SPKI pin and its subject. The pin is SHA-256 over the DER SubjectPublicKeyInfo,
        exactly what this pipeline prints:
          openssl x509 -pubkey -noout | openssl pkey -pubin -outform der \\
            | openssl dgst -sha256 -binary | base64
        PUBLIC KEY blocks (and DER SubjectPublicKeyInfo files) are pinned too, and so are
        private keys (PKCS #8, PKCS #1 RSA, SEC1 EC; PEM or DER: the pin of their public
        half, for the backup-pin workflow "generate a key, pin it, ship the pin"; an
        Ed25519 or EC key that does not store its public half is refused), certificate
        signing requests (PKCS #10, once their signature verifies) and the certificates
        of PKCS #7 bundles (.p7b, PEM or DER).

        OPTIONS:
          --format base64   NSPinnedDomains SPKI-SHA256-BASE64 form (default)
          --format sha256   OkHttp / HPKP form: sha256/BASE64
          --format hex      lowercase hex
          --format json     (or --json) one JSON object: "pins", one object per certificate
                            or key (also with --raw-key: pins in every form, subject, issuer,
                            key, validity, certificate SHA-256), and "errors", one object
                            (code, message) per input that failed
          --raw-key FILE    the raw public key bytes from SecKeyCopyExternalRepresentation
                            (RSA: PKCS#1 RSAPublicKey DER; EC: 04||X||Y; Ed25519/X25519: 32 bytes).
                            The file may hold the bytes themselves, or hex or Base64 text.
          --key-type TYPE   the raw key's type (required with --raw-key)
          --connect HOST[:PORT]
                            pin the chain the server serves (a TLS handshake by Tack's
                            own client, as tack fetch runs it) instead of FILEs
        \(Connection.optionsHelp)

        With --raw-key, prints the pin of the rebuilt SubjectPublicKeyInfo and the header
        bytes (in hex) that precede the raw key in it: the bytes an app prepends to the
        output of SecKeyCopyExternalRepresentation before hashing.

        Given a certificate, a PEM file or a SubjectPublicKeyInfo, --raw-key says so and
        prints that input's pin; a wrong key length prints the expected and actual lengths.

        EXAMPLES:
          tack pin Vectors/certs/chain-example.pem
          openssl s_client -connect example.com:443 -showcerts </dev/null | tack pin -
          tack pin --raw-key Vectors/certs/p256-leaf.rawkey.hex --key-type p256
          tack pin Vectors/certs/keys/p256-leaf.key.pem Vectors/cli-inputs/p256-leaf.csr.pem Vectors/cli-inputs/chain-example.p7b.der

        Exit status: 0 on success, 1 if an input could not be read or parsed (the message
        names the file, the certificate's index and the byte offset; the certificates that
        parse are still printed), 2 on a usage error.
        """

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: Set(["--format", "--raw-key", "--key-type", "--connect"] + Connection.valued), switches: ["--json"])
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        let format = try OutputFormat(args)
        if let rawKeyPath = try args.value("--raw-key") {
            guard args.operands.isEmpty, try args.value("--connect") == nil else { throw .usage("--raw-key takes no other files") }
            guard let typeName = try args.value("--key-type") else { throw .usage("--raw-key needs --key-type") }
            guard let type = PublicKeyType(name: typeName) else {
                throw .usage("unknown key type \(typeName) (rsa, p256, p384, p521, ed25519, x25519, ed448, x448)")
            }
            try pinRawKey(path: rawKeyPath, type: type, format: format, io: io)
            return .success
        }
        guard try args.value("--key-type") == nil else { throw .usage("--key-type goes with --raw-key") }
        let sources = try InputSource.operandsOrConnection(args, command: "pin", missing: "tack pin needs at least one FILE (or - for standard input)")

        // Every good certificate is printed, even beside a bad one; each failure is
        // reported on standard error (and in the JSON) and the exit status is 1.
        var records: [JSONValue] = []
        var failures: [CLIError] = []
        InputSource.readEach(sources, io: io, failed: { error in
            failures.append(error)
            io.warn(error.description)
        }) { name, bytes in
            let found = readObjects(bytes, name: name)
            for object in found.objects {
                switch format {
                case .json: records.append(jsonRecord(object, file: name))
                case .pin(let pinFormat): io.emit(line(object, format: pinFormat))
                }
            }
            for failure in found.failures { io.warn(failure.description) }
            failures += found.failures
        }
        if format == .json {
            io.emit(JSONValue.object([("pins", .array(records)), ("errors", .array(failures.map(errorRecord)))]).serialized())
        }
        if !failures.isEmpty {
            io.warn(CLIError.inputsFailed(failures.count).description)
            return .failure
        }
        return .success
    }

    /// `--format json` prints one shape for every input: an object with the pins and
    /// the inputs that failed.
    enum OutputFormat: Equatable {
        case pin(PinFormat)
        case json

        init(_ args: Arguments) throws(CLIError) {
            let text = try args.value("--format")
            if args.isSet("--json") {
                guard text == nil || text == "json" else { throw .usage("--json and --format \(text ?? "") disagree") }
                self = .json
                return
            }
            switch text ?? "base64" {
            case "base64", "text": self = .pin(.base64)
            case "sha256": self = .pin(.sha256Base64)
            case "hex": self = .pin(.hex)
            case "json": self = .json
            case let other: throw .usage("unknown format \(other) (base64, sha256, hex, json)")
            }
        }
    }

    private static func line(_ object: InputObject, format pinFormat: PinFormat) -> String {
        switch object {
        case .certificate(let certificate):
            return "\(certificate.spkiPin.formatted(pinFormat))  \(subjectLine(certificate))"
        case .publicKey(let key, let source):
            return "\(SPKIPin(key).formatted(pinFormat))  (\(source.rawValue.replacingOccurrences(of: "_", with: " ")): \(key.algorithm))"
        }
    }

    private static func jsonRecord(_ object: InputObject, file: String) -> JSONValue {
        var fields: [(String, JSONValue)] = [("file", .string(file))]
        let key: SubjectPublicKeyInfo
        switch object {
        case .certificate(let certificate):
            key = certificate.publicKeyInfo
            fields.append(("kind", .string("certificate")))
            fields.append(("subject", .string(subjectLine(certificate))))
            fields.append(("issuer", .string(issuerLine(certificate))))
            fields.append(("not_before", .string(certificate.validity.notBefore.description)))
            fields.append(("not_after", .string(certificate.validity.notAfter.description)))
            fields.append(("certificate_sha256", .string(certificate.fingerprint.hex)))
        case .publicKey(let info, let source):
            key = info
            fields.append(("kind", .string(source.rawValue)))
        }
        let pin = SPKIPin(key)
        fields.append(("key_algorithm", .string(key.algorithm.description)))
        fields.append(("key_bits", key.keySizeInBits.map(JSONValue.int) ?? .null))
        fields += pinFields(pin)
        return .object(fields)
    }

    /// The pin in its three forms, the same keys in every record.
    private static func pinFields(_ pin: SPKIPin) -> [(String, JSONValue)] {
        [("spki_sha256_base64", .string(pin.base64)), ("spki_sha256_pin", .string(pin.sha256Base64)),
         ("spki_sha256_hex", .string(pin.hex))]
    }

    /// A failed input in the JSON: its code and message.
    static func errorRecord(_ error: CLIError) -> JSONValue {
        .object([("code", .string(error.code)), ("message", .string(error.description))])
    }

    /// Raw key bytes from a file that holds them as binary, hex text or Base64 text;
    /// `nil` for text that is none of these.
    private static func rawKeyBytes(_ bytes: [UInt8]) -> [UInt8]? {
        guard isPlainText(bytes) else { return bytes }
        let text = String(decoding: bytes, as: UTF8.self)
        let compact = text.filter { !$0.isWhitespace && $0 != ":" }
        if compact.count % 2 == 0, compact.allSatisfy(\.isHexDigit) {
            var out: [UInt8] = []
            var index = compact.startIndex
            while index < compact.endIndex {
                let next = compact.index(index, offsetBy: 2)
                guard let byte = UInt8(compact[index..<next], radix: 16) else { return nil }
                out.append(byte)
                index = next
            }
            return out
        }
        if let decoded = try? Base64.decode(text, options: .ignoringWhitespace) { return decoded }
        return nil
    }

    /// The most likely mistakes with `--raw-key`, recognised before the raw key is
    /// encoded: a PEM file, a DER certificate or SubjectPublicKeyInfo (already what the
    /// pin is computed over), a raw key of another type, a wrong length, a compressed
    /// or non-point EC key. Returns its code and message, or `nil` if nothing is recognised.
    private static func rawKeyMistake(file bytes: [UInt8], raw: [UInt8]?, type: PublicKeyType, name: String) -> (code: String, message: String)? {
        let drop = "drop --raw-key and --key-type (tack pin \(name))"
        if bytes.contains(text: "-----BEGIN ") {
            let found = readObjects(bytes, name: name)
            switch found.objects.first {
            case .certificate(let certificate)?:
                return ("raw_key_is_certificate", "\(name): this is a PEM certificate, not a raw key; \(drop); its SPKI pin is \(certificate.spkiPin.base64)")
            case .publicKey(let key, _)?:
                return ("raw_key_is_public_key", "\(name): this is a PEM PUBLIC KEY (a SubjectPublicKeyInfo), not a raw key; \(drop); its pin is \(SPKIPin(key).base64)")
            case nil:
                return ("raw_key_is_pem", "\(name): this is a PEM file, not a raw key, and it holds no certificate or public key")
            }
        }
        guard let raw else {
            return ("raw_key_not_hex_or_base64", "\(name): the file is plain text but neither hex nor Base64, so not a raw key")
        }
        if let certificate = try? Certificate(derEncoded: raw) {
            return ("raw_key_is_certificate", "\(name): this is a DER certificate, not a raw key; \(drop); its SPKI pin is \(certificate.spkiPin.base64)")
        }
        if let key = try? SubjectPublicKeyInfo(derEncoded: raw) {
            return ("raw_key_is_public_key", "\(name): this is already a SubjectPublicKeyInfo; \(drop); its pin is \(SPKIPin(key).base64)")
        }
        // A fixed-length key of another type given with this one's --key-type.
        let otherTypes = PublicKeyType.allCases.filter { other in
            other != type && other.rawKeyByteCount == raw.count
                && ([.p256, .p384, .p521].contains(other) ? raw.first == 0x04 : true)
        }
        switch type {
        case .rsa:
            if (try? SubjectPublicKeyInfo.encode(rawKey: raw, type: .rsa)) == nil, !otherTypes.isEmpty {
                let names = otherTypes.map(\.name).joined(separator: " or ")
                return ("raw_key_wrong_type", "\(name): \(raw.count) bytes that are not a PKCS #1 RSAPublicKey; it has the length of a raw \(names) key: try --key-type \(otherTypes[0].name)")
            }
        case .p256, .p384, .p521:
            let expected = type.rawKeyByteCount ?? 0
            let coordinate = (expected - 1) / 2
            if raw.count == coordinate + 1, raw.first == 0x02 || raw.first == 0x03 {
                return ("raw_key_compressed_point", "\(name): raw \(type) key is a compressed point (\(raw.count) bytes starting 0x0\(raw[0])); SecKeyCopyExternalRepresentation gives the uncompressed \(expected)-byte form 04 ‖ X ‖ Y")
            }
            if raw.count != expected {
                var message = "\(name): raw \(type) key is \(raw.count) bytes, expected \(expected) (04 ‖ X ‖ Y, \(coordinate)-byte coordinates)"
                if !otherTypes.isEmpty { message += "; \(raw.count) bytes is a raw \(otherTypes.map(\.name).joined(separator: " or ")) key" }
                return ("raw_key_wrong_length", message)
            }
            if raw.first != 0x04 {
                return ("raw_key_not_uncompressed_point", "\(name): raw \(type) key starts with 0x\(Hex.encode(raw.prefix(1))), expected 0x04 (an uncompressed point 04 ‖ X ‖ Y)")
            }
        case .ed25519, .ed448, .x25519, .x448:
            let expected = type.rawKeyByteCount ?? 0
            if raw.count != expected {
                var message = "\(name): raw \(type) key is \(raw.count) bytes, expected \(expected)"
                if !otherTypes.isEmpty { message += "; \(raw.count) bytes is a raw \(otherTypes.map(\.name).joined(separator: " or ")) key" }
                return ("raw_key_wrong_length", message)
            }
        }
        return nil
    }

    private static func pinRawKey(path: String, type: PublicKeyType, format: OutputFormat, io: Console) throws(CLIError) {
        let name = inputName(path)
        let bytes = try readInput(path, io: io)
        guard !bytes.isEmpty else { throw CLIError("\(name): empty input", code: "empty_input") }
        let decoded = rawKeyBytes(bytes)
        if let mistake = rawKeyMistake(file: bytes, raw: decoded, type: type, name: name) {
            throw CLIError(mistake.message, code: mistake.code)
        }
        let raw = decoded ?? bytes
        let spki: [UInt8]
        do {
            spki = try SubjectPublicKeyInfo.encode(rawKey: raw, type: type)
        } catch {
            throw CLIError("\(name): raw \(type.name) key: \(error)", code: "malformed_raw_key")
        }
        let pin = SPKIPin(spkiDER: spki[...])
        let header = spki.prefix(spki.count - raw.count)
        switch format {
        case .json:
            let record = JSONValue.object([("file", .string(name)), ("kind", .string("raw_key")), ("key_type", .string(type.name))]
                + pinFields(pin) + [("spki_header_hex", .string(Hex.encode(header))), ("spki_hex", .string(Hex.encode(spki)))])
            io.emit(JSONValue.object([("pins", .array([record])), ("errors", .array([]))]).serialized())
        case .pin(let pinFormat):
            io.emit("\(pin.formatted(pinFormat))  (\(type.name) raw key, \(raw.count) bytes)")
            io.emit("SPKI header (\(header.count) bytes): \(Hex.encode(header, separator: " "))")
        }
    }
}
