// Where a command's output goes: the process's standard streams, or buffers (the
// in-process tests). Every command writes through one of these and returns its
// exit status; only main.swift ends the process.

import Foundation

/// The exit statuses of `tack`, the same for every command (listed in `tack help`).
enum ExitCode: Int32, Sendable {
    /// Success: every input read, every check passed (warnings allowed).
    case success = 0
    /// An input failed: unreadable or malformed input, or a check found an error
    /// (lint errors, a rotation candidate that fails, a vector that disagrees).
    case failure = 1
    /// A usage error: an unknown option, a missing or malformed argument.
    case usage = 2
    /// `verify`: the chain is not trusted (path validation failed).
    case untrusted = 3
    /// `verify`: the chain is trusted, but the enforced pin check failed.
    case pinFailure = 4
}

/// A command's standard output, standard error and standard input.
///
/// ``standard`` writes through to the process's streams as each line is emitted;
/// ``capturing(input:)`` keeps what is written in ``output`` and ``errors`` and reads
/// standard input from the given bytes. Used from one thread at a time (`tack scan`'s
/// workers compute lines; the command writes them).
final class Console: @unchecked Sendable {
    private let isCapturing: Bool
    private var capturedInput: [UInt8]?
    /// What was written to standard output (capturing consoles only).
    private(set) var output = ""
    /// What was written to standard error (capturing consoles only).
    private(set) var errors = ""
    /// The failure the dispatcher reported last (its code is what tests assert).
    var failure: CLIError?
    /// Whether standard error is a terminal (progress lines, colour).
    let errorIsTerminal: Bool
    /// Whether standard output is a terminal and colour is allowed (`NO_COLOR` unset).
    let usesColor: Bool

    private init(capturing: Bool, input: [UInt8]?, errorIsTerminal: Bool, usesColor: Bool) {
        isCapturing = capturing
        capturedInput = input
        self.errorIsTerminal = errorIsTerminal
        self.usesColor = usesColor
    }

    /// The process's own streams.
    static func standard() -> Console {
        Console(capturing: false, input: nil, errorIsTerminal: isatty(STDERR_FILENO) == 1,
                usesColor: colorAllowed(environment: ProcessInfo.processInfo.environment, outputIsTerminal: isatty(STDOUT_FILENO) == 1))
    }

    /// Buffers: standard input reads `input`; `color` as if standard output were a
    /// terminal that allows it.
    static func capturing(input: [UInt8] = [], color: Bool = false) -> Console {
        Console(capturing: true, input: input, errorIsTerminal: false, usesColor: color)
    }

    /// Colour only on a terminal, never with `NO_COLOR` set to anything but the empty
    /// string (no-color.org) or with `TERM=dumb`.
    static func colorAllowed(environment: [String: String], outputIsTerminal: Bool) -> Bool {
        guard outputIsTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// ANSI SGR colours for the words a person scans for first.
    enum Color: String {
        case red = "31"
        case green = "32"
        case yellow = "33"
    }

    /// `text` in `color` when colour is on, as it is otherwise.
    func colored(_ text: String, _ color: Color) -> String {
        usesColor ? "\u{1B}[1;\(color.rawValue)m" + text + "\u{1B}[0m" : text
    }

    /// Writes `line` and a newline to standard output.
    func emit(_ line: String) { writeOutput(line + "\n") }

    /// Writes `text` to standard output as it is.
    func writeOutput(_ text: String) {
        if isCapturing {
            output += text
        } else {
            writeAll(STDOUT_FILENO, Array(text.utf8))
        }
    }

    /// Writes bytes to standard output (`tack scan`'s batches).
    func writeOutput(bytes: [UInt8]) {
        if isCapturing {
            output += String(decoding: bytes, as: UTF8.self)
        } else {
            writeAll(STDOUT_FILENO, bytes)
        }
    }

    /// Writes `tack: MESSAGE` and a newline to standard error.
    func warn(_ message: String) { writeError("tack: " + message + "\n") }

    /// Writes `text` to standard error as it is.
    func writeError(_ text: String) {
        if isCapturing {
            errors += text
        } else {
            writeAll(STDERR_FILENO, Array(text.utf8))
        }
    }

    /// Reads up to `count` bytes of standard input: an empty array at its end.
    func readInput(upTo count: Int) throws(CLIError) -> [UInt8] {
        if isCapturing {
            guard var input = capturedInput else { return [] }
            let taken = Array(input.prefix(count))
            input.removeFirst(taken.count)
            capturedInput = input
            return taken
        }
        var chunk = [UInt8](repeating: 0, count: count)
        while true {
            let read = chunk.withUnsafeMutableBytes { Foundation.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if read < 0 {
                if errno == EINTR { continue }
                throw CLIError("<stdin>: \(CLIError.systemReason(errno))", code: "unreadable_input")
            }
            return Array(chunk.prefix(read))
        }
    }

    /// The whole of standard input.
    func readAllInput() throws(CLIError) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let chunk = try readInput(upTo: 1 << 16)
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
    }
}

/// Writes every byte to `descriptor`, retrying short writes; a closed pipe ends the
/// writing quietly (nothing more can be reported there).
private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
