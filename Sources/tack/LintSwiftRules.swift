// `tack lint`'s lexical checks of Swift sources (SwiftLexer.swift tokenizes them):
// deprecated trust calls, nil SSL hosts, anchors, SPKI headers, credentials given before
// the trust is evaluated, PKCS #12 passphrase literals.

func lintSwift(_ bytes: [UInt8], path: String) -> [LintFinding] {
    lintSource(bytes, path: path, objectiveC: false)
}

/// The findings in an Objective-C source (`.m`, `.mm`): the Swift rules that apply to
/// C calls (the lexer's comments and strings are C's too), and
/// `NSURLSessionAuthChallengeUseCredential` before the trust is evaluated, the method
/// (a top-level brace block) being the scope.
func lintObjectiveC(_ bytes: [UInt8], path: String) -> [LintFinding] {
    lintSource(bytes, path: path, objectiveC: true)
}

private func lintSource(_ bytes: [UInt8], path: String, objectiveC: Bool) -> [LintFinding] {
    let lexer = SwiftLexer(String(decoding: bytes, as: UTF8.self))
    let tokens = lexer.tokens
    var findings: [LintFinding] = []
    func add(_ rule: LintRule, _ token: SwiftToken, _ message: String) {
        findings.append(LintFinding(rule: rule, path: path, line: token.line, column: token.column, message: message))
    }
    func isCall(_ index: Int, _ name: String) -> Bool {
        tokens[index].kind == .identifier && tokens[index].text == name
            && index + 1 < tokens.count && tokens[index + 1].text == "("
    }
    /// The index of the parenthesis that closes the one at `open`.
    func closing(_ open: Int) -> Int {
        var depth = 0
        var index = open
        while index < tokens.count {
            if tokens[index].text == "(" || tokens[index].text == "[" { depth += 1 }
            if tokens[index].text == ")" || tokens[index].text == "]" {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return tokens.count - 1
    }

    let bodies = objectiveC ? topLevelBlocks(tokens) : functionBodies(tokens)
    func body(containing index: Int) -> Range<Int> {
        bodies.filter { $0.contains(index) }.min { $0.count < $1.count } ?? 0..<tokens.count
    }
    /// Whether the value of the call whose name is at `index` is thrown away: `_ = f(…)`,
    /// `(void)f(…)` in C, or the call alone as a statement.
    func resultIgnored(_ index: Int) -> Bool {
        var start = index
        // `try`, `try?`, `try!` and `await` in front belong to the call.
        while start >= 1, tokens[start - 1].text == "try" || tokens[start - 1].text == "await"
                || ((tokens[start - 1].text == "?" || tokens[start - 1].text == "!") && start >= 2 && tokens[start - 2].text == "try") {
            start -= 1
        }
        guard start >= 1 else { return true }
        let previous = tokens[start - 1]
        if previous.text == "=", start >= 2, tokens[start - 2].text == "_" { return true }
        if objectiveC, previous.text == ")", start >= 3, tokens[start - 2].text == "void", tokens[start - 3].text == "(" { return true }
        if ["{", "}", ";"].contains(String(previous.text)) { return true }
        // A new line after a complete expression or statement starts a statement.
        let continues: Set<String> = ["return", "if", "guard", "while", "let", "var", "case", "else", "in", "where", "repeat", "throw"]
        guard previous.line < tokens[index].line else { return false }
        // (`?` and `!` end an optional type or a forced unwrap there.)
        return (previous.kind == .identifier && !continues.contains(String(previous.text)))
            || [")", "]", "?", "!"].contains(String(previous.text)) || previous.kind == .string || previous.kind == .number
    }
    /// Whether the name at `index` is a call that evaluates the trust and whose result
    /// is used: `SecTrustEvaluateWithError`, or an app's helper named for it
    /// (`evaluate…`, `verifyServerTrust`, `validatePins`, `checkCertificate`…).
    func evaluates(_ index: Int) -> Bool {
        guard tokens[index].kind == .identifier, index + 1 < tokens.count, tokens[index + 1].text == "(" else { return false }
        // The deprecated SecTrustEvaluate answers through its out parameter: a call
        // alone is its normal use.
        if tokens[index].text == "SecTrustEvaluate" { return true }
        let name = tokens[index].text.lowercased()
        let named = name.contains("evaluate")
            || (["verify", "validate", "check"].contains { name.contains($0) } && ["trust", "pin", "cert", "server", "challenge"].contains { name.contains($0) })
        return named && !resultIgnored(index)
    }
    /// Calls of SecTrustEvaluateWithError whose result is thrown away, by token index.
    let ignoredEvaluations = tokens.indices.filter { isCall($0, "SecTrustEvaluateWithError") && resultIgnored($0) }
    var reportedIgnored = Set<Int>()
    let hasAnchorsOnly = tokens.indices.contains { isCall($0, "SecTrustSetAnchorCertificatesOnly") }
    let hasPKCS12Import = tokens.contains { $0.kind == .identifier && $0.text == "SecPKCS12Import" }

    for index in tokens.indices where tokens[index].kind == .identifier {
        let token = tokens[index]
        switch token.text {
        case "SecTrustEvaluate", "SecTrustGetCertificateAtIndex", "SecTrustCopyPublicKey":
            guard isCall(index, String(token.text)) else { break }
            let replacement = switch token.text {
            case "SecTrustEvaluate": "SecTrustEvaluateWithError"
            case "SecTrustGetCertificateAtIndex": "SecTrustCopyCertificateChain"
            default: "SecTrustCopyKey"
            }
            add(.deprecatedTrustAPI, token, "\(token.text) is deprecated: use \(replacement)")
        case "SecPolicyCreateSSL":
            guard isCall(index, "SecPolicyCreateSSL") else { break }
            let end = closing(index + 1)
            // The second argument: after the first top-level comma.
            var depth = 0
            var position = index + 2
            while position < end {
                let text = tokens[position].text
                if text == "(" || text == "[" { depth += 1 }
                if text == ")" || text == "]" { depth -= 1 }
                if text == ",", depth == 0 { break }
                position += 1
            }
            if position + 1 < end, tokens[position + 1].text == "nil" {
                add(.sslPolicyNilHost, tokens[position + 1],
                    "SecPolicyCreateSSL with a nil host name checks no name: any certificate for any host passes; pass the host")
            }
        case "SecTrustSetAnchorCertificates":
            if isCall(index, "SecTrustSetAnchorCertificates"), !hasAnchorsOnly {
                add(.systemAnchorsDisabled, token,
                    "SecTrustSetAnchorCertificates without SecTrustSetAnchorCertificatesOnly in this file: the system anchors are silently disabled; call SecTrustSetAnchorCertificatesOnly(trust, false) to keep them (or true to say you mean it)")
            }
        case "SecKeyCopyExternalRepresentation":
            guard isCall(index, "SecKeyCopyExternalRepresentation") else { break }
            let scope = body(containing: index)
            let hashes = tokens[scope].contains { candidate in
                candidate.kind == .identifier
                    && ["SHA256", "CC_SHA256", "sha256", "SHA256Digest", "Insecure"].contains(String(candidate.text))
            }
            let hasHeader = tokens[scope].contains { candidate in
                guard candidate.kind == .identifier else { return false }
                let lowered = candidate.text.lowercased()
                return lowered.contains("header") || lowered.contains("spki") || lowered.contains("asn1")
                    || lowered.contains("prefix") || lowered.contains("subjectpublickeyinfo")
            }
            if hashes && !hasHeader {
                add(.spkiHeaderMissing, token,
                    "a pin hashed from SecKeyCopyExternalRepresentation output without an SPKI header never matches an SPKI pin: prepend the header for the key type (tack pin --raw-key prints it)")
            }
        case "useCredential", "NSURLSessionAuthChallengeUseCredential":
            // `.useCredential` handed to a completion handler of any name
            // (`completionHandler(.useCredential, …)`, `completion(.useCredential, …)`)
            // or returned by the async delegate method (`return (.useCredential, …)`);
            // not a pattern (`case .useCredential`) or a comparison. In Objective-C,
            // the constant `NSURLSessionAuthChallengeUseCredential` handed to a handler.
            let isObjectiveCConstant = token.text == "NSURLSessionAuthChallengeUseCredential"
            guard isObjectiveCConstant == objectiveC else { break }
            let before: SwiftToken
            if isObjectiveCConstant {
                guard index >= 1, tokens[index - 1].text == "(" || tokens[index - 1].text == "," else { break }
                before = tokens[index - 1]
            } else {
                guard index >= 2, tokens[index - 1].text == "." else { break }
                before = tokens[index - 2]
            }
            guard before.text != "case" else { break }
            // `==` and `!=` are two punctuation tokens each.
            if before.text == "=", index >= 3, tokens[index - 3].text == "=" || tokens[index - 3].text == "!" { break }
            let scope = body(containing: index)
            let ignored = ignoredEvaluations.filter { scope.lowerBound <= $0 && $0 < index }
            if let first = ignored.first {
                // Evaluated, but the verdict thrown away: said at the evaluation, once.
                if reportedIgnored.insert(first).inserted {
                    add(.trustResultIgnored, tokens[first],
                        "the result of \(tokens[first].text) is ignored and the challenge is answered with a credential (line \(token.line)): an untrusted certificate is accepted; use the result (guard … else { cancel })")
                }
                break
            }
            guard !(scope.lowerBound..<index).contains(where: evaluates) else { break }
            // Report at the handler's name, or at `return`, when there is one.
            let nameOffset = isObjectiveCConstant ? 2 : 3
            var anchor = isObjectiveCConstant ? token : tokens[index - 1]
            if before.text == "(", index >= nameOffset, tokens[index - nameOffset].kind == .identifier { anchor = tokens[index - nameOffset] }
            let constant = isObjectiveCConstant ? "NSURLSessionAuthChallengeUseCredential" : ".useCredential"
            let form = anchor.text == "return" ? "return (.useCredential, …)" : anchor.kind == .identifier && anchor.text != token.text ? "\(anchor.text)(\(constant), …)" : constant
            add(.credentialWithoutTrust, anchor,
                "\(form) before the server trust is evaluated accepts any certificate: call SecTrustEvaluateWithError (and check pins) first")
        case "DisabledTrustEvaluator", "DisabledEvaluator":
            // Alamofire's evaluator that accepts any certificate (DisabledEvaluator
            // before Alamofire 5.0's rename); its declaration is not a use.
            guard objectiveC == false, index < 1 || !["class", "struct", "final"].contains(String(tokens[index - 1].text)) else { break }
            add(.trustEvaluatorDisabled, token,
                "Alamofire's \(token.text) accepts any certificate for its hosts: use DefaultTrustEvaluator or PinnedCertificatesTrustEvaluator/PublicKeysTrustEvaluator")
        case "SecPKCS12Import":
            guard isCall(index, "SecPKCS12Import") else { break }
            let end = closing(index + 1)
            for position in (index + 2)..<max(index + 2, end) where tokens[position].kind == .string {
                add(.pkcs12PassphraseLiteral, tokens[position],
                    "a PKCS #12 passphrase as a string literal is in the binary for anyone to read: load it from the keychain or configuration")
            }
        case "kSecImportExportPassphrase":
            guard hasPKCS12Import else { break }
            // kSecImportExportPassphrase [as String] : "literal"
            var position = index + 1
            if position + 1 < tokens.count, tokens[position].text == "as" { position += 2 }
            if position + 1 < tokens.count, tokens[position].text == ":", tokens[position + 1].kind == .string {
                add(.pkcs12PassphraseLiteral, tokens[position + 1],
                    "a PKCS #12 passphrase as a string literal is in the binary for anyone to read: load it from the keychain or configuration")
            }
        default:
            break
        }
    }
    var suppressions = LintSuppressions()
    for comment in lexer.comments { suppressions.read(comment: comment.text, line: comment.line, endLine: comment.endLine) }
    // A literal passed inline and through kSecImportExportPassphrase can be reported
    // twice at the same place: once is enough.
    var seen = Set<String>()
    return suppress(findings, suppressions).filter { seen.insert("\($0.line):\($0.column):\($0.rule.rawValue)").inserted }
}

/// The token ranges of the outermost brace blocks: in Objective-C, method and function
/// bodies (`@implementation` has no braces).
private func topLevelBlocks(_ tokens: [SwiftToken]) -> [Range<Int>] {
    var blocks: [Range<Int>] = []
    var depth = 0
    var open = 0
    for index in tokens.indices {
        if tokens[index].text == "{" {
            if depth == 0 { open = index }
            depth += 1
        } else if tokens[index].text == "}", depth > 0 {
            depth -= 1
            if depth == 0 { blocks.append(open..<(index + 1)) }
        }
    }
    if depth > 0 { blocks.append(open..<tokens.count) }
    return blocks
}

/// The token ranges of function, initializer and closure-free accessor bodies: from
/// the `{` after `func`/`init` to its matching `}`.
private func functionBodies(_ tokens: [SwiftToken]) -> [Range<Int>] {
    var bodies: [Range<Int>] = []
    var index = 0
    while index < tokens.count {
        let text = tokens[index].text
        guard tokens[index].kind == .identifier, text == "func" || text == "init" || text == "deinit" else {
            index += 1
            continue
        }
        // The body is the first `{` at parenthesis depth zero after the signature.
        var depth = 0
        var open = index + 1
        while open < tokens.count {
            let current = tokens[open].text
            if current == "(" || current == "[" || current == "<" { depth += 1 }
            if current == ")" || current == "]" || (current == ">" && tokens[open - 1].text != "-") { depth = max(0, depth - 1) }
            if current == "{", depth == 0 { break }
            if current == "}" || (tokens[open].kind == .identifier && current == "func") { open = tokens.count }
            open += 1
        }
        guard open < tokens.count else {
            index += 1
            continue
        }
        var braces = 0
        var close = open
        while close < tokens.count {
            if tokens[close].text == "{" { braces += 1 }
            if tokens[close].text == "}" {
                braces -= 1
                if braces == 0 { break }
            }
            close += 1
        }
        bodies.append(open..<min(close + 1, tokens.count))
        index += 1
    }
    return bodies
}
