public import TackDER
public import TackDigest

/// Why a pin or fingerprint could not be read from text.
public enum PinParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text decodes to `byteCount` bytes instead of the 32 of a SHA-256 digest.
    case wrongLength(byteCount: Int)
    /// The text is not strict Base64 (RFC 4648 §4, padded, no whitespace).
    case invalidBase64(Base64Error)
    /// The text is not hexadecimal; `offset` is the UTF-8 offset of the first bad character.
    case invalidHex(offset: Int)
    /// The text has a `name/` prefix other than `sha256/` (HPKP and OkHttp define only
    /// `sha256/`; OkHttp's legacy `sha1/` is refused on purpose). The prefix is the
    /// text before the first `/`.
    case unknownPrefix
    /// The text has the `sha256/` prefix where the form asked for is bare Base64 (an
    /// OkHttp pin pasted into an `Info.plist`'s `SPKI-SHA256-BASE64`).
    case unexpectedPrefix

    /// A one-line description.
    public var description: String {
        switch self {
        case .wrongLength(let count): "pin is " + String(count) + " bytes, not the 32 of SHA-256"
        case .invalidBase64(let error): "pin is not valid Base64 (character " + String(error.offset) + ")"
        case .invalidHex(let offset): "pin is not valid hex (character " + String(offset) + ")"
        case .unknownPrefix: "unknown pin prefix (expected sha256/)"
        case .unexpectedPrefix: "the OkHttp prefix sha256/: ATS wants the bare Base64 (remove the prefix)"
        }
    }
}

/// A text form of a SHA-256 pin or fingerprint.
public enum PinFormat: Sendable, Hashable, CaseIterable {
    /// Padded Base64, 44 characters: the `SPKI-SHA256-BASE64` value of Apple's
    /// `NSPinnedDomains`, and what `openssl dgst -sha256 -binary | base64` prints.
    case base64
    /// `sha256/` and the Base64: the form of OkHttp's `CertificatePinner` and of HPKP's
    /// `pin-sha256` (RFC 7469 §2.4).
    case sha256Base64
    /// 64 lowercase hex digits.
    case hex
}

/// An SPKI pin: the SHA-256 digest of a DER SubjectPublicKeyInfo (RFC 7469 §2.4).
///
/// The pin of a certificate is the pin of ``Certificate/spkiBytes`` and equals the
/// output of the OpenSSL pipeline
/// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
/// The pin of a key from `SecKeyCopyExternalRepresentation` is ``init(rawKey:type:)``.
public struct SPKIPin: Sendable, Hashable, CustomStringConvertible {
    /// The SHA-256 digest.
    public let digest: SHA256Digest

    /// Wraps a digest.
    ///
    /// - Parameter digest: The SHA-256 digest of an SPKI.
    public init(digest: SHA256Digest) {
        self.digest = digest
    }

    /// Hashes a DER SubjectPublicKeyInfo (not checked: use
    /// ``SubjectPublicKeyInfo/init(derEncoded:limits:)`` to validate it first).
    ///
    /// - Parameter spkiDER: The SPKI's DER.
    public init(spkiDER: ArraySlice<UInt8>) {
        digest = SHA256.hash(spkiDER)
    }

    /// The pin of a parsed SubjectPublicKeyInfo.
    ///
    /// - Parameter publicKeyInfo: The SPKI.
    public init(_ publicKeyInfo: SubjectPublicKeyInfo) {
        self.init(spkiDER: publicKeyInfo.derEncoded)
    }

    /// The pin of a certificate's subject public key.
    ///
    /// - Parameter certificate: The certificate.
    public init(_ certificate: Certificate) {
        self.init(spkiDER: certificate.spkiBytes)
    }

    /// The pin of a raw key, as `SecKeyCopyExternalRepresentation` returns it: the SPKI
    /// is rebuilt with ``SubjectPublicKeyInfo/encode(rawKey:type:)`` and hashed.
    ///
    /// - Parameters:
    ///   - rawKey: The raw key bytes.
    ///   - type: The key type.
    /// - Throws: The errors of ``SubjectPublicKeyInfo/encode(rawKey:type:)``.
    public init(rawKey: [UInt8], type: PublicKeyType) throws(X509Error) {
        let spki = try SubjectPublicKeyInfo.encode(rawKey: rawKey, type: type)
        digest = SHA256.hash(spki)
    }

    /// Reads a pin in any of the forms of ``PinFormat``: `sha256/` and Base64, 64 hex
    /// digits (either case), or Base64.
    ///
    /// - Parameter text: The pin text, without surrounding whitespace.
    /// - Throws: ``PinParseError``.
    public init(_ text: String) throws(PinParseError) {
        digest = try parseSHA256Text(TextBytes.bytes(text))
    }

    /// Reads a pin in one given form.
    ///
    /// - Parameters:
    ///   - text: The pin text.
    ///   - format: The form it must have.
    /// - Throws: ``PinParseError``.
    public init(_ text: String, format: PinFormat) throws(PinParseError) {
        digest = try parseSHA256Text(TextBytes.bytes(text), format: format)
    }

    /// The pin in `format`.
    ///
    /// - Parameter format: The text form.
    /// - Returns: The text.
    public func formatted(_ format: PinFormat) -> String {
        formatSHA256(digest, format)
    }

    /// The padded Base64 form (`NSPinnedDomains` `SPKI-SHA256-BASE64`).
    public var base64: String { formatted(.base64) }

    /// The `sha256/BASE64` form (OkHttp, HPKP).
    public var sha256Base64: String { formatted(.sha256Base64) }

    /// The lowercase hex form.
    public var hex: String { formatted(.hex) }

    /// The Base64 form.
    public var description: String { base64 }
}

/// A certificate fingerprint: the SHA-256 digest of the whole certificate DER, for
/// pinning a leaf or an intermediate certificate rather than its key.
///
/// Equals `openssl x509 -noout -fingerprint -sha256` (which prints ``colonHex``).
public struct CertificateFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The SHA-256 digest.
    public let digest: SHA256Digest

    /// Wraps a digest.
    ///
    /// - Parameter digest: The SHA-256 digest of a certificate's DER.
    public init(digest: SHA256Digest) {
        self.digest = digest
    }

    /// The fingerprint of a certificate.
    ///
    /// - Parameter certificate: The certificate.
    public init(_ certificate: Certificate) {
        digest = SHA256.hash(certificate.derEncoded)
    }

    /// Reads a fingerprint: Base64, `sha256/` and Base64, or hex in either case with
    /// optional `:` separators between bytes (OpenSSL's form).
    ///
    /// - Parameter text: The fingerprint text.
    /// - Throws: ``PinParseError``.
    public init(_ text: String) throws(PinParseError) {
        let utf8 = TextBytes.bytes(text)
        if utf8.contains(UInt8(ascii: ":")) {
            // OpenSSL's form: two hex digits per byte, `:` between bytes.
            var compact: [UInt8] = []
            for (index, byte) in utf8.enumerated() {
                if index % 3 == 2 {
                    guard byte == UInt8(ascii: ":") else { throw PinParseError.invalidHex(offset: index) }
                } else {
                    guard Hex.isDigit(byte) else { throw PinParseError.invalidHex(offset: index) }
                    compact.append(byte)
                }
            }
            guard utf8.count % 3 == 2 else { throw PinParseError.invalidHex(offset: utf8.count) }
            digest = try parseSHA256Text(compact, format: .hex)
        } else {
            digest = try parseSHA256Text(utf8)
        }
    }

    /// The fingerprint in `format`.
    ///
    /// - Parameter format: The text form.
    /// - Returns: The text.
    public func formatted(_ format: PinFormat) -> String {
        formatSHA256(digest, format)
    }

    /// The lowercase hex form.
    public var hex: String { formatted(.hex) }

    /// Uppercase hex bytes separated by colons, as `openssl x509 -fingerprint` prints.
    public var colonHex: String { Hex.encode(digest, separator: ":", uppercase: true) }

    /// The padded Base64 form.
    public var base64: String { formatted(.base64) }

    /// The colon-separated hex form.
    public var description: String { colonHex }
}

extension Certificate {
    /// The SPKI pin of the certificate's subject public key.
    public var spkiPin: SPKIPin { SPKIPin(self) }

    /// The SHA-256 fingerprint of the whole certificate.
    public var fingerprint: CertificateFingerprint { CertificateFingerprint(self) }
}

// MARK: - Text forms

private let sha256Prefix = "sha256/"

private func formatSHA256(_ digest: SHA256Digest, _ format: PinFormat) -> String {
    switch format {
    case .base64: Base64.encode(digest)
    case .sha256Base64: sha256Prefix + Base64.encode(digest)
    case .hex: Hex.encode(digest)
    }
}

/// The `sha256/` prefix as bytes.
private func sha256PrefixBytes() -> [UInt8] {
    ("sha256/" as StaticString).withUTF8Buffer { Array($0) }
}

/// Parses a SHA-256 digest in `format`, or in the form the text (its UTF-8) has when
/// `format` is nil.
private func parseSHA256Text(_ utf8: [UInt8], format: PinFormat? = nil) throws(PinParseError) -> SHA256Digest {
    let slash = utf8.firstIndex(of: UInt8(ascii: "/"))
    let resolved: PinFormat
    if let format {
        resolved = format
    } else if utf8.count == 64, utf8.allSatisfy(Hex.isDigit) {
        resolved = .hex
    } else if utf8.count == 44, utf8.last == UInt8(ascii: "=") {
        // The Base64 of 32 bytes: 44 characters ending in one `=`. It may contain `/`,
        // so it is recognised before looking for a `name/` prefix.
        resolved = .base64
    } else if let slash, slash > 0, utf8[..<slash].allSatisfy(isPrefixCharacter) {
        resolved = .sha256Base64
    } else {
        resolved = .base64
    }

    let bytes: [UInt8]
    switch resolved {
    case .sha256Base64:
        let prefix = sha256PrefixBytes()
        guard utf8.count >= prefix.count, utf8[..<prefix.count].elementsEqual(prefix) else {
            throw PinParseError.unknownPrefix
        }
        do {
            bytes = try Base64.decode(utf8[prefix.count...])
        } catch {
            throw PinParseError.invalidBase64(error)
        }
    case .base64:
        // Said as such, not as the Base64 error at the `/` the prefix ends with.
        if format == .base64, utf8.starts(with: sha256PrefixBytes()) { throw PinParseError.unexpectedPrefix }
        do {
            bytes = try Base64.decode(utf8)
        } catch {
            throw PinParseError.invalidBase64(error)
        }
    case .hex:
        do {
            bytes = try Hex.decode(utf8)
        } catch {
            throw PinParseError.invalidHex(offset: error.offset)
        }
    }
    guard let digest = SHA256Digest(bytes: bytes) else { throw PinParseError.wrongLength(byteCount: bytes.count) }
    return digest
}

private func isPrefixCharacter(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
}
