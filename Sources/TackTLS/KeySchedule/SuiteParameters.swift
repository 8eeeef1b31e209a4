import TackDigest

/// What a cipher suite fixes: the hash, the AEAD and its key length.
struct SuiteParameters: Sendable {
    let suite: TLSCipherSuite
    let hash: DigestAlgorithm
    let keyLength: Int
    let isChaCha: Bool
    let version: TLSProtocolVersion
    /// TLS 1.2: whether the suite's signature is ECDSA/EdDSA (else RSA).
    let isECDSA: Bool

    init?(_ suite: TLSCipherSuite) {
        self.suite = suite
        switch suite.rawValue {
        case 0x1301: (hash, keyLength, isChaCha, version, isECDSA) = (.sha256, 16, false, .tls13, false)
        case 0x1302: (hash, keyLength, isChaCha, version, isECDSA) = (.sha384, 32, false, .tls13, false)
        case 0x1303: (hash, keyLength, isChaCha, version, isECDSA) = (.sha256, 32, true, .tls13, false)
        case 0xC02B: (hash, keyLength, isChaCha, version, isECDSA) = (.sha256, 16, false, .tls12, true)
        case 0xC02C: (hash, keyLength, isChaCha, version, isECDSA) = (.sha384, 32, false, .tls12, true)
        case 0xC02F: (hash, keyLength, isChaCha, version, isECDSA) = (.sha256, 16, false, .tls12, false)
        case 0xC030: (hash, keyLength, isChaCha, version, isECDSA) = (.sha384, 32, false, .tls12, false)
        case 0xCCA8: (hash, keyLength, isChaCha, version, isECDSA) = (.sha256, 32, true, .tls12, false)
        case 0xCCA9: (hash, keyLength, isChaCha, version, isECDSA) = (.sha256, 32, true, .tls12, true)
        default: return nil
        }
    }

    /// TLS 1.2's fixed IV length: 4 for GCM (the salt), 12 for ChaCha20-Poly1305.
    var tls12IVLength: Int { isChaCha ? 12 : 4 }
}

/// Runs a hash or HMAC, mapping the (unreachable for SHA-2) error to an internal one.
func digest(_ hash: DigestAlgorithm, _ bytes: [UInt8]) throws(TLSError) -> [UInt8] {
    do throws(HashError) { return try hash.hash(bytes) } catch { throw TLSError(.internalError(error.description)) }
}

func hmac(_ hash: DigestAlgorithm, key: [UInt8], _ message: [UInt8]) throws(TLSError) -> [UInt8] {
    do throws(HashError) { return try hash.authenticationCode(for: message, key: key) } catch {
        throw TLSError(.internalError(error.description))
    }
}
