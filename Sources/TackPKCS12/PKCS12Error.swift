public import TackDER
public import TackSignature
public import TackX509

/// Why a PKCS #12 file could not be read.
///
/// ``reason`` names the rule; ``offset`` is the byte offset of the element
/// that broke it within ``layer``: the file itself, or the decoded contents of one
/// of its inner layers (each layer is its own byte string: an OCTET STRING's
/// contents, perhaps reassembled from segments or decrypted). ``code`` is stable.
public struct PKCS12Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule the input broke.
    public var reason: Reason
    /// The offset of the offending element within ``layer``.
    public var offset: Int
    /// Which byte string ``offset`` indexes.
    public var layer: PKCS12Layer

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: The rule.
    ///   - offset: The offset within `layer`.
    ///   - layer: The layer.
    public init(_ reason: Reason, at offset: Int, in layer: PKCS12Layer) {
        self.reason = reason
        self.offset = offset
        self.layer = layer
    }

    /// The rules a PKCS #12 file can break.
    public enum Reason: Sendable, Hashable {
        /// The BER of a PKCS #12 or CMS layer breaks a rule.
        case ber(BERError.Reason)
        /// A primitive value (OBJECT IDENTIFIER, INTEGER) is malformed.
        case der(DERError.Reason)
        /// An element has another tag than the structure requires.
        case unexpectedTag(expected: DERTag, found: DERTag)
        /// The structure requires another element here.
        case missingElement(expected: DERTag)
        /// Elements remain after the last field of a structure.
        case trailingElements
        /// The file is larger than ``PKCS12Options/maximumFileSize``.
        case fileTooLarge(limit: Int)
        /// A PFX `version` other than 3 (RFC 7292 §4).
        case unsupportedVersion(Int)
        /// The authSafe is `signedData`: public-key integrity mode (RFC 7292 §3.1),
        /// which Tack does not read.
        case publicKeyIntegrityMode
        /// A ContentInfo of `envelopedData`: public-key privacy mode (RFC 7292 §3.1),
        /// refused: it needs the recipient's private key, which a passphrase does not give.
        case envelopedData
        /// A ContentInfo type other than data, encryptedData and envelopedData.
        case unsupportedContentType(OID)
        /// The file has no MacData and the caller did not allow that
        /// (``PKCS12Options/readsFilesWithoutMAC``).
        case missingMAC
        /// The MAC algorithm is not available in this build of Tack (the seam
        /// `PKCS12Cryptography` has no implementation for it), so integrity
        /// could not be checked: the file is not read. The payload is the object
        /// identifier of what is missing: the MAC's digest, PBMAC1's key derivation
        /// function, or PBMAC1 itself when its HMAC or PBKDF2 cannot run.
        case macAlgorithmUnavailable(OID)
        /// The MAC does not verify under the passphrase, nor under the empty and
        /// absent passphrases: a wrong passphrase, or a file altered after it was
        /// written (the MAC cannot tell them apart).
        case wrongPassphrase
        /// An encrypted layer did not decrypt (bad padding, or plaintext that is not
        /// a SafeContents) although the MAC verified: the file is corrupted.
        case decryptionFailed
        /// An encrypted layer did not decrypt and the file has no MAC: a wrong
        /// passphrase or a corrupted file, which nothing here tells apart.
        case wrongPassphraseOrCorrupted
        /// The encryption scheme is not available in this build of Tack (its key
        /// derivation or its cipher cannot run here).
        case encryptionUnavailable(PKCS12EncryptionScheme)
        /// An encryption algorithm Tack refuses, by the object identifier of its
        /// AlgorithmIdentifier: an RC4 PBE (RFC 7292 §C), an unknown scheme, a PBES2
        /// key derivation other than PBKDF2, a PBES2 cipher, or a PBKDF2 PRF Tack does
        /// not run.
        case unsupportedEncryption(OID)
        /// A MAC or encryption iteration count above ``PKCS12Options/maximumIterations``.
        case iterationsAboveLimit(Int, limit: Int)
        /// An iteration count below 1 or beyond the integer range.
        case invalidIterationCount
        /// Algorithm parameters that break their definition.
        case invalidAlgorithmParameters
        /// More bags than ``PKCS12Options/maximumBagCount``.
        case tooManyBags(limit: Int)
        /// SafeContents bags nested deeper than ``PKCS12Options/maximumSafeContentsDepth``.
        case safeContentsTooDeep(limit: Int)
        /// A certBag of a type other than x509Certificate (RFC 7292 §4.2.3), by OID.
        case unsupportedCertificateType(OID)
        /// A friendlyName that is not a BMPString of valid UTF-16 (a lone surrogate).
        case invalidFriendlyName
        /// A bag attribute given twice, or with other than exactly one value.
        case invalidAttribute(OID)
        /// A certificate inside the file is malformed (strict DER).
        case invalidCertificate(X509Error)
        /// A private key inside the file is malformed or inconsistent (strict DER).
        case invalidPrivateKey(PrivateKeyError)
    }

    /// `pkcs12.` and the reason's name, with the wrapped layer's code where there
    /// is one (for example `pkcs12.ber.missingEndOfContents`,
    /// `pkcs12.invalid_private_key.private_key.public_key_mismatch`).
    public var code: String {
        let name: String
        switch reason {
        case .ber(let reason): name = "ber." + reason.rawValue
        case .der(let reason): name = "der." + reason.code
        case .unexpectedTag: name = "unexpected_tag"
        case .missingElement: name = "missing_element"
        case .trailingElements: name = "trailing_elements"
        case .fileTooLarge: name = "file_too_large"
        case .unsupportedVersion: name = "unsupported_version"
        case .publicKeyIntegrityMode: name = "public_key_integrity_mode"
        case .envelopedData: name = "enveloped_data"
        case .unsupportedContentType: name = "unsupported_content_type"
        case .missingMAC: name = "missing_mac"
        case .macAlgorithmUnavailable: name = "mac_algorithm_unavailable"
        case .wrongPassphrase: name = "wrong_passphrase"
        case .decryptionFailed: name = "decryption_failed"
        case .wrongPassphraseOrCorrupted: name = "wrong_passphrase_or_corrupted"
        case .encryptionUnavailable: name = "encryption_unavailable"
        case .unsupportedEncryption: name = "unsupported_encryption"
        case .iterationsAboveLimit: name = "iterations_above_limit"
        case .invalidIterationCount: name = "invalid_iteration_count"
        case .invalidAlgorithmParameters: name = "invalid_algorithm_parameters"
        case .tooManyBags: name = "too_many_bags"
        case .safeContentsTooDeep: name = "safe_contents_too_deep"
        case .unsupportedCertificateType: name = "unsupported_certificate_type"
        case .invalidFriendlyName: name = "invalid_friendly_name"
        case .invalidAttribute: name = "invalid_attribute"
        case .invalidCertificate(let error): name = "invalid_certificate.x509." + error.code
        case .invalidPrivateKey(let error): name = "invalid_private_key." + error.code
        }
        return "pkcs12." + name
    }

    /// A one-line description (never a passphrase or key material).
    public var description: String {
        let text: String
        switch reason {
        case .ber(let reason): text = "BER: " + reason.description
        case .der(let reason): text = reason.description
        case .unexpectedTag(let expected, let found): text = "expected \(expected), found \(found)"
        case .missingElement(let expected): text = "missing \(expected)"
        case .trailingElements: text = "elements after the last field"
        case .fileTooLarge(let limit): text = "file larger than \(limit) bytes"
        case .unsupportedVersion(let version): text = "PFX version \(version) (3 expected)"
        case .publicKeyIntegrityMode: text = "public-key integrity mode (signedData) is not supported"
        case .envelopedData: text = "envelopedData (public-key privacy mode) is not supported"
        case .unsupportedContentType(let oid): text = "unsupported content type \(oid)"
        case .missingMAC: text = "the file has no MAC (allow files without one to read it)"
        case .macAlgorithmUnavailable(let oid): text = "MAC algorithm \(oid) is not available in this build"
        case .wrongPassphrase: text = "wrong passphrase (or the file was altered: its MAC does not verify)"
        case .decryptionFailed: text = "an encrypted layer does not decrypt although the passphrase is right (the MAC verified) or its ciphertext is not whole blocks: corrupted file"
        case .wrongPassphraseOrCorrupted: text = "an encrypted layer does not decrypt: wrong passphrase or corrupted file"
        case .encryptionUnavailable(let scheme): text = "encryption scheme \(scheme) is not available in this build"
        case .unsupportedEncryption(let oid): text = "unsupported encryption algorithm \(PKCS12OID.name(of: oid))"
        case .iterationsAboveLimit(let count, let limit): text = "\(count) iterations, above the limit of \(limit)"
        case .invalidIterationCount: text = "invalid iteration count"
        case .invalidAlgorithmParameters: text = "invalid algorithm parameters"
        case .tooManyBags(let limit): text = "more than \(limit) bags"
        case .safeContentsTooDeep(let limit): text = "safeContentsBag nesting deeper than \(limit)"
        case .unsupportedCertificateType(let oid): text = "certificate type \(oid) (only X.509 is read)"
        case .invalidFriendlyName: text = "friendlyName is not valid UTF-16"
        case .invalidAttribute(let oid): text = "attribute \(oid) repeated or without exactly one value"
        case .invalidCertificate(let error): text = "certificate: \(error)"
        case .invalidPrivateKey(let error): text = "private key: \(error)"
        }
        return "PKCS #12 error at byte \(offset) of \(layer): \(text)"
    }
}

/// The byte string a ``PKCS12Error`` offset indexes.
public enum PKCS12Layer: Sendable, Hashable, CustomStringConvertible {
    /// The file.
    case file
    /// The AuthenticatedSafe: the contents of the PFX's authSafe data.
    case authenticatedSafe
    /// The SafeContents of the AuthenticatedSafe's ContentInfo number `index`
    /// (from 0), decrypted if it was encrypted.
    case safeContents(index: Int)
    /// The plaintext of a pkcs8ShroudedKeyBag in the SafeContents of ContentInfo `index`.
    case shroudedKey(index: Int)

    /// `file`, `AuthenticatedSafe`, `SafeContents 0`, ...
    public var description: String {
        switch self {
        case .file: "file"
        case .authenticatedSafe: "AuthenticatedSafe"
        case .safeContents(let index): "SafeContents \(index)"
        case .shroudedKey(let index): "shrouded key in SafeContents \(index)"
        }
    }
}
