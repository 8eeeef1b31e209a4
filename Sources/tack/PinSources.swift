// The other files a pin is made from, besides certificates and public keys: private
// keys (PKCS #8, PKCS #1 RSA, SEC1 EC: "generate a key, pin it, ship the pin"),
// certificate signing requests (PKCS #10, signature checked) and PKCS #7 certificate
// bundles (.p7b). Each is read with TackDER's tree; a private key's secret fields are
// never read, only stepped over by their headers (the tree is parsed without checking
// primitive contents), and nothing of them reaches a message.

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

private let rsaEncryption = "1.2.840.113549.1.1.1"
private let idECPublicKey = "1.2.840.10045.2.1"
private let idEd25519 = "1.3.101.112"
private let pkcs7SignedData = "1.2.840.113549.1.7.2"
private let curveTypes: [String: PublicKeyType] = [
    "1.2.840.10045.3.1.7": .p256, "1.3.132.0.34": .p384, "1.3.132.0.35": .p521,
]

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
            do {
                certificates.append(try Certificate(derEncoded: tree.encoded(child)))
            } catch {
                throw PinSourceError(code: "malformed_certificate", message: "certificate #\(position + 1) of the PKCS #7 bundle: \(error)")
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

    /// The public key of a private key, as the SubjectPublicKeyInfo its certificate
    /// would carry. Reads PKCS #8 PrivateKeyInfo / OneAsymmetricKey (RFC 5958), PKCS #1
    /// RSAPrivateKey (RFC 8017 A.1.2: the public modulus and exponent) and SEC1
    /// ECPrivateKey (RFC 5915: the optional publicKey, which OpenSSL always writes).
    /// A key whose public half is not stored (an Ed25519 or EC key without it) is
    /// refused: computing it from the secret is not done here.
    static func publicKey(privateKey bytes: [UInt8], label: String?) throws(PinSourceError) -> SubjectPublicKeyInfo {
        let tree = try Tree(bytes, checksPrimitives: false)
        let top = tree.children(0)
        let rsa = label == "RSA PRIVATE KEY" || (label == nil && top.count >= 9 && top.allSatisfy { tree.tag($0) == .integer })
        if rsa { return try rsaPublicKey(tree, top) }
        if label == "EC PRIVATE KEY" || (label == nil && top.count >= 2 && tree.tag(top[1]) == .octetString && tree.tag(top[0]) == .integer
                                          && top.dropFirst(2).allSatisfy { tree.tag($0).tagClass == .contextSpecific }) {
            return try ecPublicKey(tree, top, curve: nil)
        }
        // PKCS #8: version, AlgorithmIdentifier, privateKey OCTET STRING, [0] attributes, [1] publicKey.
        guard top.count >= 3, tree.tag(top[1]) == .sequence, tree.tag(top[2]) == .octetString,
              let algorithm = tree.children(top[1]).first.flatMap(tree.oid) else {
            throw PinSourceError(code: "not_private_key", message: "not a PKCS #8, PKCS #1 or SEC1 private key")
        }
        let inner = Array(tree.content(top[2]))
        switch algorithm {
        case rsaEncryption:
            let innerTree = try Tree(inner, checksPrimitives: false)
            return try rsaPublicKey(innerTree, innerTree.children(0))
        case idECPublicKey:
            let curve = tree.children(top[1]).dropFirst().first.flatMap(tree.oid)
            let innerTree = try Tree(inner, checksPrimitives: false)
            return try ecPublicKey(innerTree, innerTree.children(0), curve: curve)
        case idEd25519:
            guard let publicKey = top.first(where: { tree.tag($0) == .contextSpecific(1, isConstructed: false) }),
                  tree.content(publicKey).first == 0 else {
                throw PinSourceError(code: "private_key_without_public_key",
                                     message: "an Ed25519 private key without its public key (PKCS #8 v1): pin the public key instead (openssl pkey -pubout)")
            }
            return try spki(rawKey: Array(tree.content(publicKey).dropFirst()), type: .ed25519)
        default:
            throw PinSourceError(code: "unsupported_private_key", message: "a private key of algorithm \(algorithm), which Tack does not pin")
        }
    }

    private static func spki(rawKey: [UInt8], type: PublicKeyType) throws(PinSourceError) -> SubjectPublicKeyInfo {
        do {
            return try SubjectPublicKeyInfo(derEncoded: try SubjectPublicKeyInfo.encode(rawKey: rawKey, type: type))
        } catch {
            throw PinSourceError(code: "malformed_private_key", message: "the key's public half: \(error)")
        }
    }

    /// RSAPrivateKey { version, modulus, publicExponent, privateExponent, … }: the
    /// RSAPublicKey { modulus, publicExponent } of its first two integers.
    private static func rsaPublicKey(_ tree: Tree, _ top: [Int]) throws(PinSourceError) -> SubjectPublicKeyInfo {
        guard top.count >= 9, top.prefix(3).allSatisfy({ tree.tag($0) == .integer }) else {
            throw PinSourceError(code: "malformed_private_key", message: "not a PKCS #1 RSAPrivateKey")
        }
        var writer = DERWriter()
        writer.writeElement(.sequence, contents: tree.encoded(top[1]) + tree.encoded(top[2]))
        return try spki(rawKey: writer.bytes, type: .rsa)
    }

    /// ECPrivateKey { version 1, privateKey, [0] parameters, [1] publicKey }.
    private static func ecPublicKey(_ tree: Tree, _ top: [Int], curve outer: String?) throws(PinSourceError) -> SubjectPublicKeyInfo {
        let parameters = top.first { tree.tag($0) == .contextSpecific(0, isConstructed: true) }
        let curve = parameters.flatMap { tree.children($0).first }.flatMap(tree.oid) ?? outer
        guard let curve, let type = curveTypes[curve] else {
            throw PinSourceError(code: "unsupported_private_key", message: "an EC private key on curve \(curve ?? "(not named)"), which Tack does not pin")
        }
        guard let publicKey = top.first(where: { tree.tag($0) == .contextSpecific(1, isConstructed: true) }),
              let bits = tree.children(publicKey).first, tree.tag(bits) == .bitString, tree.content(bits).first == 0 else {
            throw PinSourceError(code: "private_key_without_public_key",
                                 message: "an EC private key without its public key: pin the public key instead (openssl pkey -pubout)")
        }
        return try spki(rawKey: Array(tree.content(bits).dropFirst()), type: type)
    }
}
