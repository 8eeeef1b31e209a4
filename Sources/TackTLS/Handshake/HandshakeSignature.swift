import TackDigest
import TackSignature
import TackX509

// The server's handshake signature, checked with the leaf's key through
// TackSignature's one verifier: a TLS SignatureScheme becomes the X.509
// SignatureAlgorithm that names the same computation.

/// Verifies a handshake signature.
///
/// - Parameters:
///   - scheme: The scheme the server named; it must be among `accepted`.
///   - signature: The signature bytes.
///   - message: The signed content.
///   - leaf: The server's certificate.
///   - accepted: The schemes the client offered for this signature.
///   - curveMatched: TLS 1.3's rule that an ECDSA scheme names the key's curve (§4.2.3).
func verifyHandshakeSignature(
    scheme: TLSSignatureScheme, signature: [UInt8], message: [UInt8], leaf: Certificate,
    accepted: [TLSSignatureScheme], curveMatched: Bool
) throws(TLSError) {
    guard accepted.contains(scheme) else { throw TLSError(.illegalParameter("signature scheme " + scheme.description + " not offered")) }
    let algorithm: SignatureAlgorithm
    var requiresPSSKey: Bool? = nil
    switch scheme {
    case .rsaPKCS1SHA256: (algorithm, requiresPSSKey) = (.rsaPKCS1v15(.sha256), false)
    case .rsaPKCS1SHA384: (algorithm, requiresPSSKey) = (.rsaPKCS1v15(.sha384), false)
    case .rsaPKCS1SHA512: (algorithm, requiresPSSKey) = (.rsaPKCS1v15(.sha512), false)
    case .rsaPSSRSAESHA256: (algorithm, requiresPSSKey) = (.rsaPSS(RSAPSSParameters(digest: .sha256, maskGenerationDigest: .sha256, saltLength: 32)), false)
    case .rsaPSSRSAESHA384: (algorithm, requiresPSSKey) = (.rsaPSS(RSAPSSParameters(digest: .sha384, maskGenerationDigest: .sha384, saltLength: 48)), false)
    case .rsaPSSRSAESHA512: (algorithm, requiresPSSKey) = (.rsaPSS(RSAPSSParameters(digest: .sha512, maskGenerationDigest: .sha512, saltLength: 64)), false)
    case .rsaPSSPSSSHA256: (algorithm, requiresPSSKey) = (.rsaPSS(RSAPSSParameters(digest: .sha256, maskGenerationDigest: .sha256, saltLength: 32)), true)
    case .rsaPSSPSSSHA384: (algorithm, requiresPSSKey) = (.rsaPSS(RSAPSSParameters(digest: .sha384, maskGenerationDigest: .sha384, saltLength: 48)), true)
    case .rsaPSSPSSSHA512: (algorithm, requiresPSSKey) = (.rsaPSS(RSAPSSParameters(digest: .sha512, maskGenerationDigest: .sha512, saltLength: 64)), true)
    case .ecdsaSECP256R1SHA256: algorithm = .ecdsa(.sha256)
    case .ecdsaSECP384R1SHA384: algorithm = .ecdsa(.sha384)
    case .ecdsaSECP521R1SHA512: algorithm = .ecdsa(.sha512)
    case .ed25519: algorithm = .ed25519
    default: throw TLSError(.illegalParameter("signature scheme " + scheme.description))
    }
    // rsa_pss_rsae_* and rsa_pkcs1_* need an rsaEncryption key, rsa_pss_pss_* an
    // id-RSASSA-PSS key (RFC 8446 §4.2.3).
    if let requiresPSSKey {
        let isPSSKey: Bool
        switch leaf.publicKeyInfo.algorithm {
        case .rsa: isPSSKey = false
        case .rsaPSS: isPSSKey = true
        default: throw TLSError(.illegalParameter("signature scheme " + scheme.description + " with a non-RSA key"))
        }
        guard isPSSKey == requiresPSSKey else {
            throw TLSError(.illegalParameter("signature scheme " + scheme.description + " does not match the key type"))
        }
    }
    do throws(SignatureError) {
        let key = try SignatureVerificationKey(leaf.publicKeyInfo)
        try key.verifySignature(
            signature, for: message, algorithm: algorithm,
            policy: SignaturePolicy(minimumRSAModulusBitCount: 2048, requiresCurveMatchedHash: curveMatched))
    } catch {
        throw TLSError(.badSignature(error))
    }
}

/// TLS 1.3's CertificateVerify content (RFC 8446 §4.4.3): 64 spaces, the context
/// string, a zero byte, the transcript hash.
func certificateVerifyContent(transcriptHash: [UInt8]) -> [UInt8] {
    [UInt8](repeating: 0x20, count: 64) + Array("TLS 1.3, server CertificateVerify".utf8) + [0] + transcriptHash
}
