// Shared command-line plumbing: errors, output, the argument parser, input files.

import TackFormats
import Foundation
import TackDER
import TackTrust
import TackX509

/// A failure the user should see: printed as `tack: MESSAGE` on standard error (and,
/// with `--format json`, as an error object on standard output).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    /// The process exit status: ``ExitCode/failure`` for input problems,
    /// ``ExitCode/usage`` for usage errors.
    let status: ExitCode
    /// A stable identifier of the kind of failure (snake_case), for JSON output and tests.
    let code: String

    init(_ description: String, status: ExitCode = .failure, code: String = "bad_input") {
        self.description = description
        self.status = status
        self.code = code
    }

    /// A failure with a numeric status (2: usage, anything else: input failure), for
    /// the vector-suite runners.
    init(_ description: String, status: Int32) {
        self.init(description, status: status == 2 ? .usage : .failure, code: status == 2 ? "usage" : "bad_input")
    }

    /// A usage error: the dispatcher prints the message, then the command's usage, and
    /// the status is 2.
    static func usage(_ message: String, code: String = "usage") -> CLIError {
        CLIError(message, status: .usage, code: code)
    }

    var isUsageError: Bool { status == .usage }

    /// The error object printed on standard output under `--format json`.
    var json: JSONValue {
        .object([("error", .object([
            ("code", .string(code)), ("message", .string(description)), ("exit_status", .int(status.rawValue)),
        ]))])
    }
}

/// `--format text|json` (and `--json`, its short form), for the commands that print
/// results.
enum OutputFormat: Equatable {
    case text
    case json
}

/// The one command-line parser every command uses: `--flag value`, `--flag=value`,
/// `--switch`, operands, `--` (everything after it is an operand) and `-` (an operand:
/// standard input). Options may come before, between or after operands.
///
/// Every command declares its options up front; anything else is a usage error
/// (`main` then prints the command's usage and exits 2). `--help` and `-h` are always
/// accepted and reported by ``wantsHelp``. A valued option given twice keeps every
/// value in order (``values(_:)``); ``value(_:)`` refuses a repeat of an option that
/// takes one value.
struct Arguments {
    private(set) var operands: [String] = []
    private var options: [String: [String]] = [:]
    private var switches: Set<String> = []

    /// Splits `arguments`.
    /// - Parameters:
    ///   - valued: The options that take a value (`--format`).
    ///   - switches: The options that take none (`--json`).
    init(_ arguments: [String], valued: Set<String> = [], switches allowed: Set<String> = []) throws(CLIError) {
        let allowedSwitches = allowed.union(["--help", "-h"])
        var index = 0
        var onlyOperands = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyOperands || argument == "-" || !argument.hasPrefix("-") {
                operands.append(argument)
                continue
            }
            if argument == "--" {
                onlyOperands = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if valued.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw .usage("\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                options[name, default: []].append(value)
            } else if allowedSwitches.contains(name) {
                guard inlineValue == nil else { throw .usage("\(name) takes no value") }
                switches.insert(name)
            } else {
                throw .usage("unknown option \(argument)")
            }
        }
    }

    /// Whether `--help` or `-h` was given.
    var wantsHelp: Bool { switches.contains("--help") || switches.contains("-h") }

    /// The value of a single-valued option, or `nil`; a usage error if it was given twice.
    func value(_ name: String) throws(CLIError) -> String? {
        guard let values = options[name] else { return nil }
        guard values.count == 1, let only = values.first else { throw .usage("\(name) given more than once") }
        return only
    }

    /// Every value of a repeatable option, in order.
    func values(_ name: String) -> [String] { options[name] ?? [] }

    /// The time given to option `name`, RFC 3339 (`2026-12-01T12:00:00Z`, through
    /// TackTrust's ``RFC3339``) or seconds since 1970; the clock when it is absent.
    func time(_ name: String) throws(CLIError) -> Int64 {
        guard let text = try value(name) else { return Int64(Date().timeIntervalSince1970) }
        if let seconds = Int64(text) { return seconds }
        guard let time = RFC3339.parse(text) else {
            throw .usage("\(name) needs a time such as 2026-12-01T12:00:00Z or seconds since 1970, not \(text)")
        }
        return time
    }

    /// The time of `--at`, every command's time option, or of `alias` (`--now`,
    /// kept where a command had it first); a usage error when both are given.
    func time(alias: String) throws(CLIError) -> Int64 {
        if options["--at"] != nil && options[alias] != nil { throw .usage("--at and \(alias) are the same option: give one") }
        return try time(options[alias] != nil ? alias : "--at")
    }

    func isSet(_ name: String) -> Bool { switches.contains(name) }

    /// `--format text|json`, or `--json`; text when neither is given. The command must
    /// declare `--format` as valued and `--json` as a switch.
    func outputFormat() throws(CLIError) -> OutputFormat {
        let named = try value("--format")
        if isSet("--json") {
            guard named == nil || named == "json" else { throw .usage("--json and --format \(named ?? "") disagree") }
            return .json
        }
        switch named {
        case nil, "text": return .text
        case "json": return .json
        case let other?: throw .usage("unknown format \(other) (text, json)")
        }
    }
}

/// Reads a file's bytes, or standard input for `-`. Failures carry the operating
/// system's reason: `PATH: no such file or directory`, `PATH: is a directory`,
/// `PATH: permission denied`.
func readInput(_ path: String, io: Console) throws(CLIError) -> [UInt8] {
    if path == "-" { return try io.readAllInput() }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw CLIError("\(path): \(systemReason(errno))", code: "unreadable_input") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw CLIError("\(path): \(systemReason(errno))", code: "unreadable_input") }
    if status.st_mode & S_IFMT == S_IFDIR { throw CLIError("\(path): \(systemReason(EISDIR))", code: "unreadable_input") }
    var bytes: [UInt8] = []
    if status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 { bytes.reserveCapacity(Int(status.st_size)) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw CLIError("\(path): \(systemReason(errno))", code: "unreadable_input")
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
}

/// `strerror` with a lowercase first letter, as it reads after `path: `.
func systemReason(_ code: Int32) -> String {
    let text = String(cString: strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
}

/// The display name of an input path.
func inputName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

/// One object found in an input file: a certificate, or a public key (bare, or the
/// public half of a private key or of a signing request).
enum InputObject {
    case certificate(Certificate)
    case publicKey(SubjectPublicKeyInfo, from: KeySource)
}

/// Where a public key came from.
enum KeySource: String {
    case publicKey = "public_key"
    case privateKey = "private_key"
    case certificateRequest = "certificate_request"
}

/// What ``readObjects(_:name:)`` found: the objects that parsed, in file order, and a
/// failure for each that did not. One bad PEM block does not hide the good ones.
struct InputObjects {
    var objects: [InputObject] = []
    var failures: [CLIError] = []
}

/// Whether `bytes` contains `marker`.
func contains(_ bytes: [UInt8], _ marker: String) -> Bool {
    let marker = Array(marker.utf8)
    guard let first = marker.first, bytes.count >= marker.count else { return false }
    for start in 0...(bytes.count - marker.count) where bytes[start] == first {
        if bytes[start..<(start + marker.count)].elementsEqual(marker) { return true }
    }
    return false
}

/// Whether `bytes` is text: valid UTF-8 with no control characters other than tab,
/// CR and LF. DER is not (a certificate starts 0x30 0x82, and 0x82 cannot follow an
/// ASCII byte in UTF-8).
func isPlainText(_ bytes: some Sequence<UInt8>) -> Bool {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var sawAny = false
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar):
            sawAny = true
            if scalar.value < 0x20 && scalar != "\n" && scalar != "\r" && scalar != "\t" { return false }
            if scalar.value == 0x7F { return false }
        case .emptyInput:
            return sawAny
        case .error:
            return false
        }
    }
}

/// Every certificate and public key in `bytes`: PEM with any number of blocks and
/// any surrounding text (`openssl s_client -showcerts` output included), or one DER
/// certificate or SubjectPublicKeyInfo.
///
/// Errors name the file, the object's index (1-based, in file order) and the byte
/// offset: within the file for PEM framing errors, within the object's DER otherwise.
/// A block that fails is reported and the others are still returned.
func readObjects(_ bytes: [UInt8], name: String) -> InputObjects {
    var result = InputObjects()
    // PEM if any encapsulation boundary appears; a DER certificate cannot contain
    // "-----BEGIN " or "-----END " before its first byte fails to parse anyway.
    let isPEM = contains(bytes, "-----BEGIN ") || contains(bytes, "-----END ")
    if !isPEM {
        guard !bytes.isEmpty else {
            result.failures.append(CLIError("\(name): empty input", code: "empty_input"))
            return result
        }
        let certificateError: X509Error
        switch decodeCertificate(bytes) {
        case .success(let certificate):
            result.objects.append(.certificate(certificate))
            return result
        case .failure(.undecodableName(let error)):
            result.failures.append(CLIError("\(name): certificate #1 is malformed: \(error)", code: "malformed_certificate"))
            return result
        case .failure(.notACertificate(let error)):
            certificateError = error
        }
        if let kind = InputKind.recognise(bytes) {
            result.failures.append(kind.failure(name, expected: "a certificate or key"))
        } else if let key = try? SubjectPublicKeyInfo(derEncoded: bytes) {
            result.objects.append(.publicKey(key, from: .publicKey))
        } else if let certificates = try? PinSources.certificates(pkcs7: bytes) {
            result.objects += certificates.map(InputObject.certificate)
        } else if let request = derCertificationRequest(bytes) {
            switch request {
            case .success(let key): result.objects.append(.publicKey(key, from: .certificateRequest))
            case .failure(let error): result.failures.append(CLIError("\(name): \(error.message)", code: error.code))
            }
        } else if let key = PinSources.publicKey(derPrivateKey: bytes) {
            switch key {
            case .success(let key): result.objects.append(.publicKey(key, from: .privateKey))
            case .failure(let error): result.failures.append(CLIError("\(name): private key: \(error.message)", code: error.code))
            }
        } else if isPlainText(bytes) {
            result.failures.append(CLIError("\(name): neither PEM nor DER: the file is plain text with no -----BEGIN line", code: "not_pem_or_der"))
        } else {
            result.failures.append(CLIError("\(name): certificate #1: \(certificateError)", code: "malformed_certificate"))
        }
        return result
    }
    let blocks: [PEMBlock]
    do {
        blocks = try PEM.parse(bytes)
    } catch {
        result.failures.append(CLIError("\(name): \(error)"))
        return result
    }
    var index = 0
    for block in blocks {
        switch block.label {
        case "CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE":
            index += 1
            switch decodeCertificate(block.bytes) {
            case .success(let certificate):
                result.objects.append(.certificate(certificate))
            case .failure(.undecodableName(let error)), .failure(.notACertificate(let error)):
                result.failures.append(CLIError("\(name): certificate #\(index) (PEM block at byte \(block.offset)) is malformed: \(error)",
                                                code: "malformed_certificate"))
            }
        case "PUBLIC KEY":
            index += 1
            do {
                result.objects.append(.publicKey(try SubjectPublicKeyInfo(derEncoded: block.bytes), from: .publicKey))
            } catch {
                result.failures.append(CLIError("\(name): public key #\(index) (PEM block at byte \(block.offset)): \(error)", code: "malformed_public_key"))
            }
        case "RSA PUBLIC KEY":
            index += 1
            do throws(PinSourceError) {
                result.objects.append(.publicKey(try PinSources.publicKey(pkcs1: block.bytes), from: .publicKey))
            } catch {
                result.failures.append(CLIError("\(name): public key #\(index) (PEM block at byte \(block.offset)): \(error.message)", code: error.code))
            }
        case "PKCS7", "CERTIFICATE CHAIN":
            index += 1
            do throws(PinSourceError) {
                result.objects += try PinSources.certificates(pkcs7: block.bytes).map(InputObject.certificate)
            } catch {
                result.failures.append(CLIError("\(name): PKCS #7 bundle #\(index) (PEM block at byte \(block.offset)): \(error.message)", code: error.code))
            }
        case "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST":
            index += 1
            do throws(PinSourceError) {
                result.objects.append(.publicKey(try PinSources.publicKey(certificationRequest: block.bytes), from: .certificateRequest))
            } catch {
                result.failures.append(CLIError("\(name): request #\(index) (PEM block at byte \(block.offset)): \(error.message)", code: error.code))
            }
        case "PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY":
            index += 1
            do throws(PinSourceError) {
                result.objects.append(.publicKey(try PinSources.publicKey(privateKey: block), from: .privateKey))
            } catch {
                result.failures.append(CLIError("\(name): private key #\(index) (PEM block at byte \(block.offset)): \(error.message)", code: error.code))
            }
        case "ENCRYPTED PRIVATE KEY":
            index += 1
            result.failures.append(CLIError("\(name): private key #\(index) is encrypted: decrypt it first (openssl pkey -in KEY -pubout | tack pin -)",
                                            code: "encrypted_private_key"))
        case "X509 CRL":
            index += 1
            result.failures.append(InputKind.crl.failure("\(name): object #\(index) (PEM block at byte \(block.offset))", expected: "a certificate or key"))
        case "OCSP RESPONSE":
            index += 1
            result.failures.append(InputKind.ocspResponse.failure("\(name): object #\(index) (PEM block at byte \(block.offset))",
                                                                  expected: "a certificate or key"))
        default:
            continue  // parameters and the like: not ours to pin
        }
    }
    if result.objects.isEmpty && result.failures.isEmpty {
        result.failures.append(CLIError("\(name): no CERTIFICATE, PUBLIC KEY, PKCS7, CERTIFICATE REQUEST or PRIVATE KEY block found", code: "nothing_found"))
    }
    return result
}

/// Reads every certificate of every input (`-` is standard input), for the commands
/// that take certificate files: the certificates with their file names, and a failure
/// for each input or block that could not be read (a public key is one: not a
/// certificate). The caller reports the failures.
func readCertificates(_ paths: [String], io: Console) -> (certificates: [(file: String, certificate: Certificate)], failures: [CLIError]) {
    var certificates: [(file: String, certificate: Certificate)] = []
    var failures: [CLIError] = []
    for path in paths {
        let name = inputName(path)
        let bytes: [UInt8]
        do {
            bytes = try readInput(path, io: io)
        } catch {
            failures.append(error)
            continue
        }
        let found = certificateObjects(bytes, name: name)
        certificates += found.certificates
        failures += found.failures
    }
    return (certificates, failures)
}

/// The certificates in the bytes of one input named `name`, and a failure for each
/// object that did not parse or is not a certificate.
func certificateObjects(_ bytes: [UInt8], name: String) -> (certificates: [(file: String, certificate: Certificate)], failures: [CLIError]) {
    var certificates: [(file: String, certificate: Certificate)] = []
    var failures: [CLIError] = []
    let found = readObjects(bytes, name: name)
    for object in found.objects {
        switch object {
        case .certificate(let certificate): certificates.append((name, certificate))
        case .publicKey(_, let source): failures.append(CLIError("\(name): a \(source.rawValue.replacingOccurrences(of: "_", with: " ")), not a certificate", code: "not_a_certificate"))
        }
    }
    failures += found.failures
    return (certificates, failures)
}

/// Why ``decodeCertificate(_:)`` refused some bytes.
enum CertificateDecodingFailure: Error {
    /// The bytes are no certificate (or a certificate broken in its structure).
    case notACertificate(X509Error)
    /// A certificate whose subject or issuer does not decode (a byte outside a
    /// PrintableString's alphabet): malformed, since every command names it.
    case undecodableName(X509Error)
}

/// A certificate whose subject and issuer decode: what every command reads, so that
/// a name is never shown as a placeholder. TackX509 decodes names lazily; here both
/// are decoded once, and a failure is the certificate's (with its offset and reason).
func decodeCertificate(_ der: [UInt8]) -> Result<Certificate, CertificateDecodingFailure> {
    let certificate: Certificate
    do {
        certificate = try Certificate(derEncoded: der)
    } catch {
        return .failure(.notACertificate(error))
    }
    do {
        _ = try DistinguishedName(derEncoded: certificate.derEncoded, range: certificate.subjectRange)
        _ = try DistinguishedName(derEncoded: certificate.derEncoded, range: certificate.issuerRange)
    } catch {
        return .failure(.undecodableName(error))
    }
    return .success(certificate)
}

/// The subject of a certificate as one line of text (RFC 4514), the way every command
/// names a certificate.
func subjectLine(_ certificate: Certificate) -> String {
    nameLine(certificate, certificate.subjectRange, empty: "(empty subject)")
}

/// The issuer of a certificate as one line of text (RFC 4514).
func issuerLine(_ certificate: Certificate) -> String {
    nameLine(certificate, certificate.issuerRange, empty: "(empty issuer)")
}

/// A name of `certificate` in RFC 4514. The certificates of input files are read by
/// ``decodeCertificate(_:)``, whose names decode; one that arrived otherwise (inside
/// an OCSP response or a PKCS #12 file) and does not decode is shown as `#` and the
/// hex of the Name's DER (RFC 4514 §2.4's form for a value without a string form),
/// its bytes rather than a placeholder.
private func nameLine(_ certificate: Certificate, _ range: Range<Int>, empty: String) -> String {
    guard let name = try? DistinguishedName(derEncoded: certificate.derEncoded, range: range) else {
        return "#" + Hex.encode(certificate.derEncoded[range])
    }
    return name.isEmpty ? empty : name.rfc4514String
}

/// "N inputs failed", the closing error of the commands that go on past a bad input.
func inputsFailed(_ count: Int) -> CLIError {
    CLIError("\(count) input\(count == 1 ? "" : "s") failed", code: "inputs_failed")
}

/// Every object in `bytes`, or the first failure: for inputs where one bad block
/// makes the whole input unusable (a chain to verify, a set of roots).
func readObjectsStrictly(_ bytes: [UInt8], name: String) throws(CLIError) -> [InputObject] {
    let result = readObjects(bytes, name: name)
    if let failure = result.failures.first { throw failure }
    return result.objects
}

/// The certificate files of a directory such as `/etc/ssl/certs`: every regular file
/// (symbolic links followed) not hidden, each read once however many names it has
/// (OpenSSL's hash-named links, `NAME.pem` links into `/usr/share`), sorted by name;
/// subdirectories are not entered. `nil` when `path` is not a directory.
func directoryFiles(_ path: String) throws(CLIError) -> [String]? {
    var isDirectory: ObjCBool = false
    guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
        return nil
    }
    let names: [String]
    do {
        names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    } catch {
        throw CLIError("\(path): cannot list the directory", code: "unreadable_input")
    }
    var seen = Set<String>()
    var files: [String] = []
    for name in names where !name.hasPrefix(".") {
        let file = path.hasSuffix("/") ? path + name : path + "/" + name
        let real = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        var isSubdirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isSubdirectory), !isSubdirectory.boolValue,
              seen.insert(real).inserted else { continue }
        files.append(file)
    }
    guard !files.isEmpty else { throw CLIError("\(path): no file to read in the directory", code: "nothing_found") }
    return files
}

/// `paths` with each directory replaced by its files (``directoryFiles(_:)``).
func expandingDirectories(_ paths: [String]) throws(CLIError) -> [String] {
    var expanded: [String] = []
    for path in paths {
        if let files = try directoryFiles(path) { expanded += files } else { expanded.append(path) }
    }
    return expanded
}

/// A DER PKCS #10 request's key, or why it gives none once it is recognised as one
/// (a bad signature, malformed fields); `nil` when `bytes` is no request at all.
func derCertificationRequest(_ bytes: [UInt8]) -> Result<SubjectPublicKeyInfo, PinSourceError>? {
    do throws(PinSourceError) {
        return .success(try PinSources.publicKey(certificationRequest: bytes))
    } catch {
        return error.code == "not_csr" || error.code == "malformed_der" ? nil : .failure(error)
    }
}
