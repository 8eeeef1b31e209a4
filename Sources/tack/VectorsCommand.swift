// `tack vectors wycheproof`: runs Wycheproof signature-verification files
// (github.com/C2SP/wycheproof, `testvectors_v1`) through TackSignature and
// compares every verdict with the file's.

import Foundation
import TackDER
import TackSHA2
import TackSignature

enum VectorsCommand {
    static let help = """
        USAGE: tack vectors wycheproof [--verbose] FILE...
               tack vectors limbo [OPTIONS] [FILE|-]   (see tack vectors limbo --help)

        Runs Wycheproof signature-verification files through Tack's verifiers and compares
        each verdict with the file's `result`. Schemas (any curve, key size or hash):
          ecdsa_verify_schema_v1          ECDSA, DER signatures
          ecdsa_p1363_verify_schema_v1    ECDSA, r||s signatures
          eddsa_verify_schema_v1          Ed25519
          rsassa_pkcs1_verify_schema_v1   RSA PKCS#1 v1.5
          rsassa_pss_verify_schema_v1     RSASSA-PSS
        (and the older schemas of the same names without _v1).

        A `valid` vector must verify and an `invalid` one must not; either is counted as
        agreeing or disagreeing. An `acceptable` vector (legal but discouraged, such as a
        PKCS#1 DigestInfo without its NULL) counts neither way: it is reported with Tack's
        verdict, which is whatever the library does (for example, Tack rejects the PKCS#1
        DigestInfo without NULL, Wycheproof's `MissingNull`, so that a signature has one
        valid encoding). Groups Tack cannot run are skipped
        with the reason: hashes other than SHA-224/256/384/512 (ECDSA also SHA-512/256),
        curves other than P-256/P-384/P-521, Ed448, RSA keys outside 1024-8192 bits or
        with an exponent above 33 bits, masks other than MGF1.

        Per file it prints the schema, the counts, the acceptable verdicts by flag, the
        skipped groups by reason, and every disagreement (tcId, expected result, Tack's
        verdict, comment). The last line is always `N passed, N failed`: N passed counts
        the agreeing vectors, N failed the disagreeing ones.

        OPTIONS:
          --verbose   also list each acceptable vector and each skipped group

        Exit status: 0 if every vector agrees, 1 on any disagreement, 2 on a usage error
        or a file that cannot be read, is not JSON, or has an unknown schema.
        """

    static func run(_ arguments: [String]) throws(CLIError) {
        var arguments = arguments
        guard let suite = arguments.first else { throw .usage("tack vectors needs a suite: tack vectors wycheproof FILE...") }
        arguments.removeFirst()
        switch suite {
        case "--help", "-h", "help":
            emit(help)
        case "wycheproof":
            try runWycheproof(arguments)
        case "limbo":
            try LimboCommand.run(arguments)
        default:
            throw .usage("unknown vector suite \(suite) (wycheproof, limbo); see tack vectors --help")
        }
    }

    private static func runWycheproof(_ arguments: [String]) throws(CLIError) {
        let args = try Arguments(arguments, valued: [], switches: ["--help", "-h", "--verbose"])
        if args.isSet("--help") || args.isSet("-h") {
            emit(help)
            return
        }
        guard !args.operands.isEmpty else { throw .usage("tack vectors wycheproof needs at least one FILE") }
        let verbose = args.isSet("--verbose")

        var total = WycheproofTally()
        var fileCount = 0
        var unreadable = 0
        for path in args.operands {
            do throws(CLIError) {
                let report = try WycheproofRunner.run(path: path)
                fileCount += 1
                total.add(report.tally)
                for line in report.lines(verbose: verbose) { emit(line) }
            } catch {
                unreadable += 1
                emit(path)
                emit("  not run: \(error.description)")
                warn(error.description)
            }
        }
        var totals = "total: \(counted(fileCount, "file")) run"
        if unreadable > 0 { totals += ", \(unreadable) not run" }
        totals += "; \(total.acceptable.count) acceptable, \(counted(total.skippedVectors, "vector")) skipped"
        emit(totals)
        emit("\(total.agreed) passed, \(total.disagreements.count) failed")

        if unreadable > 0 {
            throw CLIError("\(counted(unreadable, "file")) could not be run", status: 2)
        }
        if !total.disagreements.isEmpty {
            let count = total.disagreements.count
            throw CLIError("\(count) vector\(count == 1 ? "" : "s") disagree\(count == 1 ? "s" : "") with Wycheproof")
        }
    }
}

// MARK: - The file format

/// The parts of a Wycheproof signature-verification file that Tack reads.
///
/// Field names are those of the `*_verify_schema_v1.json` schemas; the older
/// schemas put the key in `key` (EC, EdDSA) or in `n`/`e`/`keyAsn` at group
/// level (RSA), which are read as fallbacks.
private struct WycheproofFile: Decodable {
    let algorithm: String?
    let schema: String
    let numberOfTests: Int?
    let testGroups: [Group]

    struct Group: Decodable {
        let type: String?
        let publicKey: Key?
        let key: Key?
        let publicKeyAsn: String?
        let keyAsn: String?
        let n: String?
        let e: String?
        let keySize: Int?
        let sha: String?
        let mgf: String?
        let mgfSha: String?
        let sLen: Int?
        let tests: [Vector]
    }

    struct Key: Decodable {
        let curve: String?
        let keySize: Int?
        let uncompressed: String?
        let wx: String?
        let wy: String?
        let pk: String?
        let modulus: String?
        let publicExponent: String?
    }

    struct Vector: Decodable {
        let tcId: Int
        let comment: String?
        let flags: [String]?
        let msg: String
        let sig: String
        let result: String
    }
}

/// Only the schema name, decoded first so that an unknown file is refused by name
/// rather than by whichever field it lacks.
private struct WycheproofHeader: Decodable {
    let schema: String
}

/// The verification schemas Tack runs.
private enum WycheproofSchema: String {
    case ecdsaDER = "ecdsa_verify_schema"
    case ecdsaP1363 = "ecdsa_p1363_verify_schema"
    case eddsa = "eddsa_verify_schema"
    case rsaPKCS1 = "rsassa_pkcs1_verify_schema"
    case rsaPSS = "rsassa_pss_verify_schema"

    /// Accepts `NAME_v1.json`, `NAME.json` and either without `.json`.
    init?(fileValue: String) {
        var name = Substring(fileValue)
        if name.hasSuffix(".json") { name = name.dropLast(5) }
        if name.hasSuffix("_v1") { name = name.dropLast(3) }
        self.init(rawValue: String(name))
    }
}

/// One vector's expected result.
private enum Expected: String {
    case valid, invalid, acceptable
}

// MARK: - Tallies and the per-file report

/// Counts over vectors; also the grand total.
private struct WycheproofTally {
    /// Vectors whose verdict matched a `valid` or `invalid` result.
    var agreed = 0
    var validVerified = 0
    var invalidRejected = 0
    /// Disagreeing vectors, in file order.
    var disagreements: [Disagreement] = []
    /// `acceptable` vectors with Tack's verdict, in file order.
    var acceptable: [(tcId: Int, flags: [String], accepted: Bool)] = []
    /// Skipped groups: the group's 1-based index, its reason and vector count.
    var skippedGroups: [(index: Int, reason: String, vectors: Int)] = []

    var skippedVectors: Int { skippedGroups.reduce(0) { $0 + $1.vectors } }
    var checked: Int { agreed + disagreements.count + acceptable.count }

    struct Disagreement {
        let tcId: Int
        let expected: Expected
        /// nil when Tack accepted; otherwise the error it threw.
        let rejection: SignatureError?
        let comment: String
        let flags: [String]
    }

    mutating func record(_ vector: WycheproofFile.Vector, expected: Expected, rejection: SignatureError?) {
        let accepted = rejection == nil
        switch expected {
        case .valid where accepted:
            agreed += 1
            validVerified += 1
        case .invalid where !accepted:
            agreed += 1
            invalidRejected += 1
        case .acceptable:
            acceptable.append((vector.tcId, vector.flags ?? [], accepted))
        case .valid, .invalid:
            disagreements.append(
                Disagreement(
                    tcId: vector.tcId, expected: expected, rejection: rejection,
                    comment: vector.comment ?? "", flags: vector.flags ?? []))
        }
    }

    mutating func add(_ other: WycheproofTally) {
        agreed += other.agreed
        validVerified += other.validVerified
        invalidRejected += other.invalidRejected
        disagreements += other.disagreements
        acceptable += other.acceptable
        skippedGroups += other.skippedGroups
    }
}

private struct WycheproofReport {
    let path: String
    let schema: String
    let algorithm: String
    let groupCount: Int
    let vectorCount: Int
    let tally: WycheproofTally

    func lines(verbose: Bool) -> [String] {
        var lines = [path]
        lines.append("  schema \(schema), algorithm \(algorithm), \(counted(groupCount, "group")), \(counted(vectorCount, "vector"))")
        lines.append(
            "  agree \(tally.agreed) (\(tally.validVerified) valid verified, \(tally.invalidRejected) invalid rejected)"
                + ", disagree \(tally.disagreements.count)")

        let accepted = tally.acceptable.filter(\.accepted)
        let rejected = tally.acceptable.filter { !$0.accepted }
        var acceptableLine = "  acceptable \(tally.acceptable.count)"
        if !tally.acceptable.isEmpty {
            var parts: [String] = []
            if !accepted.isEmpty { parts.append("Tack accepts \(accepted.count) (\(Self.flagSummary(accepted.map(\.flags))))") }
            if !rejected.isEmpty { parts.append("Tack rejects \(rejected.count) (\(Self.flagSummary(rejected.map(\.flags))))") }
            acceptableLine += ": " + parts.joined(separator: "; ")
        }
        lines.append(acceptableLine)
        if verbose {
            for vector in tally.acceptable {
                lines.append(
                    "    acceptable tcId \(vector.tcId): \(vector.accepted ? "accepted" : "rejected")"
                        + " [\(vector.flags.joined(separator: ", "))]")
            }
        }

        if tally.skippedGroups.isEmpty {
            lines.append("  skipped 0 groups")
        } else {
            let groups = tally.skippedGroups.count
            lines.append("  skipped \(counted(groups, "group")) (\(counted(tally.skippedVectors, "vector"))):")
            // By reason, in order of first appearance.
            var reasons: [String] = []
            var byReason: [String: (groups: Int, vectors: Int)] = [:]
            for group in tally.skippedGroups {
                if byReason[group.reason] == nil { reasons.append(group.reason) }
                byReason[group.reason, default: (0, 0)].groups += 1
                byReason[group.reason, default: (0, 0)].vectors += group.vectors
            }
            for reason in reasons {
                let count = byReason[reason] ?? (0, 0)
                lines.append("    \(reason): \(counted(count.groups, "group")), \(counted(count.vectors, "vector"))")
            }
            if verbose {
                for group in tally.skippedGroups {
                    lines.append("    group \(group.index) (\(counted(group.vectors, "vector"))): \(group.reason)")
                }
            }
        }

        for item in tally.disagreements {
            let verdict = item.rejection.map { "Tack rejects (\(describe($0)))" } ?? "Tack accepts"
            var line = "  DISAGREE tcId \(item.tcId): expected \(item.expected.rawValue), \(verdict)"
            if !item.comment.isEmpty { line += "; \"\(item.comment)\"" }
            if !item.flags.isEmpty { line += " [\(item.flags.joined(separator: ", "))]" }
            lines.append(line)
        }
        if !tally.disagreements.isEmpty {
            lines.append("  disagreeing tcIds: " + tally.disagreements.map { String($0.tcId) }.joined(separator: ", "))
        }
        if tally.checked == 0 {
            lines.append("  no vector checked")
        }
        return lines
    }

    /// "MissingNull ×3, BerEncodedPadding" for a list of flag sets.
    private static func flagSummary(_ flagSets: [[String]]) -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for flags in flagSets {
            let key = flags.isEmpty ? "no flag" : flags.joined(separator: "+")
            if counts[key] == nil { order.append(key) }
            counts[key, default: 0] += 1
        }
        return order.map { key in
            let count = counts[key] ?? 0
            return count == 1 ? key : "\(key) ×\(count)"
        }.joined(separator: ", ")
    }
}

/// A short rendering of a verification error.
private func describe(_ error: SignatureError) -> String {
    error.description
}

// MARK: - Running a file

private enum WycheproofRunner {
    static func run(path: String) throws(CLIError) -> WycheproofReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("\(path): cannot read the file", status: 2)
        }
        let schemaName: String
        do {
            schemaName = try JSONDecoder().decode(WycheproofHeader.self, from: data).schema
        } catch {
            throw CLIError("\(path): not a Wycheproof test file (\(describeDecoding(error)))", status: 2)
        }
        guard let schema = WycheproofSchema(fileValue: schemaName) else {
            throw CLIError(
                "\(path): schema \(schemaName) is not a signature-verification schema Tack runs"
                    + " (ecdsa, ecdsa_p1363, eddsa, rsassa_pkcs1, rsassa_pss verify)",
                status: 2)
        }
        let file: WycheproofFile
        do {
            file = try JSONDecoder().decode(WycheproofFile.self, from: data)
        } catch {
            throw CLIError("\(path): malformed \(schemaName) file (\(describeDecoding(error)))", status: 2)
        }

        var tally = WycheproofTally()
        var vectorCount = 0
        for (offset, group) in file.testGroups.enumerated() {
            vectorCount += group.tests.count
            let verifier: GroupVerifier
            switch try makeVerifier(schema: schema, group: group, path: path) {
            case .skip(let reason):
                tally.skippedGroups.append((offset + 1, reason, group.tests.count))
                continue
            case .run(let made):
                verifier = made
            }
            for vector in group.tests {
                guard let expected = Expected(rawValue: vector.result) else {
                    throw CLIError("\(path): tcId \(vector.tcId): unknown result \"\(vector.result)\"", status: 2)
                }
                let message = try hexBytes(vector.msg, path: path, tcId: vector.tcId, field: "msg")
                let signature = try hexBytes(vector.sig, path: path, tcId: vector.tcId, field: "sig")
                tally.record(vector, expected: expected, rejection: verifier.verify(signature: signature, message: message))
            }
        }
        return WycheproofReport(
            path: path,
            schema: schemaName.hasSuffix(".json") ? String(schemaName.dropLast(5)) : schemaName,
            algorithm: file.algorithm ?? "?",
            groupCount: file.testGroups.count,
            vectorCount: vectorCount,
            tally: tally)
    }

    private enum Plan {
        case run(GroupVerifier)
        case skip(String)
    }

    /// Builds the verifier for a group, or says why the group is skipped.
    ///
    /// A key that Tack refuses as malformed is not a reason to skip: every
    /// vector of its group is then rejected, and compared as such. A key
    /// Tack refuses as unsupported (size, exponent) skips the group.
    private static func makeVerifier(
        schema: WycheproofSchema, group: WycheproofFile.Group, path: String
    ) throws(CLIError) -> Plan {
        let key = group.publicKey ?? group.key
        switch schema {
        case .ecdsaDER, .ecdsaP1363:
            guard let curveName = key?.curve else { throw CLIError("\(path): an ECDSA group has no curve", status: 2) }
            guard let curve = ecdsaCurve(curveName) else { return .skip("unsupported curve \(curveName)") }
            guard let shaName = group.sha else { throw CLIError("\(path): an ECDSA group has no sha", status: 2) }
            guard let hash = VectorHash(wycheproofName: shaName) else {
                return .skip("unsupported hash \(shaName)")
            }
            let point = try ecPoint(key, curve: curve, path: path)
            do throws(SignatureError) {
                let publicKey = try ECDSAPublicKey(curve: curve, x962Representation: point)
                return .run(.ecdsa(publicKey, hash, isDER: schema == .ecdsaDER))
            } catch .unsupported(let reason) {
                return .skip("unsupported key: \(reason)")
            } catch {
                return .run(.rejectAll(error))
            }

        case .eddsa:
            let curveName = key?.curve ?? "edwards25519"
            switch curveName {
            case "edwards25519", "ed25519", "Ed25519": break
            case "edwards448", "ed448", "Ed448": return .skip("Ed448 not supported")
            default: return .skip("unsupported curve \(curveName)")
            }
            guard let pk = key?.pk else { throw CLIError("\(path): an EdDSA group has no pk", status: 2) }
            let raw = try hexBytes(pk, path: path, tcId: nil, field: "pk")
            do throws(SignatureError) {
                return .run(.ed25519(try Ed25519PublicKey(rawRepresentation: raw)))
            } catch .unsupported(let reason) {
                return .skip("unsupported key: \(reason)")
            } catch {
                return .run(.rejectAll(error))
            }

        case .rsaPKCS1, .rsaPSS:
            guard let shaName = group.sha else { throw CLIError("\(path): an RSA group has no sha", status: 2) }
            guard let hash = VectorHash(wycheproofName: shaName)?.rsaHash else {
                return .skip("unsupported hash \(shaName)")
            }
            var parameters: PSSParameters?
            if schema == .rsaPSS {
                let mgf = group.mgf ?? "MGF1"
                guard mgf == "MGF1" else { return .skip("unsupported mask generation function \(mgf)") }
                guard let mgfShaName = group.mgfSha else { throw CLIError("\(path): a PSS group has no mgfSha", status: 2) }
                guard let mgfHash = VectorHash(wycheproofName: mgfShaName)?.rsaHash else {
                    return .skip("unsupported MGF1 hash \(mgfShaName)")
                }
                guard let saltLength = group.sLen else { throw CLIError("\(path): a PSS group has no sLen", status: 2) }
                do throws(SignatureError) {
                    parameters = try PSSParameters(hash: hash, mgf1Hash: mgfHash, saltLength: saltLength)
                } catch {
                    return .skip("PSS parameters refused: \(describe(error))")
                }
            }
            if let keySize = group.keySize ?? key?.keySize,
                !(RSAPublicKey.minimumModulusBitCount...RSAPublicKey.maximumModulusBitCount).contains(keySize)
            {
                return .skip(
                    "RSA key size \(keySize) bits outside \(RSAPublicKey.minimumModulusBitCount)"
                        + "-\(RSAPublicKey.maximumModulusBitCount)")
            }
            let keyResult = try rsaKey(group, key: key, path: path)
            do throws(SignatureError) {
                let publicKey = try keyResult.get()
                if let parameters { return .run(.rsaPSS(publicKey, parameters)) }
                return .run(.rsaPKCS1(publicKey, hash))
            } catch .unsupported(let reason) {
                return .skip("unsupported key: \(reason)")
            } catch {
                return .run(.rejectAll(error))
            }
        }
    }

    private static func ecdsaCurve(_ name: String) -> ECDSAPublicKey.Curve? {
        switch name {
        case "secp256r1", "prime256v1", "P-256": .p256
        case "secp384r1", "P-384": .p384
        case "secp521r1", "P-521": .p521
        default: nil
        }
    }

    /// The SEC 1 encoding of the group's point: `uncompressed`, or else 04 ‖ wx ‖ wy
    /// with the coordinates (which carry a sign byte when their top bit is set)
    /// brought to the curve's width.
    private static func ecPoint(
        _ key: WycheproofFile.Key?, curve: ECDSAPublicKey.Curve, path: String
    ) throws(CLIError) -> [UInt8] {
        if let uncompressed = key?.uncompressed {
            return try hexBytes(uncompressed, path: path, tcId: nil, field: "uncompressed")
        }
        guard let wx = key?.wx, let wy = key?.wy else {
            throw CLIError("\(path): an ECDSA group has neither uncompressed nor wx/wy", status: 2)
        }
        let width = curve.scalarByteCount
        func coordinate(_ hex: String, _ field: String) throws(CLIError) -> [UInt8] {
            let bytes = try hexBytes(hex, path: path, tcId: nil, field: field).drop(while: { $0 == 0 })
            // Too wide a coordinate is left too wide, for the key check to refuse.
            return [UInt8](repeating: 0, count: max(0, width - bytes.count)) + bytes
        }
        return [0x04] + (try coordinate(wx, "wx")) + (try coordinate(wy, "wy"))
    }

    /// The group's RSA key: `publicKey.modulus`/`publicExponent` (v1), else the
    /// PKCS #1 DER of `publicKeyAsn`/`keyAsn`, else `n`/`e` (older schemas).
    private static func rsaKey(
        _ group: WycheproofFile.Group, key: WycheproofFile.Key?, path: String
    ) throws(CLIError) -> Result<RSAPublicKey, SignatureError> {
        func bytes(_ hex: String, _ field: String) throws(CLIError) -> [UInt8] {
            try hexBytes(hex, path: path, tcId: nil, field: field)
        }
        if let modulus = key?.modulus, let exponent = key?.publicExponent {
            let n = try bytes(modulus, "modulus")
            let e = try bytes(exponent, "publicExponent")
            return Result { () throws(SignatureError) in try RSAPublicKey(modulus: n, exponent: e) }
        }
        if let asn = group.publicKeyAsn ?? group.keyAsn {
            let der = try bytes(asn, "publicKeyAsn")
            return Result { () throws(SignatureError) in try RSAPublicKey(pkcs1DER: der) }
        }
        if let n = group.n, let e = group.e {
            let modulus = try bytes(n, "n")
            let exponent = try bytes(e, "e")
            return Result { () throws(SignatureError) in try RSAPublicKey(modulus: modulus, exponent: exponent) }
        }
        throw CLIError("\(path): an RSA group has no key (publicKey, publicKeyAsn or n/e)", status: 2)
    }
}

/// How one group's vectors are verified.
private enum GroupVerifier {
    case ecdsa(ECDSAPublicKey, VectorHash, isDER: Bool)
    case ed25519(Ed25519PublicKey)
    case rsaPKCS1(RSAPublicKey, RSAHash)
    case rsaPSS(RSAPublicKey, PSSParameters)
    /// The key itself was refused: no signature verifies under it.
    case rejectAll(SignatureError)

    /// nil when the signature verifies; the error Tack threw otherwise.
    func verify(signature: [UInt8], message: [UInt8]) -> SignatureError? {
        do throws(SignatureError) {
            switch self {
            case .ecdsa(let key, let hash, let isDER):
                let digest = hash.digest(message)
                if isDER {
                    try key.verifySignature(signature, forDigest: digest)
                } else {
                    try key.verifySignature(ECDSASignature(rawRepresentation: signature, curve: key.curve), forDigest: digest)
                }
            case .ed25519(let key):
                try key.verifySignature(signature, for: message)
            case .rsaPKCS1(let key, let hash):
                try key.verifyPKCS1v15Signature(signature, for: message, hash: hash)
            case .rsaPSS(let key, let parameters):
                try key.verifyPSSSignature(signature, for: message, parameters: parameters)
            case .rejectAll(let error):
                throw error
            }
            return nil
        } catch {
            return error
        }
    }
}

/// The hashes of TackSHA2 under their Wycheproof names.
private enum VectorHash {
    case sha224, sha256, sha384, sha512, sha512_256

    init?(wycheproofName: String) {
        switch wycheproofName {
        case "SHA-224": self = .sha224
        case "SHA-256": self = .sha256
        case "SHA-384": self = .sha384
        case "SHA-512": self = .sha512
        case "SHA-512/256": self = .sha512_256
        default: return nil
        }
    }

    /// The RSA signature hash, for the four RSAHash offers.
    var rsaHash: RSAHash? {
        switch self {
        case .sha224: .sha224
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        case .sha512_256: nil
        }
    }

    func digest(_ message: [UInt8]) -> [UInt8] {
        switch self {
        case .sha224: Array(SHA224.hash(message))
        case .sha256: Array(SHA256.hash(message))
        case .sha384: Array(SHA384.hash(message))
        case .sha512: Array(SHA512.hash(message))
        case .sha512_256: Array(SHA512_256.hash(message))
        }
    }
}

// MARK: - Helpers

/// "1 group", "2 groups".
private func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// Hex field of a file, or a file error naming the field (and vector).
private func hexBytes(_ text: String, path: String, tcId: Int?, field: String) throws(CLIError) -> [UInt8] {
    guard let bytes = try? Hex.decode(text) else {
        let place = tcId.map { "tcId \($0): " } ?? ""
        throw CLIError("\(path): \(place)\(field) is not hex", status: 2)
    }
    return bytes
}

/// A one-line account of a JSON decoding failure: what, and where.
private func describeDecoding(_ error: any Error) -> String {
    func location(_ path: [any CodingKey]) -> String {
        path.isEmpty
            ? "top level"
            : path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
    switch error as? DecodingError {
    case .keyNotFound(let key, let context)?:
        return "missing \(key.stringValue) at \(location(context.codingPath))"
    case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
        return "wrong type at \(location(context.codingPath))"
    case .dataCorrupted(let context)?:
        return context.codingPath.isEmpty ? "not valid JSON" : "bad value at \(location(context.codingPath))"
    default:
        return "\(error)"
    }
}
