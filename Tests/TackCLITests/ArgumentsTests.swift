import Testing

@testable import tack

/// The one argument parser every `tack` command uses.
@Suite("Arguments")
struct ArgumentsTests {
    @Test("operands, valued options in both spellings, switches, in any order")
    func mixedOrder() throws {
        let args = try Arguments(["a.pem", "--format", "hex", "b.pem", "--json", "--now=2026-01-01T00:00:00Z", "c.pem"],
                                 valued: ["--format", "--now"], switches: ["--json"])
        #expect(args.operands == ["a.pem", "b.pem", "c.pem"])
        #expect(try args.value("--format") == "hex")
        #expect(try args.value("--now") == "2026-01-01T00:00:00Z")
        #expect(args.isSet("--json"))
        #expect(!args.wantsHelp)
    }

    @Test("`-` is an operand, and everything after `--` is one")
    func dashAndDoubleDash() throws {
        let args = try Arguments(["-", "--", "--json", "-x"], switches: ["--json"])
        #expect(args.operands == ["-", "--json", "-x"])
        #expect(!args.isSet("--json"))
    }

    @Test("--help and -h are accepted by every command")
    func help() throws {
        #expect(try Arguments(["--help"]).wantsHelp)
        #expect(try Arguments(["x", "-h"]).wantsHelp)
    }

    @Test("a repeatable option keeps every value in order; a single-valued one refuses a repeat")
    func repeats() throws {
        let args = try Arguments(["--disable", "a", "--disable=b", "--format", "x", "--format", "y"],
                                 valued: ["--disable", "--format"])
        #expect(args.values("--disable") == ["a", "b"])
        #expect(args.values("--absent") == [])
        #expect(throws: CLIError.self) { try args.value("--format") }
    }

    @Test("usage errors: unknown option, missing value, a value given to a switch", arguments: [
        (["--bogus"], "unknown option --bogus"),
        (["--format"], "--format needs a value"),
        (["--json=yes"], "--json takes no value"),
        (["-x"], "unknown option -x"),
    ])
    func usageErrors(arguments: [String], message: String) {
        do {
            _ = try Arguments(arguments, valued: ["--format"], switches: ["--json"])
            Issue.record("expected a usage error for \(arguments)")
        } catch {
            #expect(error.status == .usage)
            #expect(error.isUsageError)
            #expect(error.description == message)
        }
    }

    @Test("an empty value is a value")
    func emptyValue() throws {
        let args = try Arguments(["--format="], valued: ["--format"])
        #expect(try args.value("--format") == "")
    }
}

@Suite("CLI helpers")
struct CLIHelperTests {
    @Test("plain text is valid UTF-8 without control characters; DER is not text")
    func plainText() {
        #expect(isPlainText(Array("hello\n\tworld\r\n".utf8)))
        #expect(isPlainText(Array("A ‖ B — ünïcode".utf8)))
        #expect(!isPlainText([0x30, 0x82, 0x01, 0x0A]))
        #expect(!isPlainText([0x41, 0x00, 0x42]))
        #expect(!isPlainText([]))
    }

    @Test("Time options: RFC 3339 through TackTrust's parser, or seconds since 1970")
    func timeOption() throws {
        let rfc = try Arguments(["--at", "2026-01-01T00:00:00Z"], valued: ["--at"], switches: [])
        #expect(try rfc.time("--at") == 1_767_225_600)
        let seconds = try Arguments(["--at", "86400"], valued: ["--at"], switches: [])
        #expect(try seconds.time("--at") == 86_400)
        for bad in ["2026-01-01T00:00:00", "2026-02-30T00:00:00Z", "yesterday"] {
            let args = try Arguments(["--at", bad], valued: ["--at"], switches: [])
            #expect(throws: CLIError.self) { try args.time("--at") }
        }
    }
}
