import TackDER
import TackDigest
import TackSignature
import TackTrust
import TackX509

/// One read of a PKCS #12 file (see ``PKCS12File``).
struct PKCS12Reader {
    let options: PKCS12Options
    let cryptography: PKCS12Cryptography

    // What the read collects.
    private var isBER = false
    private var certificates: [PKCS12Certificate] = []
    private var keys: [PKCS12Key] = []
    private var unopened: [PKCS12UnopenedBag] = []
    private var warnings: [PKCS12Warning] = []
    private var bagCount = 0
    /// The passphrases still worth trying: the one the MAC verified, or every
    /// candidate when there is no MAC.
    private var passphrases: [PKCS12Passphrase] = []
    private var macVerified = false

    init(options: PKCS12Options, cryptography: PKCS12Cryptography) {
        self.options = options
        self.cryptography = cryptography
    }

    /// The candidates for a passphrase: as given, plus the empty/absent twin.
    static func candidates(_ passphrase: String?) -> [PKCS12Passphrase] {
        guard let passphrase, !passphrase.isEmpty else { return [.absent, .text("")] }
        return [.text(passphrase)]
    }

    consuming func read(_ bytes: [UInt8], passphrase: String?) throws(PKCS12Error) -> PKCS12File {
        guard bytes.count <= options.maximumFileSize else {
            throw PKCS12Error(.fileTooLarge(limit: options.maximumFileSize), at: 0, in: .file)
        }
        // PFX ::= SEQUENCE { version INTEGER {v3(3)}, authSafe ContentInfo, macData MacData OPTIONAL }
        let file = try LayerReader(bytes, layer: .file, limits: options.ber)
        isBER = isBER || file.document.isBER
        var pfx = try file.fields(of: file.document.root, .sequence)
        let versionIndex = try pfx.next(.integer)
        let version = try file.integer(versionIndex)
        guard version == 3 else { throw file.error(.unsupportedVersion(version), at: versionIndex) }
        let authSafeIndex = try pfx.next(.sequence)
        let macIndex = pfx.optional(.sequence)
        try pfx.end()

        // ContentInfo ::= SEQUENCE { contentType OID, content [0] EXPLICIT ANY OPTIONAL }
        var authSafe = try file.fields(of: authSafeIndex, .sequence)
        let typeIndex = try authSafe.next(.objectIdentifier)
        let type = try file.oid(typeIndex)
        if type == PKCS12OID.signedData { throw file.error(.publicKeyIntegrityMode, at: typeIndex) }
        guard type == PKCS12OID.data else { throw file.error(.unsupportedContentType(type), at: typeIndex) }
        var explicit = try file.fields(of: try authSafe.next(.contextSpecific(0, isConstructed: true)), .contextSpecific(0, isConstructed: true))
        let authSafeBytes = try file.octets(try explicit.next(.octetString))
        try explicit.end()
        try authSafe.end()

        var mac: PKCS12MACScheme? = nil
        if let macIndex {
            let scheme = try macScheme(file, macIndex)
            mac = scheme
            try verifyMAC(scheme, passphrase: passphrase, content: authSafeBytes, file: file, at: macIndex)
        } else {
            guard options.readsFilesWithoutMAC else { throw PKCS12Error(.missingMAC, at: 0, in: .file) }
            warnings.append(.noMAC)
            passphrases = PKCS12Reader.candidates(passphrase)
        }

        // AuthenticatedSafe ::= SEQUENCE OF ContentInfo
        let safe = try LayerReader(authSafeBytes, layer: .authenticatedSafe, limits: options.ber)
        isBER = isBER || safe.document.isBER
        var contents: [PKCS12ContentProtection] = []
        var infos = try safe.fields(of: safe.document.root, .sequence)
        while !infos.isAtEnd {
            let index = contents.count
            contents.append(try readContentInfo(safe, try infos.next(.sequence), index: index))
        }

        let identities = matchIdentities()
        warnings += mismatchWarnings(identities)
        for identity in identities {
            switch identity.chain.end {
            case .issuerRejected, .budgetExhausted:
                warnings.append(.chainIncomplete(certificateIndex: identity.certificateIndex, identity.chain.end))
            case .selfIssued, .issuerNotFound: break
            }
        }
        return PKCS12File(isBER: isBER, mac: mac, contents: contents, certificates: certificates, keys: keys,
                          identities: identities, unopenedBags: unopened, warnings: warnings)
    }

    // MARK: Integrity

    /// MacData ::= SEQUENCE { mac DigestInfo, macSalt OCTET STRING, iterations INTEGER DEFAULT 1 }
    private mutating func macScheme(_ file: LayerReader, _ index: Int) throws(PKCS12Error) -> PKCS12MACScheme {
        var macData = try file.fields(of: index, .sequence)
        var digestInfo = try file.fields(of: try macData.next(.sequence), .sequence)
        let algorithmIndex = try digestInfo.next(.sequence)
        let (oid, parameters) = try file.algorithm(algorithmIndex)
        let digest = try file.octets(try digestInfo.next(.octetString))
        try digestInfo.end()
        let salt = try file.octets(try macData.next(.octetString))
        let iterations = try macData.optional(.integer).map { (index) throws(PKCS12Error) in
            try file.iterations(index, limit: options.maximumIterations)
        } ?? 1
        try macData.end()
        let kind: PKCS12MACScheme.Kind
        var raw: [UInt8] = []
        var (keySalt, keyIterations) = (salt, iterations)
        if oid == PKCS12OID.pbmac1 {
            // PBMAC1-params ::= SEQUENCE { keyDerivationFunc AlgorithmIdentifier {PBKDF2},
            //   messageAuthScheme AlgorithmIdentifier } (RFC 8018 §A.5, RFC 9579 §3)
            guard let parameters else { throw file.error(.invalidAlgorithmParameters, at: algorithmIndex) }
            raw = file.encoded(parameters)
            var pbmac1 = try file.fields(of: parameters, .sequence)
            let kdfIndex = try pbmac1.next(.sequence)
            let macIndex = try pbmac1.next(.sequence)
            try pbmac1.end()
            let (kdf, kdfParameters) = try file.algorithm(kdfIndex)
            guard kdf == PKCS12OID.pbkdf2, let kdfParameters else {
                throw file.error(.macAlgorithmUnavailable(kdf), at: kdfIndex)
            }
            let pbkdf2 = try file.pbkdf2Parameters(kdfParameters, iterationLimit: options.maximumIterations)
            let mac = try file.hmacAlgorithm(macIndex)
            // RFC 9579 §3: keyLength is required; a MAC key longer than any HMAC block is refused.
            guard let keyLength = pbkdf2.keyLength, keyLength >= 1, keyLength <= 128 else {
                throw file.error(.invalidAlgorithmParameters, at: kdfParameters)
            }
            kind = .pbmac1(prf: pbkdf2.prf, mac: mac, keyLength: keyLength)
            (keySalt, keyIterations) = (pbkdf2.salt, pbkdf2.iterations)
            if mac == .sha1 || pbkdf2.prf == .sha1 { warnings.append(.macUsesSHA1) }
        } else if let hash = DigestAlgorithm(oid: oid), hash.isComputable {
            if let parameters, file.node(parameters).tag != .null {
                throw file.error(.invalidAlgorithmParameters, at: parameters)
            }
            kind = .pkcs12KDF(hash: hash)
            if hash == .sha1 { warnings.append(.macUsesSHA1) }
        } else {
            throw file.error(.macAlgorithmUnavailable(oid), at: algorithmIndex)
        }
        if keyIterations < 2048 { warnings.append(.fewIterations(keyIterations)) }
        return PKCS12MACScheme(kind: kind, iterations: keyIterations, salt: keySalt, digest: digest, parameters: raw)
    }

    private mutating func verifyMAC(
        _ scheme: PKCS12MACScheme, passphrase: String?, content: [UInt8], file: LayerReader, at index: Int
    ) throws(PKCS12Error) {
        for candidate in PKCS12Reader.candidates(passphrase) {
            guard let computed = cryptography.computeMAC(scheme, candidate, content) else {
                throw file.error(.macAlgorithmUnavailable(scheme.algorithm), at: index)
            }
            if PKCS12Reader.constantTimeEqual(computed, scheme.digest) {
                passphrases = [candidate]
                macVerified = true
                return
            }
        }
        throw file.error(.wrongPassphrase, at: index)
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    // MARK: Privacy

    /// Decrypts with each remaining passphrase and parses the plaintext with
    /// `body`; classifies a failure as a wrong passphrase or a corrupted file.
    private mutating func decrypt<T>(
        _ scheme: PKCS12EncryptionScheme, _ ciphertext: [UInt8], reader: LayerReader, at index: Int,
        _ body: (inout PKCS12Reader, [UInt8]) throws(PKCS12Error) -> T
    ) throws(PKCS12Error) -> T {
        var lastError: PKCS12Error? = nil
        for candidate in passphrases {
            switch cryptography.decrypt(scheme, candidate, ciphertext) {
            case .unavailable:
                throw reader.error(.encryptionUnavailable(scheme), at: index)
            case .badPadding:
                continue
            case .malformedCiphertext:
                // Not a whole number of blocks: no passphrase can fix that.
                throw reader.error(.decryptionFailed, at: index)
            case .plaintext(let plaintext):
                do {
                    let result = try body(&self, plaintext)
                    passphrases = [candidate]
                    return result
                } catch {
                    // Garbage that happened to end in valid padding (about 1 in 256
                    // wrong keys) fails to parse: try the next candidate.
                    lastError = error
                }
            }
        }
        if macVerified {
            // The passphrase is right (the MAC says so): the ciphertext is damaged.
            if let lastError { throw lastError }
            throw reader.error(.decryptionFailed, at: index)
        }
        throw reader.error(.wrongPassphraseOrCorrupted, at: index)
    }

    // MARK: AuthenticatedSafe

    private mutating func readContentInfo(_ safe: LayerReader, _ index: Int, index contentIndex: Int) throws(PKCS12Error) -> PKCS12ContentProtection {
        var info = try safe.fields(of: index, .sequence)
        let typeIndex = try info.next(.objectIdentifier)
        let type = try safe.oid(typeIndex)
        if type == PKCS12OID.envelopedData { throw safe.error(.envelopedData, at: typeIndex) }
        let explicitTag = DERTag.contextSpecific(0, isConstructed: true)
        var explicit = try safe.fields(of: try info.next(explicitTag), explicitTag)
        if type == PKCS12OID.data {
            let bytes = try safe.octets(try explicit.next(.octetString))
            try explicit.end()
            try info.end()
            try readSafeContents(bytes, layer: .safeContents(index: contentIndex))
            return .none
        }
        guard type == PKCS12OID.encryptedData else { throw safe.error(.unsupportedContentType(type), at: typeIndex) }
        // EncryptedData ::= SEQUENCE { version INTEGER, encryptedContentInfo EncryptedContentInfo }
        // EncryptedContentInfo ::= SEQUENCE { contentType OID, contentEncryptionAlgorithm
        //   AlgorithmIdentifier, encryptedContent [0] IMPLICIT OCTET STRING OPTIONAL }
        var encryptedData = try safe.fields(of: try explicit.next(.sequence), .sequence)
        try explicit.end()
        try info.end()
        let versionIndex = try encryptedData.next(.integer)
        let version = try safe.integer(versionIndex)
        // CMS (RFC 5652 §8): 0, or 2 with unprotectedAttrs.
        guard version == 0 || version == 2 else { throw safe.error(.unsupportedVersion(version), at: versionIndex) }
        var contentInfo = try safe.fields(of: try encryptedData.next(.sequence), .sequence)
        _ = encryptedData.optional(.contextSpecific(1, isConstructed: true))  // unprotectedAttrs, unread
        try encryptedData.end()
        let innerTypeIndex = try contentInfo.next(.objectIdentifier)
        let innerType = try safe.oid(innerTypeIndex)
        guard innerType == PKCS12OID.data else { throw safe.error(.unsupportedContentType(innerType), at: innerTypeIndex) }
        let schemeIndex = try contentInfo.next(.sequence)
        let scheme = try safe.encryptionScheme(schemeIndex, iterationLimit: options.maximumIterations)
        let ciphertextIndex = try contentInfo.next(.contextSpecific(0, isConstructed: false))
        let ciphertext = try safe.octets(ciphertextIndex, .contextSpecific(0, isConstructed: false))
        try contentInfo.end()
        noteScheme(scheme)
        try decrypt(scheme, ciphertext, reader: safe, at: schemeIndex) { (reader, plaintext) throws(PKCS12Error) in
            try reader.readSafeContents(plaintext, layer: .safeContents(index: contentIndex))
        }
        return .encrypted(scheme)
    }

    private mutating func noteScheme(_ scheme: PKCS12EncryptionScheme) {
        if scheme.isWeak { warnings.append(.weakEncryption(scheme)) }
        if scheme.iterations < 2048 { warnings.append(.fewIterations(scheme.iterations)) }
    }

    // MARK: SafeContents

    /// SafeContents ::= SEQUENCE OF SafeBag
    private mutating func readSafeContents(_ bytes: [UInt8], layer: PKCS12Layer) throws(PKCS12Error) {
        let reader = try LayerReader(bytes, layer: layer, limits: options.ber)
        isBER = isBER || reader.document.isBER
        try readBags(reader, reader.document.root, depth: 0)
    }

    /// SafeBag ::= SEQUENCE { bagId OID, bagValue [0] EXPLICIT ANY, bagAttributes SET OF PKCS12Attribute OPTIONAL }
    private mutating func readBags(_ reader: LayerReader, _ index: Int, depth: Int) throws(PKCS12Error) {
        var bags = try reader.fields(of: index, .sequence)
        while !bags.isAtEnd {
            let bagIndex = try bags.next(.sequence)
            bagCount += 1
            guard bagCount <= options.maximumBagCount else {
                throw reader.error(.tooManyBags(limit: options.maximumBagCount), at: bagIndex)
            }
            var bag = try reader.fields(of: bagIndex, .sequence)
            let idIndex = try bag.next(.objectIdentifier)
            let id = try reader.oid(idIndex)
            let explicitTag = DERTag.contextSpecific(0, isConstructed: true)
            var explicit = try reader.fields(of: try bag.next(explicitTag), explicitTag)
            let valueIndex = try explicit.nextAny()
            try explicit.end()
            let attributes = try bag.optional(.set).map { (index) throws(PKCS12Error) in
                try readAttributes(reader, index)
            } ?? PKCS12Attributes(friendlyName: nil, localKeyID: nil, otherAttributes: [])
            try bag.end()

            if id == PKCS12OID.keyBag {
                warnings.append(.unencryptedKey)
                if let key = try privateKey(reader.encoded(valueIndex), reader: reader, at: valueIndex) {
                    keys.append(PKCS12Key(key: key, attributes: attributes, encryption: nil))
                }
            } else if id == PKCS12OID.pkcs8ShroudedKeyBag {
                // EncryptedPrivateKeyInfo ::= SEQUENCE { encryptionAlgorithm AlgorithmIdentifier, encryptedData OCTET STRING }
                var info = try reader.fields(of: valueIndex, .sequence)
                let schemeIndex = try info.next(.sequence)
                let scheme = try reader.encryptionScheme(schemeIndex, iterationLimit: options.maximumIterations)
                let ciphertext = try reader.octets(try info.next(.octetString))
                try info.end()
                noteScheme(scheme)
                let layer: PKCS12Layer
                if case .safeContents(let contentIndex) = reader.layer { layer = .shroudedKey(index: contentIndex) } else { layer = reader.layer }
                let key = try decrypt(scheme, ciphertext, reader: reader, at: schemeIndex) {
                    (_, plaintext) throws(PKCS12Error) -> Result<PrivateKey, PrivateKeyError> in
                    do throws(PrivateKeyError) {
                        return .success(try PrivateKey(derEncoded: plaintext))
                    } catch {
                        // A well-formed key of an algorithm Tack does not read decrypted
                        // correctly (garbage from a wrong passphrase does not parse that far).
                        if PKCS12Reader.isUnsupported(error) { return .failure(error) }
                        throw PKCS12Error(.invalidPrivateKey(error), at: error.offset, in: layer)
                    }
                }
                switch key {
                case .success(let key): keys.append(PKCS12Key(key: key, attributes: attributes, encryption: scheme))
                case .failure(let error): warnings.append(.unreadableKey(error, encryption: scheme))
                }
            } else if id == PKCS12OID.certBag {
                // CertBag ::= SEQUENCE { certId OID, certValue [0] EXPLICIT ANY DEFINED BY certId }
                var certBag = try reader.fields(of: valueIndex, .sequence)
                let typeIndex = try certBag.next(.objectIdentifier)
                let type = try reader.oid(typeIndex)
                guard type == PKCS12OID.x509Certificate else {
                    throw reader.error(.unsupportedCertificateType(type), at: typeIndex)
                }
                var value = try reader.fields(of: try certBag.next(explicitTag), explicitTag)
                let derIndex = try value.next(.octetString)
                let der = try reader.octets(derIndex)
                try value.end()
                try certBag.end()
                let certificate: Certificate
                do { certificate = try Certificate(derEncoded: der) } catch {
                    throw reader.error(.invalidCertificate(error), at: derIndex)
                }
                certificates.append(PKCS12Certificate(certificate: certificate, attributes: attributes))
            } else if id == PKCS12OID.crlBag {
                record(.crl(reader.encoded(valueIndex)))
            } else if id == PKCS12OID.secretBag {
                // SecretBag ::= SEQUENCE { secretTypeId OID, secretValue [0] EXPLICIT ANY }
                var secret = try reader.fields(of: valueIndex, .sequence)
                let type = try reader.oid(try secret.next(.objectIdentifier))
                record(.secret(type))
            } else if id == PKCS12OID.safeContentsBag {
                guard depth < options.maximumSafeContentsDepth else {
                    throw reader.error(.safeContentsTooDeep(limit: options.maximumSafeContentsDepth), at: valueIndex)
                }
                try readBags(reader, valueIndex, depth: depth + 1)
            } else {
                record(.unknown(id))
            }
            for other in attributes.otherAttributes { warnings.append(.unknownAttribute(other)) }
        }
    }

    private mutating func record(_ bag: PKCS12UnopenedBag) {
        unopened.append(bag)
        warnings.append(.unopenedBag(bag))
    }

    /// The key of a plain keyBag, or `nil` (and a warning) when it is well formed
    /// but of a kind Tack does not read.
    private mutating func privateKey(_ der: [UInt8], reader: LayerReader, at index: Int) throws(PKCS12Error) -> PrivateKey? {
        do { return try PrivateKey(derEncoded: der) } catch {
            if PKCS12Reader.isUnsupported(error) {
                warnings.append(.unreadableKey(error, encryption: nil))
                return nil
            }
            // The key's offsets index its own encoding; report the bag's offset plus it.
            throw PKCS12Error(.invalidPrivateKey(error), at: reader.node(index).offset + error.offset, in: reader.layer)
        }
    }

    /// Whether a key error says the key is of a kind Tack does not read, rather
    /// than broken: such a bag is a warning, and the rest of the file is read.
    static func isUnsupported(_ error: PrivateKeyError) -> Bool {
        switch error.reason {
        case .unknownAlgorithm, .unsupportedCurve, .multiPrimeRSA, .unsupportedRSAModulus, .explicitCurveParameters: true
        default: false
        }
    }

    /// PKCS12Attribute ::= SEQUENCE { attrId OID, attrValues SET OF ANY }
    private func readAttributes(_ reader: LayerReader, _ index: Int) throws(PKCS12Error) -> PKCS12Attributes {
        var result = PKCS12Attributes(friendlyName: nil, localKeyID: nil, otherAttributes: [])
        var seen: [OID] = []
        var attributes = try reader.fields(of: index, .set)
        while !attributes.isAtEnd {
            let attributeIndex = try attributes.next(.sequence)
            var attribute = try reader.fields(of: attributeIndex, .sequence)
            let id = try reader.oid(try attribute.next(.objectIdentifier))
            let valuesIndex = try attribute.next(.set)
            try attribute.end()
            guard !seen.contains(id) else { throw reader.error(.invalidAttribute(id), at: attributeIndex) }
            seen.append(id)
            let values = reader.document.children(of: valuesIndex)
            if id == PKCS12OID.friendlyName || id == PKCS12OID.localKeyID {
                guard values.count == 1, let value = values.first else {
                    throw reader.error(.invalidAttribute(id), at: attributeIndex)
                }
                if id == PKCS12OID.friendlyName {
                    let units = try reader.octets(value, .bmpString)
                    guard let text = PKCS12Reader.utf16BigEndian(units) else {
                        throw reader.error(.invalidFriendlyName, at: value)
                    }
                    result.friendlyName = text
                } else {
                    result.localKeyID = try reader.octets(value)
                }
            } else {
                result.otherAttributes.append(id)
            }
        }
        return result
    }

    /// A BMPString as UTF-16BE, surrogate pairs included (PKCS #12 tools write any
    /// Unicode text there, beyond the Basic Multilingual Plane of X.680's
    /// definition); `nil` for an odd length or a lone surrogate.
    static func utf16BigEndian(_ bytes: [UInt8]) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 0
        while index < bytes.count {
            units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
            index += 2
        }
        var scalars = String.UnicodeScalarView()
        var iterator = units.makeIterator()
        var decoder = UTF16()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: return String(scalars)
            case .error: return nil
            }
        }
    }

    // MARK: Identities

    /// Pairs keys with certificates, and builds each identity's chain.
    private func matchIdentities() -> [PKCS12Identity] {
        var pairs: [(certificate: Int, key: Int, match: PKCS12Identity.Match)] = []
        var taken: [Bool] = Array(repeating: false, count: certificates.count)
        for (keyIndex, entry) in keys.enumerated() {
            let keyInfo = entry.key.isChecked ? entry.key.publicKeyInfo : nil
            var chosen: (Int, PKCS12Identity.Match)? = nil
            for (certificateIndex, certificate) in certificates.enumerated() where !taken[certificateIndex] {
                let sameKey = keyInfo.map { $0.derEncoded == certificate.certificate.publicKeyInfo.derEncoded } ?? false
                let sameID = entry.attributes.localKeyID != nil && entry.attributes.localKeyID == certificate.attributes.localKeyID
                if sameKey && sameID { chosen = (certificateIndex, .localKeyIDAndPublicKey); break }
                if sameKey && chosen == nil { chosen = (certificateIndex, .publicKey) }
                if sameID && !sameKey && keyInfo == nil && chosen == nil { chosen = (certificateIndex, .localKeyIDOnly) }
            }
            guard let (certificateIndex, match) = chosen else { continue }
            taken[certificateIndex] = true
            pairs.append((certificateIndex, keyIndex, match))
        }
        // Every chain over the file's certificates at once, with one budget: each
        // certificate is decoded and each signature checked once, however many
        // identities share them.
        let chains = IssuerChain.chains(leavesAt: pairs.map { $0.certificate }, in: certificates.map { $0.certificate },
                                        budget: options.chainBudget)
        return zip(pairs, chains).map { pair, chain in
            let certificate = certificates[pair.certificate].certificate
            return PKCS12Identity(
                certificateIndex: pair.certificate, keyIndex: pair.key, match: pair.match,
                keyID: cryptography.sha1(Array(certificate.publicKeyInfo.rawKey)),
                spkiPin: SPKIPin(certificate.publicKeyInfo),
                chain: chain)
        }
    }

    /// The localKeyID pairs whose public keys differ (as warnings).
    func mismatchWarnings(_ identities: [PKCS12Identity]) -> [PKCS12Warning] {
        var result: [PKCS12Warning] = []
        for (keyIndex, entry) in keys.enumerated() where entry.key.isChecked {
            guard let id = entry.attributes.localKeyID else { continue }
            for (certificateIndex, certificate) in certificates.enumerated() where certificate.attributes.localKeyID == id {
                let paired = identities.contains { $0.keyIndex == keyIndex && $0.certificateIndex == certificateIndex }
                if !paired { result.append(.localKeyIDMismatch(keyIndex: keyIndex, certificateIndex: certificateIndex)) }
            }
        }
        return result
    }
}
