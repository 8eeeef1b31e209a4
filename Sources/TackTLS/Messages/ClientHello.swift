import TackSignature
import TackX509

// The ClientHello (RFC 8446 §4.1.2) and the key shares drawn for it (§4.2.8).

/// The ephemeral keys of one handshake, drawn in `start`: an X25519 key, a P-256
/// and a P-384 key (the P-384 share is sent only after a HelloRetryRequest asks for
/// it, or used in a TLS 1.2 ServerKeyExchange).
struct KeyShares: Sendable {
    let x25519: X25519PrivateKey
    let p256: ECDHPrivateKey
    let p384: ECDHPrivateKey

    init(random: inout some RandomSource) throws(TLSError) {
        do throws(KeyAgreementError) {
            x25519 = try X25519PrivateKey(using: &random)
            p256 = try ECDHPrivateKey(curve: .p256, using: &random)
            p384 = try ECDHPrivateKey(curve: .p384, using: &random)
        } catch {
            throw TLSError(.keyAgreement(error))
        }
    }

    func publicShare(_ group: TLSNamedGroup) -> [UInt8] {
        switch group {
        case .x25519: x25519.publicKey.rawRepresentation
        case .secp256r1: p256.publicKey.x963Representation
        default: p384.publicKey.x963Representation
        }
    }

    /// The shared secret with the server's share of `group`.
    func sharedSecret(_ group: TLSNamedGroup, peer: [UInt8]) throws(TLSError) -> [UInt8] {
        guard TLSNamedGroup.supported.contains(group) else { throw TLSError(.handshakeFailure("group " + group.description + " not offered")) }
        do throws(KeyAgreementError) {
            switch group {
            case .x25519: return try x25519.sharedSecret(with: X25519PublicKey(rawRepresentation: peer))
            case .secp256r1: return try p256.sharedSecret(with: ECDHPublicKey(curve: .p256, x963Representation: peer))
            default: return try p384.sharedSecret(with: ECDHPublicKey(curve: .p384, x963Representation: peer))
            }
        } catch {
            throw TLSError(.keyAgreement(error))
        }
    }
}

/// What the client put in its ClientHello, kept to check the answers.
struct ClientHelloParameters: Sendable {
    var random: [UInt8]
    var sessionID: [UInt8]
    var versions: [TLSProtocolVersion]
    var suites: [TLSCipherSuite]
    /// The groups with a key share in the current ClientHello.
    var sharedGroups: [TLSNamedGroup]
    var serverName: String?
    var applicationProtocols: [String]
    /// The extension types sent (for unsupported_extension checks).
    var offeredExtensions: [UInt16] = []
    /// The HelloRetryRequest's cookie, echoed in the second ClientHello.
    var cookie: [UInt8]? = nil

    var offers13: Bool { versions.contains(.tls13) }
    var offers12: Bool { versions.contains(.tls12) }

    /// The ClientHello message, header included.
    mutating func encode(shares: KeyShares) -> [UInt8] {
        var offered: [UInt16] = []
        var body = ByteWriter()
        body.append(UInt16(0x0303))  // legacy_version
        body.append(random)
        body.appendVector(lengthBytes: 1) { $0.append(sessionID) }
        body.appendVector(lengthBytes: 2) { writer in for suite in suites { writer.append(suite.rawValue) } }
        body.appendVector(lengthBytes: 1) { $0.append(UInt8(0)) }  // null compression only
        body.appendVector(lengthBytes: 2) { [self] extensions in
            func add(_ type: UInt16, _ content: (inout ByteWriter) -> Void) {
                offered.append(type)
                extensions.append(type)
                extensions.appendVector(lengthBytes: 2, content)
            }
            if let serverName {
                add(ExtensionType.serverName) { writer in
                    writer.appendVector(lengthBytes: 2) { list in
                        list.append(UInt8(0))  // host_name
                        list.appendVector(lengthBytes: 2) { $0.append(Array(serverName.utf8)) }
                    }
                }
            }
            add(ExtensionType.statusRequest) { writer in
                // CertificateStatusRequest: ocsp, no responder IDs, no extensions.
                writer.append(UInt8(1))
                writer.append(UInt16(0))
                writer.append(UInt16(0))
            }
            add(ExtensionType.supportedGroups) { writer in
                writer.appendVector(lengthBytes: 2) { list in for group in TLSNamedGroup.supported { list.append(group.rawValue) } }
            }
            if offers12 {
                add(ExtensionType.ecPointFormats) { writer in writer.appendVector(lengthBytes: 1) { $0.append(UInt8(0)) } }
            }
            add(ExtensionType.signatureAlgorithms) { writer in
                let schemes = offers12 ? TLSSignatureScheme.tls12Handshake : TLSSignatureScheme.tls13Handshake
                writer.appendVector(lengthBytes: 2) { list in for scheme in schemes { list.append(scheme.rawValue) } }
            }
            if !applicationProtocols.isEmpty {
                add(ExtensionType.applicationLayerProtocolNegotiation) { writer in
                    writer.appendVector(lengthBytes: 2) { list in
                        for name in applicationProtocols { list.appendVector(lengthBytes: 1) { $0.append(Array(name.utf8)) } }
                    }
                }
            }
            add(ExtensionType.signedCertificateTimestamp) { _ in }
            if offers12 {
                add(ExtensionType.extendedMasterSecret) { _ in }
            }
            if offers13 {
                add(ExtensionType.supportedVersions) { writer in
                    writer.appendVector(lengthBytes: 1) { list in for version in versions { list.append(version.rawValue) } }
                }
                if let cookie {
                    add(ExtensionType.cookie) { writer in writer.appendVector(lengthBytes: 2) { $0.append(cookie) } }
                }
            }
            add(ExtensionType.signatureAlgorithmsCert) { writer in
                writer.appendVector(lengthBytes: 2) { list in for scheme in TLSSignatureScheme.certificates { list.append(scheme.rawValue) } }
            }
            if offers13 {
                add(ExtensionType.keyShare) { writer in
                    writer.appendVector(lengthBytes: 2) { list in
                        for group in sharedGroups {
                            list.append(group.rawValue)
                            list.appendVector(lengthBytes: 2) { $0.append(shares.publicShare(group)) }
                        }
                    }
                }
            }
            if offers12 {
                add(ExtensionType.renegotiationInfo) { writer in writer.append(UInt8(0)) }
            }
        }
        offeredExtensions = offered
        return makeHandshakeMessage(HandshakeType.clientHello, body.bytes)
    }
}

/// Handshake message types (RFC 8446 §4, RFC 5246 §7.4).
enum HandshakeType {
    static let helloRequest: UInt8 = 0
    static let clientHello: UInt8 = 1
    static let serverHello: UInt8 = 2
    static let newSessionTicket: UInt8 = 4
    static let endOfEarlyData: UInt8 = 5
    static let encryptedExtensions: UInt8 = 8
    static let certificate: UInt8 = 11
    static let serverKeyExchange: UInt8 = 12
    static let certificateRequest: UInt8 = 13
    static let serverHelloDone: UInt8 = 14
    static let certificateVerify: UInt8 = 15
    static let clientKeyExchange: UInt8 = 16
    static let finished: UInt8 = 20
    static let certificateStatus: UInt8 = 22
    static let keyUpdate: UInt8 = 24
    static let messageHash: UInt8 = 254
}
