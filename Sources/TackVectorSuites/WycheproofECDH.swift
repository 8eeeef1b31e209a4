// The Wycheproof runner's ECDH schema (`ecdh_ecpoint_test_schema_v1`: the
// peer's key as a SEC 1 point, as TLS key shares carry it) through
// TackSignature's ECDHPrivateKey, on every curve Tack offers for key
// agreement (P-256, P-384); other curves are skipped with their reason.

import TackSignature
import TackX509

extension WycheproofRunner {
    static func ecdhPointPlan(_ group: WycheproofPrimitiveFile.Group, path: String) throws(WycheproofFileError) -> PrimitivePlan {
        guard let curveName = group.curve else { throw WycheproofFileError("\(path): an ECDH group has no curve") }
        let curve: ECCurve
        switch curveName {
        case "secp256r1", "prime256v1", "P-256": curve = .p256
        case "secp384r1", "P-384": curve = .p384
        default: return .skip("curve \(curveName) not offered for key agreement")
        }
        if let encoding = group.encoding, encoding != "ecpoint" {
            throw WycheproofFileError("\(path): an ecpoint group has encoding \(encoding)")
        }
        return .run { vector throws(WycheproofFileError) in
            let fields = Fields(vector, path: path)
            let peer = try fields.hex(\.publicKey, "public")
            // The scalar is a big-endian integer that may carry a sign byte:
            // brought to the curve's width (too wide stays too wide, for the
            // key to refuse).
            let scalar = try fields.hex(\.privateKey, "private").drop(while: { $0 == 0 })
            let width = curve.coordinateByteCount
            let privateBytes = [UInt8](repeating: 0, count: max(0, width - scalar.count)) + scalar
            let expected = try fields.hex(\.shared, "shared")
            do throws(KeyAgreementError) {
                let key = try ECDHPrivateKey(curve: curve, rawRepresentation: privateBytes)
                let secret = try key.sharedSecret(with: ECDHPublicKey(curve: curve, x963Representation: peer))
                return secret == expected ? .accepted : .wrongOutput("shared secret differs")
            } catch {
                return .rejected(error.description)
            }
        }
    }
}
