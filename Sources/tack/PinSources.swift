// The other files a pin is made from, besides certificates and public keys: private
// keys (PKCS #8, PKCS #1 RSA, SEC1 EC: "generate a key, pin it, ship the pin"),
// certificate signing requests (PKCS #10, signature checked) and PKCS #7 certificate
// bundles (.p7b). Requests and bundles are read with TackDER's tree; private keys by
// TackSignature's PrivateKey, whose errors never carry key material.

import TackDER
import TackSignature
import TackX509

/// Why a key, request or bundle gives no pin, with its code.
struct PinSourceError: Error {
    let code: String
    let message: String
}

/// A parsed DER document and its children by node index.
private struct Tree {
    let tree: DERTree

    init(_ bytes: [UInt8], checksPrimitives: Bool) throws(PinSourceError) {
        do {
            tree = try DERTree.parse(bytes, checksPrimitives: checksPrimitives)
        } catch {
            throw PinSourceError(code: "malformed_der", message: "not DER: \(error)")
        }
    }

    /// The indices of the direct children of node `index`.
    func children(_ index: Int) -> [Int] {
        guard tree.nodes.indices.contains(index) else { return [] }
        let depth = tree.nodes[index].depth
        var result: [Int] = []
        var next = index + 1
        while next < tree.nodes.count, tree.nodes[next].depth > depth {
            if tree.nodes[next].depth == depth + 1 { result.append(next) }
            next += 1
        }
        return result
    }

    func tag(_ index: Int) -> DERTag { tree.nodes[index].element.tag }
    func content(_ index: Int) -> ArraySlice<UInt8> { tree.bytes[tree.nodes[index].element.contentRange] }
    func encoded(_ index: Int) -> [UInt8] { Array(tree.bytes[tree.nodes[index].element.encodedRange]) }
    func range(_ index: Int) -> Range<Int> { tree.nodes[index].element.encodedRange }

    func oid(_ index: Int) -> String? {
        guard tag(index) == .objectIdentifier, let oid = try? OID(contents: content(index)) else { return nil }
        return oid.dottedString
    }
}

private let pkcs7SignedData = "1.2.840.113549.1.7.2"

enum PinSources {
    /// The certificates of a PKCS #7 (RFC 2315 / RFC 5652 §5) SignedData bundle:
    /// ContentInfo { signedData, [0] EXPLICIT SignedData { version, digestAlgorithms,
    /// encapContentInfo, certificates [0] IMPLICIT SET OF Certificate, … } }.
    static func certificates(pkcs7 bytes: [UInt8]) throws(PinSourceError) -> [Certificate] {
        let tree = try Tree(bytes, checksPrimitives: true)
        let top = tree.children(0)
        guard top.count == 2, tree.oid(top[0]) == pkcs7SignedData, tree.tag(top[1]) == .contextSpecific(0, isConstructed: true),
              let signedData = tree.children(top[1]).first, tree.tag(signedData) == .sequence else {
            throw PinSourceError(code: "not_pkcs7", message: "not a PKCS #7 SignedData bundle")
        }
        guard let set = tree.children(signedData).first(where: { tree.tag($0) == .contextSpecific(0, isConstructed: true) }) else {
            throw PinSourceError(code: "pkcs7_without_certificates", message: "a PKCS #7 bundle with no certificates")
        }
        var certificates: [Certificate] = []
        for (position, child) in tree.children(set).enumerated() {
            switch decodeCertificate(tree.encoded(child)) {
            case .success(let certificate):
                certificates.append(certificate)
            case .failure(.notACertificate(let error)), .failure(.undecodableName(let error)):
                throw PinSourceError(code: "malformed_certificate", message: "certificate #\(position + 1) of the PKCS #7 bundle is malformed: \(error)")
            }
        }
        guard !certificates.isEmpty else { throw PinSourceError(code: "pkcs7_without_certificates", message: "a PKCS #7 bundle with no certificates") }
        return certificates
    }

    /// The public key of a PKCS #10 request (RFC 2986 §4), once its signature verifies
    /// with that key: CertificationRequest { certificationRequestInfo { version,
    /// subject, subjectPKInfo, attributes }, signatureAlgorithm, signature }.
    static func publicKey(certificationRequest bytes: [UInt8]) throws(PinSourceError) -> SubjectPublicKeyInfo {
        let tree = try Tree(bytes, checksPrimitives: true)
        let top = tree.children(0)
        guard top.count == 3, tree.tag(top[0]) == .sequence, tree.tag(top[2]) == .bitString else {
            throw PinSourceError(code: "not_csr", message: "not a PKCS #10 certificate signing request")
        }
        let info = tree.children(top[0])
        guard info.count >= 3, tree.tag(info[2]) == .sequence else {
            throw PinSourceError(code: "not_csr", message: "not a PKCS #10 certificate signing request")
        }
        let key: SubjectPublicKeyInfo
        let algorithm: SignatureAlgorithm
        do {
            key = try SubjectPublicKeyInfo(derEncoded: bytes, range: tree.range(info[2]))
            algorithm = try SignatureAlgorithm(derEncoded: bytes, range: tree.range(top[1]))
        } catch {
            throw PinSourceError(code: "malformed_csr", message: "certificate signing request: \(error)")
        }
        let signature = tree.content(top[2])
        guard signature.first == 0 else { throw PinSourceError(code: "malformed_csr", message: "certificate signing request: the signature has unused bits") }
        do {
            try SignatureVerificationKey(key).verifySignature(signature.dropFirst(), for: tree.encoded(top[0]), algorithm: algorithm, policy: .permissive)
        } catch {
            throw PinSourceError(code: "csr_signature_invalid", message: "the certificate signing request's signature does not verify with its own key: \(error)")
        }
        return key
    }

    /// The public key of a private key PEM block (`PRIVATE KEY`, `RSA PRIVATE KEY`,
    /// `EC PRIVATE KEY`), read and checked by TackSignature's ``PrivateKey`` (an
    /// Ed25519 key's public key derived from its seed when the file does not carry it).
    static func publicKey(privateKey block: PEMBlock) throws(PinSourceError) -> SubjectPublicKeyInfo {
        do {
            return try PrivateKey(pemBlock: block).checkedPublicKeyInfo()
        } catch {
            throw PinSourceError(error)
        }
    }

    /// The public key of a DER private key (PKCS #8, PKCS #1 or SEC 1, tried in that
    /// order), or why it gives none; `nil` when `bytes` is none of the three.
    static func publicKey(derPrivateKey bytes: [UInt8]) -> Result<SubjectPublicKeyInfo, PinSourceError>? {
        for format in [PrivateKeyFormat.pkcs8, .pkcs1, .sec1] {
            guard let key = try? PrivateKey(derEncoded: bytes, format: format) else { continue }
            do {
                return .success(try key.checkedPublicKeyInfo())
            } catch {
                return .failure(PinSourceError(error))
            }
        }
        return nil
    }

    /// The public key of an `RSA PUBLIC KEY` block: a bare PKCS #1 RSAPublicKey
    /// { modulus, publicExponent } (RFC 8017 §A.1.1), which OpenSSL writes with
    /// `-RSAPublicKey_out`.
    static func publicKey(pkcs1 bytes: [UInt8]) throws(PinSourceError) -> SubjectPublicKeyInfo {
        do {
            return try SubjectPublicKeyInfo(rawKey: bytes, type: .rsa)
        } catch {
            throw PinSourceError(code: "malformed_public_key", message: "not a PKCS #1 RSAPublicKey: \(error)")
        }
    }
}

extension PinSourceError {
    /// A private key's error with its CLI code: `public_key_not_derivable` (Ed448,
    /// X25519, X448), `encrypted_private_key`, `unsupported_private_key` (an
    /// algorithm Tack does not read, such as DSA) or `malformed_private_key`.
    init(_ error: PrivateKeyError) {
        let code = switch error.reason {
        case .publicKeyNotDerivable: "public_key_not_derivable"
        case .encrypted: "encrypted_private_key"
        case .unknownAlgorithm, .unsupportedCurve, .multiPrimeRSA, .unsupportedRSAModulus: "unsupported_private_key"
        default: "malformed_private_key"
        }
        self.init(code: code, message: error.description)
    }
}
