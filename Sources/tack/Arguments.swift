// The one command-line parser every command uses, and the `--format` it reads.

import Foundation
import TackTrust

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
