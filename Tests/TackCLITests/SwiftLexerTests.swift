import Testing

@testable import tack

/// The lexical Swift scan under `tack lint`: comments and string literals stay apart
/// from code, whatever their form.
@Suite("SwiftLexer")
struct SwiftLexerTests {
    static func identifiers(_ source: String) -> [String] {
        SwiftLexer(source).tokens.filter { $0.kind == .identifier }.map { String($0.text) }
    }

    @Test("comments, nested block comments and every string form hide what they hold")
    func hiddenForms() {
        let source = ##"""
            // SecTrustEvaluate(a)
            /* outer /* inner SecTrustEvaluate(b) */ still comment SecTrustEvaluate(c) */
            let a = "SecTrustEvaluate(d) \"quoted\" \(interpolated("SecTrustEvaluate(e)"))"
            let b = """
                SecTrustEvaluate(f)
                """
            let c = #"raw "SecTrustEvaluate(g)" \#(x)"#
            visible()
            """##
        let names = SwiftLexerTests.identifiers(source)
        #expect(!names.contains("SecTrustEvaluate"))
        #expect(names == ["let", "a", "let", "b", "let", "c", "visible"])
        let lexer = SwiftLexer(source)
        #expect(lexer.comments.count == 2)
        #expect(lexer.tokens.filter { $0.kind == .string }.count == 3)
    }

    @Test("tokens carry their line and column (UTF-8 bytes)")
    func positions() throws {
        let lexer = SwiftLexer("let x = 1\n  /* é */ call(\"é\", y)\n")
        let call = try #require(lexer.tokens.first { $0.text == "call" })
        #expect(call.line == 2)
        #expect(call.column == 12)
        let y = try #require(lexer.tokens.first { $0.text == "y" })
        #expect(y.column == 23)
    }

    static func summary(_ source: String) -> [String] {
        let lexer = SwiftLexer(source)
        return lexer.tokens.map { "\($0.kind):\($0.line):\($0.text)" } + lexer.comments.map { "comment:\($0.line)-\($0.endLine):\($0.text)" }
    }

    @Test("an unterminated string ends at its line; an unterminated comment or interpolation at the end of the file")
    func unterminated() {
        #expect(SwiftLexerTests.summary("let s = \"open\nnext()")
                == ["identifier:1:let", "identifier:1:s", "punctuation:1:=", "string:1:\"open", "identifier:2:next",
                    "punctuation:2:(", "punctuation:2:)"])
        #expect(SwiftLexerTests.summary("/* never closed\nnext()") == ["comment:1-2:/* never closed\nnext()"])
        #expect(SwiftLexerTests.summary("let s = \"\\(unbalanced(\"\nx")
                == ["identifier:1:let", "identifier:1:s", "punctuation:1:=", "string:1:\"\\(unbalanced(\"\nx"])
        #expect(SwiftLexerTests.summary("#\"") == ["string:1:#\""])
    }
}

/// `tack lint`'s rule engine on small inline sources (the full samples are checked end
/// to end by scripts/cli-e2e.py).
@Suite("Lint rules")
struct LintRuleTests {
    static func rules(_ source: String) -> [String] {
        lintSwift(Array(source.utf8), path: "x.swift").map { "\($0.line):\($0.rule.rawValue)" }
    }

    @Test("a nil host only in the second argument")
    func nilHost() {
        #expect(LintRuleTests.rules("let p = SecPolicyCreateSSL(true, nil)") == ["1:ssl-policy-nil-host"])
        #expect(LintRuleTests.rules("let p = SecPolicyCreateSSL(true, host as CFString)") == [])
        #expect(LintRuleTests.rules("let p = SecPolicyCreateSSL(f(nil, 1), host)") == [])
    }

    @Test("SecTrustEvaluateWithError is not the deprecated SecTrustEvaluate")
    func deprecated() {
        #expect(LintRuleTests.rules("SecTrustEvaluateWithError(t, &e)") == [])
        #expect(LintRuleTests.rules("SecTrustEvaluate(t, &r)") == ["1:deprecated-trust-api"])
    }

    @Test("disable comments: the next line, and the whole file")
    func suppressions() {
        #expect(LintRuleTests.rules("// tack-lint:disable deprecated-trust-api\nSecTrustEvaluate(t, &r)\nSecTrustEvaluate(t, &r)")
                == ["3:deprecated-trust-api"])
        #expect(LintRuleTests.rules("SecTrustEvaluate(t, &r)\n// tack-lint:disable-file deprecated-trust-api") == [])
    }

    @Test("useCredential after an evaluation in the same function passes")
    func credential() {
        let bad = "func f() {\n completionHandler(.useCredential, c)\n}\nfunc g() { SecTrustEvaluateWithError(t, nil) }"
        #expect(LintRuleTests.rules(bad) == ["2:credential-without-trust"])
        let good = "func f() {\n guard SecTrustEvaluateWithError(t, nil) else { return }\n completionHandler(.useCredential, c)\n}"
        #expect(LintRuleTests.rules(good) == [])
    }
}
