// Shared command-line plumbing: errors, output, argument scanning, input files.

import Foundation
import TackDER
import TackX509

/// A failure the user should see: printed as `tack: MESSAGE` on standard error.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    /// The process exit status: 1 for input problems, 2 for usage errors.
    let status: Int32

    init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }

    static func usage(_ message: String) -> CLIError { CLIError(message, status: 2) }
}

/// Writes to standard output, unbuffered.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes `tack: MESSAGE` to standard error.
func warn(_ message: String) {
    FileHandle.standardError.write(Data(("tack: " + message + "\n").utf8))
}

/// A minimal scanner for `--flag value`, `--flag=value`, `--switch` and operands.
struct Arguments {
    private(set) var operands: [String] = []
    private var options: [String: String] = [:]
    private var switches: Set<String> = []

    /// Splits `arguments`; `valued` lists the options that take a value.
    init(_ arguments: [String], valued: Set<String>, switches allowed: Set<String>) throws(CLIError) {
        var index = 0
        var onlyOperands = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyOperands || argument == "-" || !argument.hasPrefix("-") {
                operands.append(argument)
                continue
            }
            if argument == "--" { onlyOperands = true; continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if valued.contains(name) {
                if let inlineValue {
                    options[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw .usage("\(name) needs a value") }
                    options[name] = arguments[index]
                    index += 1
                }
            } else if allowed.contains(name), inlineValue == nil {
                switches.insert(name)
            } else {
                throw .usage("unknown option \(argument)")
            }
        }
    }

    func value(_ name: String) -> String? { options[name] }
    func isSet(_ name: String) -> Bool { switches.contains(name) }
}

/// Reads a file's bytes, or standard input for `-`.
func readInput(_ path: String) throws(CLIError) -> [UInt8] {
    if path == "-" {
        return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CLIError("\(path): cannot read the file")
    }
    return [UInt8](data)
}

/// One object found in an input file: a certificate or a bare public key.
enum InputObject {
    case certificate(Certificate)
    case publicKey(SubjectPublicKeyInfo)
}

/// Every certificate and public key in `bytes`: PEM with any number of blocks and
/// any surrounding text (`openssl s_client -showcerts` output included), or one DER
/// certificate or SubjectPublicKeyInfo.
///
/// Errors name the file, the object's index (1-based, in file order) and the byte
/// offset: within the file for PEM framing errors, within the object's DER otherwise.
func readObjects(_ bytes: [UInt8], name: String) throws(CLIError) -> [InputObject] {
    // PEM if any encapsulation boundary appears; a DER certificate cannot contain
    // "-----BEGIN " or "-----END " before its first byte fails to parse anyway.
    func contains(_ text: String) -> Bool {
        let marker = Array(text.utf8)
        guard bytes.count >= marker.count else { return false }
        return (0...(bytes.count - marker.count)).contains { start in
            bytes[start] == 0x2D && bytes[start..<(start + marker.count)].elementsEqual(marker)
        }
    }
    let isPEM = contains("-----BEGIN ") || contains("-----END ")
    if !isPEM {
        guard !bytes.isEmpty else { throw CLIError("\(name): empty input") }
        do {
            return [.certificate(try Certificate(derEncoded: bytes))]
        } catch let certificateError {
            if let key = try? SubjectPublicKeyInfo(derEncoded: bytes) { return [.publicKey(key)] }
            throw CLIError("\(name): certificate #1: \(certificateError)")
        }
    }
    let blocks: [PEMBlock]
    do {
        blocks = try PEM.parse(bytes)
    } catch {
        throw CLIError("\(name): \(error)")
    }
    var objects: [InputObject] = []
    var index = 0
    for block in blocks {
        switch block.label {
        case "CERTIFICATE", "X509 CERTIFICATE":
            index += 1
            do {
                objects.append(.certificate(try Certificate(derEncoded: block.bytes)))
            } catch {
                throw CLIError("\(name): certificate #\(index) (PEM block at byte \(block.offset)): \(error)")
            }
        case "PUBLIC KEY":
            index += 1
            do {
                objects.append(.publicKey(try SubjectPublicKeyInfo(derEncoded: block.bytes)))
            } catch {
                throw CLIError("\(name): public key #\(index) (PEM block at byte \(block.offset)): \(error)")
            }
        default:
            continue  // private keys, CSRs, parameters: not ours to pin
        }
    }
    guard !objects.isEmpty else { throw CLIError("\(name): no CERTIFICATE or PUBLIC KEY block found") }
    return objects
}

/// A JSON string literal.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// Lowercase hex with a separator between octets.
func hexString(_ bytes: some Sequence<UInt8>, separator: String = "") -> String {
    bytes.map { String(format: "%02x", $0) }.joined(separator: separator)
}
