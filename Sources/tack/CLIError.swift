// The one error type of the commands: a message, an exit status and a snake_case code.

import Foundation
import TackFormats

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

    /// "N inputs failed", the closing error of the commands that go on past a bad input.
    static func inputsFailed(_ count: Int) -> CLIError {
        CLIError("\(count) input\(count == 1 ? "" : "s") failed", code: "inputs_failed")
    }

    /// `strerror` with a lowercase first letter, as it reads after `path: `.
    static func systemReason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
