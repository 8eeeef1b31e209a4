// `tack lint`: CI guardrails for App Transport Security settings in Info.plist files
// and for trust-evaluation mistakes in Swift sources.

import TackFormats
import Foundation
import TackDER
import TackTrust

enum LintCommand {
    static let help = """
        USAGE: tack lint [--sarif | --format text|json] [--disable RULE]... PATH...

        Checks the Info.plist files (any *.plist named on the command line, and files named
        Info.plist or *-Info.plist found under directories; XML or binary) and the Swift and
        Objective-C sources (*.swift, *.m, *.mm) for pinning and App Transport Security
        mistakes, and flags PKCS #12 files (*.p12, *.pfx) in the tree. Prints each finding as compilers do:
          path:line:column: error|warning: message [rule-id]
        (path: byte N: ... in a binary plist or a PKCS #12 file, which have no lines).

        RULES (error unless marked):
          ats-arbitrary-loads       NSAllowsArbitraryLoads, …ForMedia or …InWebContent set to true
          ats-insecure-exception    an NSExceptionDomains entry with NSExceptionAllowsInsecureHTTPLoads
                                    or NSAllowsArbitraryLoads true, or NSExceptionMinimumTLSVersion
                                    below TLSv1.2
          ats-key-misspelt          a near miss (2 edits, any case) of an ATS key such as
                                    NSAppTransportSecurity or NSPinnedDomains: pinning never applies
          ats-unknown-key           warning: a key ATS does not define where it stands
          pin-backup-missing        an NSPinnedDomains rule with fewer than two distinct pins
          pin-duplicate             warning: a pin listed twice (pins compare by their digest)
          pin-duplicate-domain      two NSPinnedDomains keys for one domain (differing in case)
          pin-leaf-only             warning: leaf pins only; every leaf key change needs an update
          pin-malformed             an SPKI-SHA256-BASE64 value that is not 32 bytes of Base64
          pin-unknown-key           an NSPinnedDomains key ATS does not know (a typo disables it)
          pin-wildcard-domain       a wildcard domain key (*.example.com) in NSPinnedDomains:
                                    ATS does not support it, so the rule never applies
          The pin rules report what `tack verify --policy` reads, from the same reader.
          deprecated-trust-api      warning: SecTrustEvaluate(, SecTrustGetCertificateAtIndex(,
                                    SecTrustCopyPublicKey(
          ssl-policy-nil-host       SecPolicyCreateSSL( with a nil host: no host name check
          system-anchors-disabled   SecTrustSetAnchorCertificates( with no
                                    SecTrustSetAnchorCertificatesOnly( in the same file
          spki-header-missing       a pin hashed from SecKeyCopyExternalRepresentation output in
                                    a function that never prepends an SPKI header
          credential-without-trust  .useCredential (given to a completion handler of any name,
                                    or returned by the async delegate method; in Objective-C,
                                    NSURLSessionAuthChallengeUseCredential) in a function that never
                                    evaluates the trust (SecTrustEvaluateWithError or a helper
                                    named evaluate…, or verify/validate/check with trust, pin,
                                    cert, server or challenge, whose result is used)
          trust-result-ignored      a SecTrustEvaluateWithError result thrown away (_ = …,
                                    (void)…, or a call alone) before .useCredential
          trust-evaluator-disabled  Alamofire's DisabledTrustEvaluator: any certificate passes
          pkcs12-passphrase-literal a string literal as the SecPKCS12Import passphrase
          bundled-identity          warning: a .p12 or .pfx file (an identity: certificate and
                                    private key) in the source tree, where it ships in the app

        The source checks are lexical: they never fire inside comments or string literals
        (except pkcs12-passphrase-literal, which is about literals).

        OPTIONS:
          --sarif          print a SARIF 2.1.0 log instead (for code-scanning annotations);
                           a file that could not be checked is a tool execution notification
          --format json    (or --json) one JSON object: findings and the inputs that could
                           not be checked, each with its code
          --disable RULE   skip a rule (repeatable)

        In a source, a comment `tack-lint:disable RULE` (Swift: // …, plist: <!-- … -->)
        silences RULE on its own line and the next; `tack-lint:disable-file RULE` in the
        whole file. Several rules may be separated by commas.

        EXAMPLES:
          tack lint Vectors/lint/fixed
          tack lint --sarif Vectors/lint/fixed
          tack lint --disable deprecated-trust-api Vectors/lint/fixed/PinningDelegate.swift

        Exit status: 0 when no error is found (warnings allowed), 1 when one is, or when a
        file cannot be read or parsed, or a path holds nothing to check; 2 on a usage error.
        """

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: ["--disable", "--format"], switches: ["--sarif", "--json"])
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        let format = try args.outputFormat()
        if args.isSet("--sarif"), try args.value("--format") != nil || args.isSet("--json") {
            throw .usage("--sarif and --format are two outputs: give one")
        }
        guard !args.operands.isEmpty else { throw .usage("tack lint needs at least one PATH") }
        var disabled = Set<String>()
        for value in args.values("--disable") {
            for name in value.split(separator: ",").map(String.init) {
                guard LintRule(rawValue: name) != nil else {
                    throw .usage("unknown rule \(name) (\(LintRule.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                disabled.insert(name)
            }
        }
        let report = lint(args.operands, disabled: disabled, io: io)
        if args.isSet("--sarif") {
            io.emit(sarifLog(report).serialized())
        } else if format == .json {
            io.emit(report.json.serialized())
        } else {
            for finding in report.findings { io.emit(finding.compilerStyle(io: io)) }
        }
        for problem in report.problems { io.warn(problem.description) }
        let errors = report.errorCount
        let warnings = report.findings.count - errors
        if !report.findings.isEmpty || !report.problems.isEmpty {
            var summary = "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s") in \(report.fileCount) file\(report.fileCount == 1 ? "" : "s")"
            if !report.problems.isEmpty {
                summary += "; \(report.problems.count) input\(report.problems.count == 1 ? "" : "s") could not be checked"
            }
            io.warn(summary)
        }
        return errors > 0 || !report.problems.isEmpty ? .failure : .success
    }

    /// Lints every file under `paths`: the findings, and each path or file that could
    /// not be checked (unreadable, not a property list, nothing to check).
    static func lint(_ paths: [String], disabled: Set<String>, io: Console) -> LintReport {
        var report = LintReport()
        for path in paths {
            let files: [String]
            do {
                files = try lintFiles(under: path)
            } catch {
                report.problems.append(error)
                continue
            }
            for file in files {
                do {
                    if isIdentityFile(file) {
                        // Found by its name: the file is not read (it needs its passphrase).
                        report.fileCount += 1
                        let finding = LintFinding(rule: .bundledIdentity, path: file, line: 0, column: 0, byteOffset: 0,
                                                  message: "a PKCS #12 identity (certificate and private key) in the source tree ships with the app: keep identities and their passphrases out of the bundle, and provision them at run time")
                        if !disabled.contains(finding.rule.rawValue) { report.findings.append(finding) }
                        continue
                    }
                    let bytes = try readInput(file, io: io)
                    let found = file.hasSuffix(".swift") ? lintSwift(bytes, path: file)
                        : isObjectiveCFile(file) ? lintObjectiveC(bytes, path: file) : try lintPlist(bytes, path: file)
                    report.fileCount += 1
                    report.findings += found.filter { !disabled.contains($0.rule.rawValue) }
                } catch {
                    report.problems.append(error)
                }
            }
        }
        return report
    }

    /// Whether `path` names an Objective-C source (`.m`, `.mm`).
    static func isObjectiveCFile(_ path: String) -> Bool {
        path.hasSuffix(".m") || path.hasSuffix(".mm")
    }

    /// Whether `path` names a PKCS #12 file (`.p12`, `.pfx`, any case): an identity.
    static func isIdentityFile(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".p12") || lower.hasSuffix(".pfx")
    }

    /// The files to lint for one operand: the file itself, or the Info.plist, Swift and
    /// PKCS #12 (`.p12`, `.pfx`) files under a directory (hidden directories and
    /// `.build` skipped), sorted.
    static func lintFiles(under path: String) throws(CLIError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError("\(path): \(CLIError.systemReason(ENOENT))", code: "unreadable_input")
        }
        guard isDirectory.boolValue else {
            guard path.hasSuffix(".swift") || isObjectiveCFile(path) || path.hasSuffix(".plist") || isIdentityFile(path) else {
                throw CLIError("\(path): not a Swift or Objective-C source, property list or PKCS #12 file (.swift, .m, .mm, .plist, .p12, .pfx)", code: "not_lintable")
            }
            return [path]
        }
        guard let enumerator = FileManager.default.enumerator(atPath: path) else {
            throw CLIError("\(path): cannot list the directory", code: "unreadable_input")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") || name == ".build" || name == "DerivedData" {
                enumerator.skipDescendants()
                continue
            }
            if name.hasSuffix(".swift") || isObjectiveCFile(name) || name == "Info.plist" || name.hasSuffix("-Info.plist") || isIdentityFile(name) {
                files.append(path.hasSuffix("/") ? path + relative : path + "/" + relative)
            }
        }
        guard !files.isEmpty else {
            throw CLIError("\(path): nothing to check (no *.swift, *.m, *.mm, Info.plist, *-Info.plist, *.p12 or *.pfx under it)", code: "nothing_to_check")
        }
        return files.sorted()
    }
}
