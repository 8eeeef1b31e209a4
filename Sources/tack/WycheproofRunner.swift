// Running one Wycheproof file: a verifier per group (or the reason it is skipped),
// then every vector through it.

import Foundation
import TackSHA2
import TackSignature
import TackX509
import TackVectorSuites

enum WycheproofRunner {
    /// Runs every vector of the file at `path`.
    static func run(path: String) throws(CLIError) -> WycheproofReport {
        let (schemaName, schema, file) = try read(path: path)
        var tally = WycheproofTally()
        for (offset, group) in file.testGroups.enumerated() {
            switch try plan(schema: schema, group: group, path: path) {
            case .skip(let reason):
                tally.skippedGroups.append((offset + 1, reason, group.tests.count))
            case .run(let verifier):
                try run(group.tests, with: verifier, path: path, into: &tally)
            }
        }
        return WycheproofReport(
            path: path,
            schema: schemaName.hasSuffix(".json") ? String(schemaName.dropLast(5)) : schemaName,
            algorithm: file.algorithm ?? "?",
            groupCount: file.testGroups.count,
            vectorCount: file.testGroups.reduce(0) { $0 + $1.tests.count },
            tally: tally)
    }

    /// The file's schema name, the schema, and the whole file; the schema is read
    /// first so that an unknown file is refused by name rather than by whichever
    /// field it lacks.
    private static func read(path: String) throws(CLIError) -> (String, WycheproofSchema, WycheproofFile) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("\(path): cannot read the file", status: 2)
        }
        let schemaName: String
        do {
            schemaName = try JSONDecoder().decode(WycheproofFile.Header.self, from: data).schema
        } catch {
            throw CLIError("\(path): not a Wycheproof test file (\(describeDecoding(error)))", status: 2)
        }
        guard let schema = WycheproofSchema(fileValue: schemaName) else {
            throw CLIError(
                "\(path): schema \(schemaName) is not a signature-verification schema Tack runs"
                    + " (ecdsa, ecdsa_p1363, eddsa, rsassa_pkcs1, rsassa_pss verify)",
                status: 2)
        }
        do {
            return (schemaName, schema, try JSONDecoder().decode(WycheproofFile.self, from: data))
        } catch {
            throw CLIError("\(path): malformed \(schemaName) file (\(describeDecoding(error)))", status: 2)
        }
    }

    /// Verifies each vector of a group and records the verdict against its result.
    private static func run(
        _ vectors: [WycheproofFile.Vector], with verifier: GroupVerifier, path: String, into tally: inout WycheproofTally
    ) throws(CLIError) {
        for vector in vectors {
            guard let expected = Expected(rawValue: vector.result) else {
                throw CLIError("\(path): tcId \(vector.tcId): unknown result \"\(vector.result)\"", status: 2)
            }
            let message = try hexBytes(vector.msg, path: path, tcId: vector.tcId, field: "msg")
            let signature = try hexBytes(vector.sig, path: path, tcId: vector.tcId, field: "sig")
            tally.record(vector, expected: expected, rejection: verifier.verify(signature: signature, message: message))
        }
    }

    private enum Plan {
        case run(GroupVerifier)
        case skip(String)
    }

    /// The verifier for a group, or why the group is skipped.
    private static func plan(schema: WycheproofSchema, group: WycheproofFile.Group, path: String) throws(CLIError) -> Plan {
        switch schema {
        case .ecdsaDER, .ecdsaP1363: try ecdsaPlan(group, isDER: schema == .ecdsaDER, path: path)
        case .eddsa: try eddsaPlan(group, path: path)
        case .rsaPKCS1, .rsaPSS: try rsaPlan(group, isPSS: schema == .rsaPSS, path: path)
        }
    }

    /// Runs `makeVerifier` on the group's key. A key that Tack refuses as malformed
    /// is not a reason to skip: every vector of its group is then rejected, and
    /// compared as such. A key Tack refuses as unsupported (size, exponent) skips
    /// the group.
    private static func plan(_ makeVerifier: () throws(SignatureError) -> GroupVerifier) -> Plan {
        do throws(SignatureError) {
            return .run(try makeVerifier())
        } catch .unsupported(let reason) {
            return .skip("unsupported key: \(reason)")
        } catch {
            return .run(.rejectAll(error))
        }
    }

    private static func ecdsaPlan(_ group: WycheproofFile.Group, isDER: Bool, path: String) throws(CLIError) -> Plan {
        let key = group.publicKey ?? group.key
        guard let curveName = key?.curve else { throw CLIError("\(path): an ECDSA group has no curve", status: 2) }
        guard let curve = ecdsaCurve(curveName) else { return .skip("unsupported curve \(curveName)") }
        guard let shaName = group.sha else { throw CLIError("\(path): an ECDSA group has no sha", status: 2) }
        guard let hash = VectorHash(wycheproofName: shaName) else { return .skip("unsupported hash \(shaName)") }
        let point = try ecPoint(key, curve: curve, path: path)
        return plan { () throws(SignatureError) in
            .ecdsa(try ECDSAPublicKey(curve: curve, x962Representation: point), hash, isDER: isDER)
        }
    }

    private static func eddsaPlan(_ group: WycheproofFile.Group, path: String) throws(CLIError) -> Plan {
        let key = group.publicKey ?? group.key
        let curveName = key?.curve ?? "edwards25519"
        switch curveName {
        case "edwards25519", "ed25519", "Ed25519": break
        case "edwards448", "ed448", "Ed448": return .skip("Ed448 not supported")
        default: return .skip("unsupported curve \(curveName)")
        }
        guard let pk = key?.pk else { throw CLIError("\(path): an EdDSA group has no pk", status: 2) }
        let raw = try hexBytes(pk, path: path, tcId: nil, field: "pk")
        return plan { () throws(SignatureError) in .ed25519(try Ed25519PublicKey(rawRepresentation: raw)) }
    }

    private static func rsaPlan(_ group: WycheproofFile.Group, isPSS: Bool, path: String) throws(CLIError) -> Plan {
        let key = group.publicKey ?? group.key
        guard let shaName = group.sha else { throw CLIError("\(path): an RSA group has no sha", status: 2) }
        guard let hash = VectorHash(wycheproofName: shaName)?.rsaHash else { return .skip("unsupported hash \(shaName)") }
        var parameters: PSSParameters?
        if isPSS {
            switch try pssParameters(group, hash: hash, path: path) {
            case .success(let made): parameters = made
            case .failure(let reason): return .skip(reason.text)
            }
        }
        let range = RSAPublicKey.minimumModulusBitCount...RSAPublicKey.maximumModulusBitCount
        if let keySize = group.keySize ?? key?.keySize, !range.contains(keySize) {
            return .skip("RSA key size \(keySize) bits outside \(range.lowerBound)-\(range.upperBound)")
        }
        let keyResult = try rsaKey(group, key: key, path: path)
        return plan { () throws(SignatureError) in
            let publicKey = try keyResult.get()
            if let parameters { return .rsaPSS(publicKey, parameters) }
            return .rsaPKCS1(publicKey, hash)
        }
    }

    /// Why a group's PSS parameters are not run.
    private struct SkipReason: Error {
        let text: String
    }

    /// The group's PSS parameters (MGF1 only), or why they are not run.
    private static func pssParameters(
        _ group: WycheproofFile.Group, hash: DigestAlgorithm, path: String
    ) throws(CLIError) -> Result<PSSParameters, SkipReason> {
        let mgf = group.mgf ?? "MGF1"
        guard mgf == "MGF1" else { return .failure(SkipReason(text: "unsupported mask generation function \(mgf)")) }
        guard let mgfShaName = group.mgfSha else { throw CLIError("\(path): a PSS group has no mgfSha", status: 2) }
        guard let mgfHash = VectorHash(wycheproofName: mgfShaName)?.rsaHash else {
            return .failure(SkipReason(text: "unsupported MGF1 hash \(mgfShaName)"))
        }
        guard let saltLength = group.sLen else { throw CLIError("\(path): a PSS group has no sLen", status: 2) }
        do throws(SignatureError) {
            return .success(try PSSParameters(hash: hash, mgf1Hash: mgfHash, saltLength: saltLength))
        } catch {
            return .failure(SkipReason(text: "PSS parameters refused: \(error.description)"))
        }
    }

    private static func ecdsaCurve(_ name: String) -> ECCurve? {
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
        _ key: WycheproofFile.Key?, curve: ECCurve, path: String
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
enum GroupVerifier {
    case ecdsa(ECDSAPublicKey, VectorHash, isDER: Bool)
    case ed25519(Ed25519PublicKey)
    case rsaPKCS1(RSAPublicKey, DigestAlgorithm)
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

