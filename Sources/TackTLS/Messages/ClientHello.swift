import TackSignature
import TackX509

// The ClientHello (RFC 8446 §4.1.2) and the key shares drawn for it (§4.2.8).

/// The ephemeral keys of one handshake, drawn in `start`: an X25519 key, a P-256
/// key, and the scalar of a P-384 key (the P-384 share is sent only after a
/// HelloRetryRequest asks for it, or used in a TLS 1.2 ServerKeyExchange).
///
/// All of the handshake's randomness is drawn in `start`, but the P-384 key's public
/// point, a P-384 scalar multiplication that cost about half of a full handshake when
/// it was computed up front (`tack-bench tls13-handshake`), is computed by
/// ``prepare(_:)`` only when the server picks P-384. The 48 bytes drawn are the
/// candidate `ECDHPrivateKey(curve:using:)` would have drawn first, so the key is the
/// one an eager draw would have made; a candidate out of range (zero or not below n,
/// probability about 2⁻¹⁹⁰) means a broken source and is refused, not redrawn.
struct KeyShares: Sendable {
    let x25519: X25519PrivateKey
    let p256: ECDHPrivateKey
    private var p384Scalar: [UInt8]
    private var p384: ECDHPrivateKey? = nil

    init(random: inout some RandomSource) throws(TLSError) {
        do throws(KeyAgreementError) {
            x25519 = try X25519PrivateKey(using: &random)
            p256 = try ECDHPrivateKey(curve: .p256, using: &random)
        } catch {
            throw TLSError(.keyAgreement(error))
        }
        p384Scalar = [UInt8](repeating: 0, count: 48)
        do throws(RandomSourceError) {
            try random.fill(&p384Scalar)
        } catch {
            throw TLSError(.randomSource(error))
        }
    }

    /// Makes the key of `group` ready for ``publicShare(_:)`` and
    /// ``sharedSecret(_:peer:)``: computes the P-384 key the first time it is asked for.
    mutating func prepare(_ group: TLSNamedGroup) throws(TLSError) {
        guard group == .secp384r1, p384 == nil else { return }
        do throws(KeyAgreementError) {
            p384 = try ECDHPrivateKey(curve: .p384, rawRepresentation: p384Scalar)
        } catch .privateKeyOutOfRange {
            throw TLSError(.keyAgreement(.randomSourceUnusable))
        } catch {
            throw TLSError(.keyAgreement(error))
        }
        wipe(&p384Scalar)
    }

    /// The public share of `group` (its key must be ready: ``prepare(_:)``).
    func publicShare(_ group: TLSNamedGroup) throws(TLSError) -> [UInt8] {
        switch group {
        case .x25519: return x25519.publicKey.rawRepresentation
        case .secp256r1: return p256.publicKey.x963Representation
        default:
            guard let p384 else { throw TLSError(.internalError("P-384 key share used before it was prepared")) }
            return p384.publicKey.x963Representation
        }
    }

    /// The shared secret with the server's share of `group`.
    func sharedSecret(_ group: TLSNamedGroup, peer: [UInt8]) throws(TLSError) -> [UInt8] {
        guard TLSNamedGroup.supported.contains(group) else { throw TLSError(.handshakeFailure("group " + group.description + " not offered")) }
        let p384 = self.p384
        if group == .secp384r1, p384 == nil { throw TLSError(.internalError("P-384 key share used before it was prepared")) }
        do throws(KeyAgreementError) {
            switch group {
            case .x25519: return try x25519.sharedSecret(with: X25519PublicKey(rawRepresentation: peer))
            case .secp256r1: return try p256.sharedSecret(with: ECDHPublicKey(curve: .p256, x963Representation: peer))
            default:
                guard let p384 else { throw .unsupportedCurve(.p384) }  // unreachable: checked above
                return try p384.sharedSecret(with: ECDHPublicKey(curve: .p384, x963Representation: peer))
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
    mutating func encode(shares: KeyShares) throws(TLSError) -> [UInt8] {
        let publicShares = try sharedGroups.map { (group) throws(TLSError) in (group, try shares.publicShare(group)) }
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
                        for (group, share) in publicShares {
                            list.append(group.rawValue)
                            list.appendVector(lengthBytes: 2) { $0.append(share) }
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
