// The one Wycheproof runner: reads a file, picks a verifier or a primitive
// check per group (or the reason it is skipped), runs every vector and tallies
// the outcomes. `tack vectors wycheproof` prints its reports; the test suites
// (Tests/TackSignatureTests, Tests/TackCipherTests) assert on them, so both
// read Wycheproof, and its `acceptable` result, the same way. The primitive
// schemas are in WycheproofPrimitives.swift.

public import Foundation
import TackDigest
import TackSignature
import TackX509

/// Runs Wycheproof files (github.com/C2SP/wycheproof, `testvectors_v1`) through
/// Tack: the signature-verification schemas through TackSignature, AES-CBC
/// and ChaCha20-Poly1305 through TackCipher, HMAC, PBKDF2 and HKDF through
/// TackDigest, X25519 through TackSignature.
///
/// ## Reading `acceptable`
///
/// Wycheproof rates a vector `acceptable` when an implementation may either
/// accept or reject it (legal but discouraged inputs). Tack reads it one way,
/// here, for the command line and the tests alike: an `acceptable` vector is
/// neither passed nor failed; Tack's verdict is recorded and reported by flag —
/// except where Tack has a deliberate, documented stance on the vector's flag,
/// listed in ``acceptableStances``. There the verdict must match the stance,
/// and a mismatch is a disagreement like a wrong `valid`/`invalid` verdict. A
/// wrong output (a different plaintext, say) is always a disagreement.
public enum WycheproofRunner {
    /// Tack's stance on `acceptable` vectors, by Wycheproof flag: `true` when
    /// Tack accepts such vectors, `false` when it rejects them.
    ///
    /// - `MissingNull` (RSASSA-PKCS1-v1_5 `DigestInfo` without the NULL
    ///   parameters): rejected, so that a signature has one valid encoding
    ///   (see `RSAPublicKey.verifyPKCS1v15Signature(_:forDigest:hash:)`).
    /// - `CompressedPublic` (an ECDH peer key as a compressed point): accepted,
    ///   as SEC 1 v2 §2.3.4 decodes it (see `ECDHPublicKey`).
    /// - `ZeroSharedSecret` (X25519 with a peer key of small order):
    ///   rejected, as RFC 8446 §7.4.2 requires of TLS 1.3 (see
    ///   `X25519PrivateKey.sharedSecret(with:)`). The other X25519 flags
    ///   (`Twist`, `NonCanonicalPublic`, `LowOrderPublic` with a non-zero
    ///   result) have no stance: RFC 7748 §5 accepts every 32-byte public key.
    public static let acceptableStances: [String: Bool] = ["MissingNull": false, "CompressedPublic": true, "ZeroSharedSecret": false]

    /// The stance for a vector's flags: that of the first flag with one, or
    /// nil when none has one (either verdict is then recorded).
    static func stance(forAcceptable flags: [String]) -> Bool? {
        for flag in flags {
            if let stance = acceptableStances[flag] { return stance }
        }
        return nil
    }

    /// Runs every vector of the file at `path`.
    ///
    /// - Parameter path: A Wycheproof JSON file.
    /// - Returns: The file's report.
    /// - Throws: ``WycheproofFileError`` when the file cannot be read, is not
    ///   JSON, has a schema Tack does not run, or lacks a field a group needs.
    public static func run(path: String) throws(WycheproofFileError) -> WycheproofReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw WycheproofFileError("\(path): cannot read the file")
        }
        return try run(data: data, path: path)
    }

    /// Runs every vector of a file already read.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - path: The name to report the file under.
    /// - Returns: The file's report.
    /// - Throws: ``WycheproofFileError`` as ``run(path:)``.
    public static func run(data: Data, path: String) throws(WycheproofFileError) -> WycheproofReport {
        let document: JSONFields
        do {
            document = try JSONFields(document: [UInt8](data))
        } catch {
            throw WycheproofFileError("\(path): not a Wycheproof test file (\(error))")
        }
        let schemaName: String
        do {
            schemaName = try WycheproofFile.Header(fields: document).schema
        } catch {
            throw WycheproofFileError("\(path): not a Wycheproof test file (\(error))")
        }
        guard let schema = WycheproofSchema(fileValue: schemaName) else {
            throw WycheproofFileError(
                "\(path): schema \(schemaName) is not a schema Tack runs"
                    + " (ecdsa, ecdsa_p1363, eddsa, rsassa_pkcs1, rsassa_pss verify; ind_cpa, mac, pbkdf, pbe, aead, hkdf,"
                    + " ecdh_ecpoint test; xdh_comp)")
        }
        let shortName = schemaName.hasSuffix(".json") ? String(schemaName.dropLast(5)) : schemaName
        if !schema.isSignatureVerification {
            let file: WycheproofPrimitiveFile
            do {
                file = try WycheproofPrimitiveFile(fields: document)
            } catch {
                throw WycheproofFileError("\(path): malformed \(schemaName) file (\(error))")
            }
            return try runPrimitive(file, schema: schema, schemaName: shortName, path: path)
        }
        let file: WycheproofFile
        do {
            file = try WycheproofFile(fields: document)
        } catch {
            throw WycheproofFileError("\(path): malformed \(schemaName) file (\(error))")
        }
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
            schema: shortName,
            algorithm: file.algorithm ?? "?",
            groupCount: file.testGroups.count,
            vectorCount: file.testGroups.reduce(0) { $0 + $1.tests.count },
            tally: tally)
    }

    /// The expected result of a vector, or a file error.
    static func expectation(_ result: String, tcId: Int, path: String) throws(WycheproofFileError) -> WycheproofExpectation {
        guard let expected = WycheproofExpectation(rawValue: result) else {
            throw WycheproofFileError("\(path): tcId \(tcId): unknown result \"\(result)\"")
        }
        return expected
    }

    /// Verifies each vector of a group and records the verdict against its result.
    private static func run(
        _ vectors: [WycheproofFile.Vector], with verifier: GroupVerifier, path: String, into tally: inout WycheproofTally
    ) throws(WycheproofFileError) {
        for vector in vectors {
            let expected = try expectation(vector.result, tcId: vector.tcId, path: path)
            let message = try hexBytes(vector.msg, path: path, tcId: vector.tcId, field: "msg")
            let signature = try hexBytes(vector.sig, path: path, tcId: vector.tcId, field: "sig")
            let outcome: WycheproofOutcome =
                verifier.verify(signature: signature, message: message).map { .rejected($0.description) } ?? .accepted
            tally.record(tcId: vector.tcId, comment: vector.comment, flags: vector.flags, expected: expected, outcome: outcome)
        }
    }

    private enum Plan {
        case run(GroupVerifier)
        case skip(String)
    }

    /// The verifier for a group, or why the group is skipped.
    private static func plan(schema: WycheproofSchema, group: WycheproofFile.Group, path: String) throws(WycheproofFileError) -> Plan {
        switch schema {
        case .ecdsaDER, .ecdsaP1363: try ecdsaPlan(group, isDER: schema == .ecdsaDER, path: path)
        case .eddsa: try eddsaPlan(group, path: path)
        case .rsaPKCS1, .rsaPSS: try rsaPlan(group, isPSS: schema == .rsaPSS, path: path)
        case .indCPA, .mac, .pbkdf, .pbe, .aead, .ecdhPoint, .xdhComp, .hkdf:
            throw WycheproofFileError("\(path): \(schema.rawValue) is not a signature-verification schema")
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

    private static func ecdsaPlan(_ group: WycheproofFile.Group, isDER: Bool, path: String) throws(WycheproofFileError) -> Plan {
        let key = group.publicKey ?? group.key
        guard let curveName = key?.curve else { throw WycheproofFileError("\(path): an ECDSA group has no curve") }
        guard let curve = ecdsaCurve(curveName) else { return .skip("unsupported curve \(curveName)") }
        guard let shaName = group.sha else { throw WycheproofFileError("\(path): an ECDSA group has no sha") }
        guard let hash = signatureHash(shaName) else { return .skip(unsupportedSignatureHashReason(shaName, "hash")) }
        let point = try ecPoint(key, curve: curve, path: path)
        return plan { () throws(SignatureError) in
            .ecdsa(try ECDSAPublicKey(curve: curve, x962Representation: point), hash, isDER: isDER)
        }
    }

    private static func eddsaPlan(_ group: WycheproofFile.Group, path: String) throws(WycheproofFileError) -> Plan {
        let key = group.publicKey ?? group.key
        let curveName = key?.curve ?? "edwards25519"
        switch curveName {
        case "edwards25519", "ed25519", "Ed25519": break
        case "edwards448", "ed448", "Ed448": return .skip("Ed448 not supported")
        default: return .skip("unsupported curve \(curveName)")
        }
        guard let pk = key?.pk else { throw WycheproofFileError("\(path): an EdDSA group has no pk") }
        let raw = try hexBytes(pk, path: path, tcId: nil, field: "pk")
        return plan { () throws(SignatureError) in .ed25519(try Ed25519PublicKey(rawRepresentation: raw)) }
    }

    private static func rsaPlan(_ group: WycheproofFile.Group, isPSS: Bool, path: String) throws(WycheproofFileError) -> Plan {
        let key = group.publicKey ?? group.key
        guard let shaName = group.sha else { throw WycheproofFileError("\(path): an RSA group has no sha") }
        guard let hash = signatureHash(shaName) else { return .skip(unsupportedSignatureHashReason(shaName, "hash")) }
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

    /// Why a group is not run (its PSS parameters, a primitive's hash).
    struct SkipReason: Error {
        let text: String
    }

    /// The group's PSS parameters (MGF1 only), or why they are not run.
    private static func pssParameters(
        _ group: WycheproofFile.Group, hash: DigestAlgorithm, path: String
    ) throws(WycheproofFileError) -> Result<PSSParameters, SkipReason> {
        let mgf = group.mgf ?? "MGF1"
        guard mgf == "MGF1" else { return .failure(SkipReason(text: "unsupported mask generation function \(mgf)")) }
        guard let mgfShaName = group.mgfSha else { throw WycheproofFileError("\(path): a PSS group has no mgfSha") }
        guard let mgfHash = signatureHash(mgfShaName) else {
            return .failure(SkipReason(text: unsupportedSignatureHashReason(mgfShaName, "MGF1 hash")))
        }
        guard let saltLength = group.sLen else { throw WycheproofFileError("\(path): a PSS group has no sLen") }
        do throws(SignatureError) {
            return .success(try PSSParameters(hash: hash, mgf1Hash: mgfHash, saltLength: saltLength))
        } catch {
            return .failure(SkipReason(text: "PSS parameters refused: \(error.description)"))
        }
    }

    /// The hash a signature group names, when Tack signs and verifies with it:
    /// computed by TackDigest and collision-resistant (SHA-1 is refused for
    /// signatures, as TackSignature refuses it).
    private static func signatureHash(_ name: String) -> DigestAlgorithm? {
        guard let hash = DigestAlgorithm(wycheproofName: name), hash.isComputable, hash.isCollisionResistant else {
            return nil
        }
        return hash
    }

    /// Why a signature group's hash is not run: not in TackDigest, or refused
    /// for signatures.
    private static func unsupportedSignatureHashReason(_ name: String, _ role: String) -> String {
        if let hash = DigestAlgorithm(wycheproofName: name), hash.isComputable {
            return "unsupported \(role) \(name) (not accepted for signatures: collisions are practical)"
        }
        return "unsupported \(role) \(name) (not in TackDigest)"
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
    ) throws(WycheproofFileError) -> [UInt8] {
        if let uncompressed = key?.uncompressed {
            return try hexBytes(uncompressed, path: path, tcId: nil, field: "uncompressed")
        }
        guard let wx = key?.wx, let wy = key?.wy else {
            throw WycheproofFileError("\(path): an ECDSA group has neither uncompressed nor wx/wy")
        }
        let width = curve.scalarByteCount
        func coordinate(_ hex: String, _ field: String) throws(WycheproofFileError) -> [UInt8] {
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
    ) throws(WycheproofFileError) -> Result<RSAPublicKey, SignatureError> {
        func bytes(_ hex: String, _ field: String) throws(WycheproofFileError) -> [UInt8] {
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
        throw WycheproofFileError("\(path): an RSA group has no key (publicKey, publicKeyAsn or n/e)")
    }
}

/// How one group's vectors are verified.
enum GroupVerifier {
    /// The hash is one ``WycheproofRunner`` accepts for signatures (computed, collision-resistant).
    case ecdsa(ECDSAPublicKey, DigestAlgorithm, isDER: Bool)
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
                let digest: [UInt8]
                do throws(HashError) {
                    digest = try hash.hash(message)
                } catch {
                    // Not reached: the plan admits only hashes TackDigest computes.
                    throw .unsupported(.weakDigest(hash))
                }
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

