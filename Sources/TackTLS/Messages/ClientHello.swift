import TackSignature
import TackX509

// The ClientHello (RFC 8446 §4.1.2) and the key shares drawn for it (§4.2.8).

/// The ephemeral keys of one handshake, drawn in `start`: an X25519 key, and the
/// scalars of a P-256 and a P-384 key.
///
/// All of the handshake's randomness is drawn in `start`, in that fixed order, but a
/// P-256 or P-384 key's public point (a scalar multiplication: the P-256 one was about
/// 40% of a full handshake's client CPU when it was computed up front, the P-384 one
/// about half, `tack-bench tls13-handshake`) is computed by ``prepare(_:)`` only for a
/// group the client sends a share of: one of the configuration's
/// ``TLSClientConfiguration/keyShareGroups``, the group a HelloRetryRequest asks for,
/// or the curve of a TLS 1.2 ServerKeyExchange. The scalars are drawn by
/// `ECDHPrivateKey.randomScalar(curve:using:)`, so each key is the one
/// `ECDHPrivateKey(curve:using:)` would have made from the same source.
struct KeyShares: Sendable {
    let x25519: X25519PrivateKey
    private var p256Scalar: [UInt8]
    private var p256: ECDHPrivateKey? = nil
    private var p384Scalar: [UInt8]
    private var p384: ECDHPrivateKey? = nil

    init(random: inout some RandomSource) throws(TLSError) {
        do throws(KeyAgreementError) {
            x25519 = try X25519PrivateKey(using: &random)
            p256Scalar = try ECDHPrivateKey.randomScalar(curve: .p256, using: &random)
        } catch {
            throw TLSError(.keyAgreement(error))
        }
        do throws(KeyAgreementError) {
            p384Scalar = try ECDHPrivateKey.randomScalar(curve: .p384, using: &random)
        } catch .unsupportedCurve {
            // The P384 package trait is off: no scalar, and prepare(.secp384r1) reports
            // the unsupported curve if a server asks for it.
            p384Scalar = []
        } catch {
            throw TLSError(.keyAgreement(error))
        }
    }

    /// Makes the key of `group` ready for ``publicShare(_:)`` and
    /// ``sharedSecret(_:peer:)``: computes a P-256 or P-384 key the first time it is
    /// asked for (X25519's is always ready).
    mutating func prepare(_ group: TLSNamedGroup) throws(TLSError) {
        do throws(KeyAgreementError) {
            switch group {
            case .secp256r1 where p256 == nil:
                p256 = try ECDHPrivateKey(curve: .p256, rawRepresentation: p256Scalar)
                wipe(&p256Scalar)
            case .secp384r1 where p384 == nil:
                p384 = try ECDHPrivateKey(curve: .p384, rawRepresentation: p384Scalar)
                wipe(&p384Scalar)
            default:
                return
            }
        } catch {
            throw TLSError(.keyAgreement(error))
        }
    }

    /// Overwrites the scalars no share was made of (when the handshake is over; the
    /// keys made overwrite their own).
    mutating func wipeUnusedScalars() {
        wipe(&p256Scalar)
        wipe(&p384Scalar)
    }

    /// The key of a Weierstrass group, once prepared.
    private func prepared(_ group: TLSNamedGroup) throws(TLSError) -> ECDHPrivateKey {
        guard let key = group == .secp256r1 ? p256 : group == .secp384r1 ? p384 : nil else {
            throw TLSError(.internalError("key share of " + group.description + " used before it was prepared"))
        }
        return key
    }

    /// The public share of `group` (its key must be ready: ``prepare(_:)``).
    func publicShare(_ group: TLSNamedGroup) throws(TLSError) -> [UInt8] {
        if group == .x25519 { return x25519.publicKey.rawRepresentation }
        return try prepared(group).publicKey.x963Representation
    }

    /// The shared secret with the server's share of `group`.
    func sharedSecret(_ group: TLSNamedGroup, peer: [UInt8]) throws(TLSError) -> [UInt8] {
        guard TLSNamedGroup.supported.contains(group) else { throw TLSError(.handshakeFailure("group " + group.description + " not offered")) }
        let key = group == .x25519 ? nil : try prepared(group)
        do throws(KeyAgreementError) {
            guard let key else { return try x25519.sharedSecret(with: X25519PublicKey(rawRepresentation: peer)) }
            return try key.sharedSecret(with: ECDHPublicKey(curve: key.curve, x963Representation: peer))
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
