
/// A Signed Certificate Timestamp, version 1 (RFC 6962 §3.2): a log's promise to
/// publish a certificate, decoded from its TLS serialization.
///
/// ```
/// struct {
///     Version sct_version;                  -- v1(0)
///     LogID id;                             -- opaque key_id[32]: SHA-256 of the log's key
///     uint64 timestamp;                     -- milliseconds since 1970
///     CtExtensions extensions;              -- opaque <0..2^16-1>
///     digitally-signed struct { ... };      -- SignatureAndHashAlgorithm, opaque <0..2^16-1>
/// } SignedCertificateTimestamp;
/// ```
///
/// Every field is a slice of the list it came from (indices are the list's). Decoding
/// checks the structure only; ``signedData(for:)`` gives the bytes the log signed, and
/// TackSignature verifies them with the log's key.
public struct SignedCertificateTimestamp: Sendable, Hashable {
    /// The length of a log ID: the SHA-256 of the log's SubjectPublicKeyInfo (§3.2).
    public static let logIDByteCount = 32

    /// The serialized SCT, without its length prefix.
    public let serialized: ArraySlice<UInt8>
    /// The log's ID: 32 octets, the SHA-256 of its DER SubjectPublicKeyInfo.
    public let logID: ArraySlice<UInt8>
    /// When the log saw the entry, in milliseconds since 1970 (§3.2).
    public let timestamp: UInt64
    /// The CT extensions (empty in practice; none is defined by RFC 6962).
    public let extensions: ArraySlice<UInt8>
    /// How the log signed (TLS 1.2 `SignatureAndHashAlgorithm`, RFC 5246 §7.4.1.4.1).
    public let signatureAlgorithm: SignatureAlgorithm
    /// The signature octets: a DER `ECDSA-Sig-Value` or PKCS #1 v1.5 octets.
    public let signature: ArraySlice<UInt8>

    /// The timestamp in whole seconds since 1970 (rounded down), as Tack's times are.
    public var timestampSeconds: Int64 { Int64(timestamp / 1000) }

    /// The algorithm of a `digitally-signed` struct (RFC 5246 §7.4.1.4.1): a hash
    /// and a signature octet. RFC 6962 §2.1.4 allows ECDSA P-256 or RSA, both over SHA-256.
    public struct SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
        /// The `HashAlgorithm` octet (4 is SHA-256).
        public let hash: UInt8
        /// The `SignatureAlgorithm` octet (1 is RSA, 3 is ECDSA).
        public let signature: UInt8

        /// Creates an algorithm from its two octets.
        ///
        /// - Parameters:
        ///   - hash: The `HashAlgorithm` octet.
        ///   - signature: The `SignatureAlgorithm` octet.
        public init(hash: UInt8, signature: UInt8) {
            self.hash = hash
            self.signature = signature
        }

        /// ECDSA with SHA-256 (4, 3).
        public static let ecdsaSHA256 = SignatureAlgorithm(hash: 4, signature: 3)
        /// RSASSA-PKCS1-v1_5 with SHA-256 (4, 1).
        public static let rsaSHA256 = SignatureAlgorithm(hash: 4, signature: 1)

        /// `ecdsa-sha256`, `rsa-sha256`, or the two octets (`hash-4-signature-2`).
        public var description: String {
            switch self {
            case .ecdsaSHA256: "ecdsa-sha256"
            case .rsaSHA256: "rsa-sha256"
            default: "hash-\(hash)-signature-\(signature)"
            }
        }
    }

    /// Decodes one serialized SCT (the contents of a `SerializedSCT`).
    ///
    /// - Parameter serialized: The SCT's octets, without their length prefix.
    /// - Throws: ``SCTError`` with ``SCTError/Reason/unsupportedVersion(_:)`` for a
    ///   version other than v1, ``SCTError/Reason/unsupportedSignatureAlgorithm(_:)``
    ///   for a signature other than ECDSA or RSA with SHA-256 (§2.1.4),
    ///   ``SCTError/Reason/truncated`` when a field runs past
    ///   the end, ``SCTError/Reason/trailingBytes`` when octets follow the signature.
    public init(serialized: ArraySlice<UInt8>) throws(SCTError) {
        var cursor = SCTCursor(serialized)
        let version = try cursor.read(1)
        guard version[version.startIndex] == 0 else {
            throw SCTError(.unsupportedVersion(version[version.startIndex]), at: version.startIndex)
        }
        logID = try cursor.read(SignedCertificateTimestamp.logIDByteCount)
        var time: UInt64 = 0
        for byte in try cursor.read(8) { time = time << 8 | UInt64(byte) }
        timestamp = time
        extensions = try cursor.readVector()
        let algorithm = try cursor.read(2)
        signatureAlgorithm = SignatureAlgorithm(hash: algorithm[algorithm.startIndex], signature: algorithm[algorithm.startIndex + 1])
        guard signatureAlgorithm == .ecdsaSHA256 || signatureAlgorithm == .rsaSHA256 else {
            throw SCTError(.unsupportedSignatureAlgorithm(signatureAlgorithm), at: algorithm.startIndex)
        }
        signature = try cursor.readVector()
        guard cursor.isAtEnd else { throw SCTError(.trailingBytes, at: cursor.position) }
        self.serialized = serialized
    }

    /// The bytes the log signed for `entry` (RFC 6962 §3.2, the `digitally-signed`
    /// struct): version, `certificate_timestamp`, the timestamp, the entry type and
    /// entry, and the extensions.
    ///
    /// - Parameter entry: What the SCT is about: the precertificate entry for an
    ///   embedded SCT, the X.509 entry for one delivered by TLS or OCSP.
    /// - Returns: The signed octets.
    public func signedData(for entry: CTLogEntry) -> [UInt8] {
        var data: [UInt8] = [0, 0]  // sct_version v1, signature_type certificate_timestamp
        data.reserveCapacity(entry.encodedCount + extensions.count + 16)
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: timestamp >> UInt64(shift))) }
        entry.append(to: &data)
        data.append(UInt8(truncatingIfNeeded: extensions.count >> 8))
        data.append(UInt8(truncatingIfNeeded: extensions.count))
        data.append(contentsOf: extensions)
        return data
    }
}

/// A forward-only reader of TLS-encoded fields (RFC 5246 §4), every read bounded by
/// the octets left.
struct SCTCursor {
    let bytes: ArraySlice<UInt8>
    private(set) var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var isAtEnd: Bool { position >= bytes.endIndex }

    /// The next `count` octets.
    mutating func read(_ count: Int) throws(SCTError) -> ArraySlice<UInt8> {
        guard count <= bytes.endIndex - position else { throw SCTError(.truncated, at: position) }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    /// An `opaque <0..2^16-1>`: a two-octet length and that many octets.
    mutating func readVector() throws(SCTError) -> ArraySlice<UInt8> {
        let length = try read(2)
        return try read(Int(length[length.startIndex]) << 8 | Int(length[length.startIndex + 1]))
    }
}

/// Why an SCT, or the list around it, could not be decoded.
///
/// The offset is an index of the list's bytes (for the certificate extension, the
/// certificate's absolute offset).
public struct SCTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var reason: Reason
    /// Where: the index of the offending octet.
    public var offset: Int

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: What is wrong.
    ///   - offset: The index of the offending octet.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// What made an SCT or its list undecodable.
    public enum Reason: Sendable, Hashable {
        /// The list's framing is wrong (RFC 6962 §3.3); the SCTs after it are lost.
        case malformedList(X509Error.ExtensionFault)
        /// The SCT is not v1 (the only version RFC 6962 defines).
        case unsupportedVersion(UInt8)
        /// The signature is neither ECDSA nor RSA with SHA-256, the two RFC 6962
        /// §2.1.4 allows.
        case unsupportedSignatureAlgorithm(SignedCertificateTimestamp.SignatureAlgorithm)
        /// A field runs past the end of the SCT.
        case truncated
        /// Octets follow the signature.
        case trailingBytes
    }

    /// A stable snake_case identifier: `malformed_sct_list`, `unsupported_sct_version`,
    /// `unsupported_sct_signature_algorithm`, `truncated_sct` or `sct_trailing_bytes`.
    public var code: String {
        switch reason {
        case .malformedList: "malformed_sct_list"
        case .unsupportedVersion: "unsupported_sct_version"
        case .unsupportedSignatureAlgorithm: "unsupported_sct_signature_algorithm"
        case .truncated: "truncated_sct"
        case .trailingBytes: "sct_trailing_bytes"
        }
    }

    /// One line: what is wrong and where.
    public var description: String {
        switch reason {
        case .malformedList(let fault): "malformed SCT list at \(offset): \(fault)"
        case .unsupportedVersion(let version): "SCT version \(version) at \(offset) is not v1"
        case .unsupportedSignatureAlgorithm(let algorithm): "SCT signature algorithm \(algorithm) at \(offset) is not ecdsa-sha256 or rsa-sha256"
        case .truncated: "SCT truncated at \(offset)"
        case .trailingBytes: "bytes after the SCT's signature at \(offset)"
        }
    }
}
