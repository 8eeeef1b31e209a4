import TackDER
import TackDigest

/// A BER document of one layer, with its error context.
struct LayerReader {
    let document: BERDocument
    let layer: PKCS12Layer

    /// Reads `bytes` as one BER element.
    init(_ bytes: [UInt8], layer: PKCS12Layer, limits: BERLimits) throws(PKCS12Error) {
        do {
            document = try BERDocument(bytes, limits: limits)
        } catch {
            throw PKCS12Error(.ber(error.reason), at: error.offset, in: layer)
        }
        self.layer = layer
    }

    func node(_ index: Int) -> BERNode { document.nodes[index] }

    func error(_ reason: PKCS12Error.Reason, at index: Int) -> PKCS12Error {
        PKCS12Error(reason, at: document.nodes[index].offset, in: layer)
    }

    /// The fields of the constructed element `index`, which must have `tag`.
    func fields(of index: Int, _ tag: DERTag) throws(PKCS12Error) -> Fields {
        try expect(index, tag)
        return Fields(reader: self, parent: index, children: document.children(of: index))
    }

    /// Checks `index`'s tag; a string type may come in its constructed form (BER).
    func expect(_ index: Int, _ tag: DERTag) throws(PKCS12Error) {
        let found = document.nodes[index].tag
        guard LayerReader.matches(found, tag) else {
            throw error(.unexpectedTag(expected: tag, found: found), at: index)
        }
    }

    static func matches(_ found: DERTag, _ expected: DERTag) -> Bool {
        if found == expected { return true }
        // BER's constructed strings (X.690 §8.7.3): OCTET STRING, BMPString, and
        // an IMPLICIT context-specific OCTET STRING.
        guard !expected.isConstructed, found.isConstructed,
              found.tagClass == expected.tagClass, found.number == expected.number else { return false }
        return expected.tagClass == .contextSpecific || BERDocument.isStringType(expected)
    }

    /// An OBJECT IDENTIFIER.
    func oid(_ index: Int) throws(PKCS12Error) -> OID {
        try expect(index, .objectIdentifier)
        do {
            return try OID(contents: document.bytes[document.nodes[index].contentRange])
        } catch {
            throw self.error(.der(error.reason), at: index)
        }
    }

    /// A non-negative INTEGER that fits an `Int` (minimal encoding, X.690 §8.3.2,
    /// which BER requires as DER does).
    func integer(_ index: Int) throws(PKCS12Error) -> Int {
        try expect(index, .integer)
        let contents = document.bytes[document.nodes[index].contentRange]
        guard let first = contents.first else { throw error(.der(.emptyInteger), at: index) }
        if contents.count > 1 {
            let second = contents[contents.startIndex + 1]
            if (first == 0 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
                throw error(.der(.nonMinimalInteger), at: index)
            }
        }
        guard first & 0x80 == 0 else { throw error(.der(.negativeInteger), at: index) }
        let magnitude = contents.drop(while: { $0 == 0 })
        guard magnitude.count <= 7 else { throw error(.der(.integerOverflow), at: index) }
        var value = 0
        for byte in magnitude { value = (value << 8) | Int(byte) }
        return value
    }

    /// The contents of an OCTET STRING or BMPString (or an IMPLICIT one), segments joined.
    func octets(_ index: Int, _ tag: DERTag = .octetString) throws(PKCS12Error) -> [UInt8] {
        try expect(index, tag)
        do {
            return try document.octets(index)
        } catch {
            throw PKCS12Error(.ber(error.reason), at: error.offset, in: layer)
        }
    }

    /// The element's encoding, for a strict DER reader (certificates and keys).
    func encoded(_ index: Int) -> [UInt8] {
        Array(document.encoded(index))
    }
}

/// The fields of one constructed element, read in order.
struct Fields {
    let reader: LayerReader
    let parent: Int
    let children: [Int]
    var position = 0

    var isAtEnd: Bool { position >= children.count }

    /// The next field, which must have `tag`.
    mutating func next(_ tag: DERTag) throws(PKCS12Error) -> Int {
        guard position < children.count else {
            throw PKCS12Error(.missingElement(expected: tag), at: reader.node(parent).end, in: reader.layer)
        }
        let index = children[position]
        try reader.expect(index, tag)
        position += 1
        return index
    }

    /// The next field, whatever its tag.
    mutating func nextAny() throws(PKCS12Error) -> Int {
        guard position < children.count else {
            throw PKCS12Error(.missingElement(expected: .sequence), at: reader.node(parent).end, in: reader.layer)
        }
        position += 1
        return children[position - 1]
    }

    /// The next field if it has `tag` (an OPTIONAL field).
    mutating func optional(_ tag: DERTag) -> Int? {
        guard position < children.count, LayerReader.matches(reader.node(children[position]).tag, tag) else { return nil }
        position += 1
        return children[position - 1]
    }

    /// Requires that every field was read.
    func end() throws(PKCS12Error) {
        guard position >= children.count else { throw reader.error(.trailingElements, at: children[position]) }
    }
}

extension LayerReader {
    /// An AlgorithmIdentifier: its OID and the parameters' index, if any.
    func algorithm(_ index: Int) throws(PKCS12Error) -> (oid: OID, parameters: Int?) {
        var fields = try fields(of: index, .sequence)
        let oid = try oid(try fields.next(.objectIdentifier))
        let parameters = fields.isAtEnd ? nil : try fields.nextAny()
        try fields.end()
        return (oid, parameters)
    }

    /// An iteration count, checked against the caller's limit before any work.
    func iterations(_ index: Int, limit: Int) throws(PKCS12Error) -> Int {
        let count: Int
        do { count = try integer(index) } catch {
            if case .der(.integerOverflow) = error.reason {
                throw self.error(.iterationsAboveLimit(Int.max, limit: limit), at: index)
            }
            throw error
        }
        guard count >= 1 else { throw self.error(.invalidIterationCount, at: index) }
        guard count <= limit else { throw self.error(.iterationsAboveLimit(count, limit: limit), at: index) }
        return count
    }

    /// A password-based encryption AlgorithmIdentifier (RFC 7292 appendix C,
    /// RFC 8018 §6.2 and appendix A.4).
    func encryptionScheme(_ index: Int, iterationLimit: Int) throws(PKCS12Error) -> PKCS12EncryptionScheme {
        let (oid, parametersIndex) = try algorithm(index)
        guard let parametersIndex else { throw error(.invalidAlgorithmParameters, at: index) }
        if let number = PKCS12OID.pkcs12PBE(oid) {
            // pkcs-12PbeParams ::= SEQUENCE { salt OCTET STRING, iterations INTEGER }
            let cipher: PKCS12Cipher
            switch number {
            case 1, 2: throw error(.unsupportedEncryption(oid), at: index)  // the RC4 PBEs
            case 3: cipher = .desEDE3CBC
            case 4: cipher = .desEDE2CBC
            case 5: cipher = .rc2CBC(bits: 128)
            default: cipher = .rc2CBC(bits: 40)
            }
            var fields = try fields(of: parametersIndex, .sequence)
            let salt = try octets(try fields.next(.octetString))
            let count = try iterations(try fields.next(.integer), limit: iterationLimit)
            try fields.end()
            return PKCS12EncryptionScheme(keyDerivation: .pkcs12KDF, cipher: cipher, iterations: count, salt: salt,
                                          initializationVector: nil)
        }
        guard oid == PKCS12OID.pbes2 else { throw error(.unsupportedEncryption(oid), at: index) }
        // PBES2-params ::= SEQUENCE { keyDerivationFunc AlgorithmIdentifier, encryptionScheme AlgorithmIdentifier }
        var pbes2 = try fields(of: parametersIndex, .sequence)
        let kdfIndex = try pbes2.next(.sequence)
        let encryptionIndex = try pbes2.next(.sequence)
        try pbes2.end()
        let (kdf, kdfParameters) = try algorithm(kdfIndex)
        guard kdf == PKCS12OID.pbkdf2, let kdfParameters else {
            throw error(.unsupportedEncryption(kdf), at: kdfIndex)
        }
        let (salt, count, keyLength, prf) = try pbkdf2Parameters(kdfParameters, iterationLimit: iterationLimit)
        let (cipherOID, cipherParameters) = try algorithm(encryptionIndex)
        let cipher: PKCS12Cipher
        let ivLength: Int
        if cipherOID == PKCS12OID.aes128CBC { (cipher, ivLength) = (.aes128CBC, 16) }
        else if cipherOID == PKCS12OID.aes192CBC { (cipher, ivLength) = (.aes192CBC, 16) }
        else if cipherOID == PKCS12OID.aes256CBC { (cipher, ivLength) = (.aes256CBC, 16) }
        else if cipherOID == PKCS12OID.desEDE3CBC { (cipher, ivLength) = (.desEDE3CBC, 8) }
        else { throw error(.unsupportedEncryption(cipherOID), at: encryptionIndex) }
        guard let cipherParameters else { throw error(.invalidAlgorithmParameters, at: encryptionIndex) }
        let iv = try octets(cipherParameters)
        guard iv.count == ivLength else { throw error(.invalidAlgorithmParameters, at: cipherParameters) }
        // A keyLength, when present, must be the cipher's key size (RFC 8018 §A.2).
        if let keyLength, keyLength != cipher.keyByteCount {
            throw error(.invalidAlgorithmParameters, at: kdfParameters)
        }
        return PKCS12EncryptionScheme(keyDerivation: .pbkdf2(prf: prf, keyLength: keyLength), cipher: cipher,
                                      iterations: count, salt: salt, initializationVector: iv)
    }

    /// PBKDF2-params (RFC 8018 §A.2), the iteration count checked against the
    /// caller's limit before any work:
    /// `SEQUENCE { salt CHOICE { specified OCTET STRING, ... }, iterationCount INTEGER,
    /// keyLength INTEGER OPTIONAL, prf AlgorithmIdentifier DEFAULT algid-hmacWithSHA1 }`.
    func pbkdf2Parameters(
        _ index: Int, iterationLimit: Int
    ) throws(PKCS12Error) -> (salt: [UInt8], iterations: Int, keyLength: Int?, prf: DigestAlgorithm) {
        var pbkdf2 = try fields(of: index, .sequence)
        let salt = try octets(try pbkdf2.next(.octetString))
        let count = try iterations(try pbkdf2.next(.integer), limit: iterationLimit)
        let keyLength = try pbkdf2.optional(.integer).map { (index) throws(PKCS12Error) in try integer(index) }
        var prf = DigestAlgorithm.sha1
        if let prfIndex = pbkdf2.optional(.sequence) {
            prf = try hmacAlgorithm(prfIndex)
        }
        try pbkdf2.end()
        return (salt, count, keyLength, prf)
    }

    /// An HMAC AlgorithmIdentifier (RFC 8018 §B.1.2), parameters absent or NULL.
    func hmacAlgorithm(_ index: Int) throws(PKCS12Error) -> DigestAlgorithm {
        let (oid, parameters) = try algorithm(index)
        guard let hash = DigestAlgorithm(hmacOID: oid) else {
            throw error(.unsupportedEncryption(oid), at: index)
        }
        if let parameters, node(parameters).tag != .null {
            throw error(.invalidAlgorithmParameters, at: parameters)
        }
        return hash
    }
}
