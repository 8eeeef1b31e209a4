// Shared command-line plumbing: errors, output, the argument parser, reading input
// files and directories (what a file holds is read in InputObjects.swift).

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
