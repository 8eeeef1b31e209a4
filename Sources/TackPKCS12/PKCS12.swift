public import TackDER
public import TackSignature
public import TackTrust
public import TackX509

/// Limits and choices for reading a PKCS #12 file.
public struct PKCS12Options: Sendable, Hashable {
    /// The largest file read, in bytes. Default 16 MiB: identity files are a
    /// few KiB; a bundle of a thousand certificates is about 2 MiB.
    public var maximumFileSize: Int
    /// The largest MAC or encryption iteration count. Default 1,000,000: above
    /// OWASP's 600,000 for PBKDF2-HMAC-SHA-256 (2023) and the 2,048 of OpenSSL's
    /// defaults, so every file a tool writes by default reads, while a hostile file
    /// with 2³¹ iterations is refused before any work (about two seconds of
    /// derivation at this cap instead of over an hour).
    public var maximumIterations: Int
    /// The most bags in the file, across every SafeContents. Default 10,000.
    public var maximumBagCount: Int
    /// The deepest nesting of safeContentsBag (RFC 7292 §4.2.6). Default 4; tools
    /// do not nest at all.
    public var maximumSafeContentsDepth: Int
    /// The BER limits of each layer.
    public var ber: BERLimits
    /// The path builder's budget for every identity's chain together
    /// (``PKCS12Identity/chain``). Default 1,000 signature checks and 200,000 build
    /// steps: a file's chains take a few checks each, while a hostile file of
    /// thousands of certificates sharing one name is cut off within about a second
    /// (the chains stop short, each with a ``PKCS12Warning/chainIncomplete(certificateIndex:_:)``).
    public var chainBudget: Budget
    /// Whether a file without MacData is read (then ``PKCS12File/mac`` is `nil`
    /// and a warning says the file's integrity was not checked). Default `false`:
    /// RFC 7292 §4 makes macData OPTIONAL only for public-key integrity mode.
    public var readsFilesWithoutMAC: Bool

    /// Creates options.
    ///
    /// - Parameters:
    ///   - maximumFileSize: The largest file, in bytes.
    ///   - maximumIterations: The largest iteration count.
    ///   - maximumBagCount: The most bags.
    ///   - maximumSafeContentsDepth: The deepest safeContentsBag nesting.
    ///   - ber: The BER limits.
    ///   - chainBudget: The path builder's budget for the identities' chains.
    ///   - readsFilesWithoutMAC: Whether a file without a MAC is read.
    public init(maximumFileSize: Int = 1 << 24, maximumIterations: Int = 1_000_000, maximumBagCount: Int = 10_000,
                maximumSafeContentsDepth: Int = 4, ber: BERLimits = BERLimits(),
                chainBudget: Budget = Budget(signatureChecks: 1000, buildSteps: 200_000, maxIntermediates: 6),
                readsFilesWithoutMAC: Bool = false) {
        self.maximumFileSize = maximumFileSize
        self.maximumIterations = maximumIterations
        self.maximumBagCount = maximumBagCount
        self.maximumSafeContentsDepth = maximumSafeContentsDepth
        self.ber = ber
        self.chainBudget = chainBudget
        self.readsFilesWithoutMAC = readsFilesWithoutMAC
    }
}

/// The bag attributes Tack reads (RFC 7292 §4.2, PKCS #9).
public struct PKCS12Attributes: Sendable, Hashable {
    /// `friendlyName` (a BMPString, any Unicode text), if present.
    public var friendlyName: String?
    /// `localKeyId` (an OCTET STRING), if present.
    public var localKeyID: [UInt8]?
    /// The identifiers of other attributes, kept unread (for example Microsoft's
    /// CSP name); each also gives a warning.
    public var otherAttributes: [OID]
}

/// A certificate from a certBag.
public struct PKCS12Certificate: Sendable {
    /// The certificate (strict DER).
    public let certificate: Certificate
    /// Its bag's attributes.
    public let attributes: PKCS12Attributes
}

/// A private key from a keyBag or pkcs8ShroudedKeyBag.
public struct PKCS12Key: Sendable {
    /// The key (strict DER, checked; see TackSignature's `PrivateKey`).
    public let key: PrivateKey
    /// Its bag's attributes.
    public let attributes: PKCS12Attributes
    /// The encryption of a pkcs8ShroudedKeyBag; `nil` for a keyBag.
    public let encryption: PKCS12EncryptionScheme?
}

/// A certificate and the private key that belongs to it.
public struct PKCS12Identity: Sendable {
    /// How the key was tied to the certificate.
    public enum Match: Sendable, Hashable {
        /// Equal localKeyID attributes and equal public keys.
        case localKeyIDAndPublicKey
        /// Equal public keys (the attributes are absent or differ).
        case publicKey
        /// Equal localKeyID attributes only: the key's algorithm is one whose
        /// public key Tack cannot derive (X25519, Ed448, X448), so that the key
        /// matches the certificate is not known.
        case localKeyIDOnly
    }

    /// The index of the certificate in ``PKCS12File/certificates``.
    public let certificateIndex: Int
    /// The index of the key in ``PKCS12File/keys``.
    public let keyIndex: Int
    /// How they were matched.
    public let match: Match
    /// The key ID as `SecPKCS12Import`'s `kSecImportItemKeyID`: SHA-1 of the
    /// certificate's subjectPublicKey bits; `nil` while SHA-1 is not available in
    /// this build.
    public let keyID: [UInt8]?
    /// The SPKI pin (SHA-256 of the certificate's SubjectPublicKeyInfo).
    public let spkiPin: SPKIPin
    /// The certificate's chain over the file's certificates, built by TackTrust's
    /// path builder without an anchor (an `IssuerChain`): its `indices` index
    /// ``PKCS12File/certificates``, leaf (``certificateIndex``) first; each is
    /// signed by the next. It may end in an intermediate; it says nothing about
    /// trust.
    public let chain: IssuerChain
}

/// A bag that was not opened.
public enum PKCS12UnopenedBag: Sendable, Hashable {
    /// A crlBag (its DER is kept, unparsed).
    case crl([UInt8])
    /// A secretBag of the given type: reported, never opened.
    case secret(OID)
    /// A bag of a type RFC 7292 does not define.
    case unknown(OID)
}

/// The protection of one ContentInfo of the AuthenticatedSafe.
public enum PKCS12ContentProtection: Sendable, Hashable {
    /// `data`: not encrypted.
    case none
    /// `encryptedData` with this scheme.
    case encrypted(PKCS12EncryptionScheme)
}

/// Something worth saying about a file that was read.
public enum PKCS12Warning: Sendable, Hashable, CustomStringConvertible {
    /// The file has no MAC: its integrity was not checked (read because the
    /// caller allowed it).
    case noMAC
    /// The MAC uses SHA-1.
    case macUsesSHA1
    /// A MAC or encryption with fewer than 2,048 iterations (OpenSSL's default,
    /// the floor RFC 8018 §4.2 recommends being 1,000).
    case fewIterations(Int)
    /// RC2 with a 40-bit key: readable by anyone.
    case weakEncryption(PKCS12EncryptionScheme)
    /// A bag that was not opened.
    case unopenedBag(PKCS12UnopenedBag)
    /// An attribute Tack does not read.
    case unknownAttribute(OID)
    /// A key and a certificate share a localKeyID but not a public key.
    case localKeyIDMismatch(keyIndex: Int, certificateIndex: Int)
    /// An identity's chain stops short: certificates of the file have the next
    /// issuer's name but none verifies the signature
    /// (`IssuerChain.End.issuerRejected(_:)`), or the path builder's
    /// budget ran out (`IssuerChain.End.budgetExhausted(_:)`).
    case chainIncomplete(certificateIndex: Int, IssuerChain.End)
    /// A key bag whose key Tack does not read (an algorithm such as DSA, a curve
    /// other than P-256/384/521, a multi-prime or out-of-range RSA key): the rest of
    /// the file was read, and the key is not among ``PKCS12File/keys``. `encryption`
    /// is the scheme of a shrouded key bag (which was decrypted), `nil` for a plain one.
    case unreadableKey(PrivateKeyError, encryption: PKCS12EncryptionScheme?)
    /// A private key stored without encryption (a plain keyBag, RFC 7292 §4.2.1:
    /// `openssl pkcs12 -keypbe NONE`): anyone who has the file has the key.
    case unencryptedKey

    /// A stable snake_case identifier of the warning's kind: `no_mac`,
    /// `mac_uses_sha1`, `few_iterations`, `weak_encryption`, `unopened_bag`,
    /// `unknown_attribute`, `local_key_id_mismatch`, `chain_incomplete`,
    /// `unreadable_key` or `unencrypted_key`.
    public var code: String {
        switch self {
        case .noMAC: "no_mac"
        case .macUsesSHA1: "mac_uses_sha1"
        case .fewIterations: "few_iterations"
        case .weakEncryption: "weak_encryption"
        case .unopenedBag: "unopened_bag"
        case .unknownAttribute: "unknown_attribute"
        case .localKeyIDMismatch: "local_key_id_mismatch"
        case .chainIncomplete: "chain_incomplete"
        case .unreadableKey: "unreadable_key"
        case .unencryptedKey: "unencrypted_key"
        }
    }

    /// The part of the file the warning concerns: `MAC`, `MAC or encryption`
    /// (an iteration count, which both use), `encryption`, `key bag`,
    /// `certificate bag`, `CRL bag`, `secret bag`, `bag` (of an unknown type) or
    /// `attribute`.
    public var part: String {
        switch self {
        case .noMAC, .macUsesSHA1: "MAC"
        case .fewIterations: "MAC or encryption"
        case .weakEncryption: "encryption"
        case .unreadableKey, .unencryptedKey, .localKeyIDMismatch: "key bag"
        case .chainIncomplete: "certificate bag"
        case .unopenedBag(.crl): "CRL bag"
        case .unopenedBag(.secret): "secret bag"
        case .unopenedBag(.unknown): "bag"
        case .unknownAttribute: "attribute"
        }
    }

    /// A one-line description.
    public var description: String {
        switch self {
        case .unreadableKey(let error, _): "a key bag was not read: \(error.reason)"
        case .unencryptedKey: "a private key is stored without encryption (a plain key bag): anyone with the file has the key"
        case .noMAC: "the file has no MAC: its integrity was not checked"
        case .macUsesSHA1: "the MAC uses SHA-1"
        case .fewIterations(let count): "\(count) iterations (fewer than 2,048)"
        case .weakEncryption(let scheme): "weak encryption: \(scheme)"
        case .unopenedBag(let bag):
            switch bag {
            case .crl: "a CRL bag was not opened"
            case .secret(let oid): "a secret bag (\(oid)) was not opened"
            case .unknown(let oid): "a bag of unknown type \(oid) was not opened"
            }
        case .unknownAttribute(let oid): "attribute \(oid) was not read"
        case .localKeyIDMismatch(let key, let certificate):
            "key \(key) and certificate \(certificate) share a localKeyID but not a public key"
        case .chainIncomplete(let certificate, let end):
            switch end {
            case .issuerRejected(let failure), .budgetExhausted(let failure):
                "the chain of certificate \(certificate) stops short: \(failure)"
            case .selfIssued, .issuerNotFound:
                "the chain of certificate \(certificate) stops short"
            }
        }
    }
}

/// A PKCS #12 file, read: what `SecPKCS12Import` returns, and how the file was protected.
///
/// ```swift
/// let file = try PKCS12File(berEncoded: bytes, passphrase: passphrase)
/// for identity in file.identities {
///     let leaf = file.certificates[identity.certificateIndex].certificate
///     print(leaf.subject, identity.spkiPin)
/// }
/// ```
///
/// Reading follows RFC 7292: PFX → MacData → AuthenticatedSafe → ContentInfo
/// (data, encryptedData) → SafeContents → SafeBags. The PFX, AuthenticatedSafe,
/// ContentInfo and SafeContents layers are read as BER (bounded by
/// ``PKCS12Options``; ``isBER`` says whether BER-only forms were used); the
/// certificates and private keys inside stay strict DER.
public struct PKCS12File: Sendable {
    /// Whether any layer used a form that DER forbids (indefinite lengths,
    /// constructed strings, non-minimal lengths).
    public let isBER: Bool
    /// The MAC scheme, verified; `nil` for a file without a MAC.
    public let mac: PKCS12MACScheme?
    /// The protection of each ContentInfo of the AuthenticatedSafe, in order.
    public let contents: [PKCS12ContentProtection]
    /// Every certificate, in file order.
    public let certificates: [PKCS12Certificate]
    /// Every private key, in file order.
    public let keys: [PKCS12Key]
    /// Each key with its certificate.
    public let identities: [PKCS12Identity]
    /// The bags that were not opened.
    public let unopenedBags: [PKCS12UnopenedBag]
    /// Warnings about weak protection and unread parts.
    public let warnings: [PKCS12Warning]

    /// The indices of certificates no key belongs to.
    public var certificatesWithoutKey: [Int] {
        certificates.indices.filter { index in !identities.contains { $0.certificateIndex == index } }
    }

    /// The indices of keys no certificate belongs to.
    public var keysWithoutCertificate: [Int] {
        keys.indices.filter { index in !identities.contains { $0.keyIndex == index } }
    }

    /// Reads a PKCS #12 file.
    ///
    /// The passphrase is tried as given; when it is empty or `nil`, both the empty
    /// and the absent passphrase are tried, as OpenSSL does (they derive different
    /// keys). It is never stored.
    ///
    /// - Parameters:
    ///   - bytes: The file (BER or DER).
    ///   - passphrase: The passphrase, or `nil` for none.
    ///   - options: Limits and choices.
    /// - Throws: ``PKCS12Error``: ``PKCS12Error/Reason/wrongPassphrase`` when the
    ///   MAC does not verify, a structural reason at its offset otherwise.
    public init(berEncoded bytes: [UInt8], passphrase: String?, options: PKCS12Options = PKCS12Options()) throws(PKCS12Error) {
        self = try PKCS12Reader(options: options, cryptography: .standard).read(bytes, passphrase: passphrase)
    }

    internal init(isBER: Bool, mac: PKCS12MACScheme?, contents: [PKCS12ContentProtection],
                  certificates: [PKCS12Certificate], keys: [PKCS12Key], identities: [PKCS12Identity],
                  unopenedBags: [PKCS12UnopenedBag], warnings: [PKCS12Warning]) {
        self.isBER = isBER
        self.mac = mac
        self.contents = contents
        self.certificates = certificates
        self.keys = keys
        self.identities = identities
        self.unopenedBags = unopenedBags
        self.warnings = warnings
    }
}
