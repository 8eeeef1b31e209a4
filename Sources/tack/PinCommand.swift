// `tack pin`: the SPKI pin of every certificate or public key in the inputs, or of a
// raw key as SecKeyCopyExternalRepresentation returns it.

import Foundation
import TackDER
import TackX509

enum PinCommand {
    static let help = """
        USAGE: tack pin [--format base64|sha256|hex|json] FILE...
               tack pin --raw-key FILE --key-type rsa|p256|p384|p521|ed25519|x25519 [--format ...]

        Prints, for each certificate (PEM with any number of blocks, DER, or the whole
        output of `openssl s_client -showcerts`; `-` reads standard input), one line with
        its SPKI pin and its subject. The pin is SHA-256 over the DER SubjectPublicKeyInfo,
        exactly what this pipeline prints:
          openssl x509 -pubkey -noout | openssl pkey -pubin -outform der \\
            | openssl dgst -sha256 -binary | base64
        PUBLIC KEY blocks (and DER SubjectPublicKeyInfo files) are pinned too.

        OPTIONS:
          --format base64   NSPinnedDomains SPKI-SHA256-BASE64 form (default)
          --format sha256   OkHttp / HPKP form: sha256/BASE64
          --format hex      lowercase hex
          --format json     a JSON array: pins in every form, subject, issuer, key, validity,
                            certificate SHA-256
          --raw-key FILE    the raw public key bytes from SecKeyCopyExternalRepresentation
                            (RSA: PKCS#1 RSAPublicKey DER; EC: 04||X||Y; Ed25519/X25519: 32 bytes).
                            The file may hold the bytes themselves, or hex or Base64 text.
          --key-type TYPE   the raw key's type (required with --raw-key)

        With --raw-key, prints the pin of the rebuilt SubjectPublicKeyInfo and the header
        bytes (in hex) that precede the raw key in it: the bytes an app prepends to the
        output of SecKeyCopyExternalRepresentation before hashing.

        Exit status: 0 on success, 1 if an input could not be read or parsed (the message
        names the file, the certificate's index and the byte offset), 2 on a usage error.
        """

    static func run(_ arguments: [String]) throws(CLIError) {
        let args = try Arguments(arguments, valued: ["--format", "--raw-key", "--key-type"], switches: ["--help", "-h"])
        if args.isSet("--help") || args.isSet("-h") {
            emit(help)
            return
        }
        let format = try OutputFormat(args.value("--format") ?? "base64")
        if let rawKeyPath = args.value("--raw-key") {
            guard args.operands.isEmpty else { throw .usage("--raw-key takes no other files") }
            guard let typeName = args.value("--key-type") else { throw .usage("--raw-key needs --key-type") }
            guard let type = PublicKeyType(name: typeName) else {
                throw .usage("unknown key type \(typeName) (rsa, p256, p384, p521, ed25519, x25519)")
            }
            try pinRawKey(path: rawKeyPath, type: type, format: format)
            return
        }
        guard args.value("--key-type") == nil else { throw .usage("--key-type goes with --raw-key") }
        guard !args.operands.isEmpty else { throw .usage("tack pin needs at least one FILE (or - for standard input)") }

        var records: [String] = []
        var failures: [CLIError] = []
        for path in args.operands {
            let name = path == "-" ? "<stdin>" : path
            do {
                let objects = try readObjects(try readInput(path), name: name)
                for object in objects {
                    switch format {
                    case .json: records.append(jsonRecord(object, file: name))
                    default: emit(line(object, format: format))
                    }
                }
            } catch {
                failures.append(error)
                warn(error.description)
            }
        }
        if format == .json {
            emit("[\n" + records.map { "  " + $0 }.joined(separator: ",\n") + "\n]")
        }
        if let first = failures.first {
            throw CLIError("\(failures.count) input\(failures.count == 1 ? "" : "s") failed", status: first.status)
        }
    }

    enum OutputFormat: Equatable {
        case pin(PinFormat)
        case json

        init(_ text: String) throws(CLIError) {
            switch text {
            case "base64": self = .pin(.base64)
            case "sha256": self = .pin(.sha256Base64)
            case "hex": self = .pin(.hex)
            case "json": self = .json
            default: throw .usage("unknown format \(text) (base64, sha256, hex, json)")
            }
        }
    }

    private static func line(_ object: InputObject, format: OutputFormat) -> String {
        let pinFormat: PinFormat = if case .pin(let f) = format { f } else { .base64 }
        switch object {
        case .certificate(let certificate):
            return "\(certificate.spkiPin.formatted(pinFormat))  \(subjectText(certificate))"
        case .publicKey(let key):
            return "\(SPKIPin(key).formatted(pinFormat))  (public key: \(key.algorithm))"
        }
    }

    private static func subjectText(_ certificate: Certificate) -> String {
        guard let name = try? DistinguishedName(derEncoded: certificate.derEncoded, range: certificate.subjectRange) else {
            return "(undecodable subject)"
        }
        return name.isEmpty ? "(empty subject)" : name.rfc4514String
    }

    private static func jsonRecord(_ object: InputObject, file: String) -> String {
        var fields: [(String, String)] = [("file", jsonString(file))]
        let key: SubjectPublicKeyInfo
        switch object {
        case .certificate(let certificate):
            key = certificate.publicKeyInfo
            fields.append(("kind", jsonString("certificate")))
            fields.append(("subject", jsonString(subjectText(certificate))))
            let issuer = (try? DistinguishedName(derEncoded: certificate.derEncoded, range: certificate.issuerRange))?
                .rfc4514String ?? "(undecodable issuer)"
            fields.append(("issuer", jsonString(issuer)))
            fields.append(("notBefore", jsonString(certificate.validity.notBefore.description)))
            fields.append(("notAfter", jsonString(certificate.validity.notAfter.description)))
            fields.append(("certificateSHA256", jsonString(certificate.fingerprint.hex)))
        case .publicKey(let info):
            key = info
            fields.append(("kind", jsonString("publicKey")))
        }
        let pin = SPKIPin(key)
        fields.append(("keyAlgorithm", jsonString(key.algorithm.description)))
        fields.append(("keyBits", key.keySizeInBits.map(String.init) ?? "null"))
        fields.append(("spkiSHA256Base64", jsonString(pin.base64)))
        fields.append(("spkiSHA256Pin", jsonString(pin.sha256Base64)))
        fields.append(("spkiSHA256Hex", jsonString(pin.hex)))
        return "{" + fields.map { "\(jsonString($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// Raw key bytes from a file that holds them as binary, hex text or Base64 text.
    private static func rawKeyBytes(_ bytes: [UInt8]) -> [UInt8] {
        let isText = bytes.allSatisfy { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || ($0 >= 0x20 && $0 < 0x7F) }
        guard isText, !bytes.isEmpty else { return bytes }
        let text = String(decoding: bytes, as: UTF8.self)
        let compact = text.filter { !$0.isWhitespace && $0 != ":" }
        if compact.count % 2 == 0, compact.allSatisfy(\.isHexDigit) {
            var out: [UInt8] = []
            var index = compact.startIndex
            while index < compact.endIndex {
                let next = compact.index(index, offsetBy: 2)
                guard let byte = UInt8(compact[index..<next], radix: 16) else { return bytes }
                out.append(byte)
                index = next
            }
            return out
        }
        if let decoded = try? Base64.decode(text, options: .ignoringWhitespace) { return decoded }
        return bytes
    }

    private static func pinRawKey(path: String, type: PublicKeyType, format: OutputFormat) throws(CLIError) {
        let name = path == "-" ? "<stdin>" : path
        let raw = rawKeyBytes(try readInput(path))
        let spki: [UInt8]
        do {
            spki = try SubjectPublicKeyInfo.encode(rawKey: raw, type: type)
        } catch {
            throw CLIError("\(name): raw \(type.name) key: \(error)")
        }
        let pin = SPKIPin(spkiDER: spki[...])
        let header = spki.prefix(spki.count - raw.count)
        switch format {
        case .json:
            emit("""
                {"file": \(jsonString(name)), "keyType": \(jsonString(type.name)), \
                "spkiSHA256Base64": \(jsonString(pin.base64)), "spkiSHA256Pin": \(jsonString(pin.sha256Base64)), \
                "spkiSHA256Hex": \(jsonString(pin.hex)), "spkiHeaderHex": \(jsonString(hexString(header))), \
                "spkiHex": \(jsonString(hexString(spki)))}
                """)
        case .pin(let pinFormat):
            emit("\(pin.formatted(pinFormat))  (\(type.name) raw key, \(raw.count) bytes)")
            emit("SPKI header (\(header.count) bytes): \(hexString(header, separator: " "))")
        }
    }
}
