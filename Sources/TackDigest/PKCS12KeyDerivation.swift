// The PKCS #12 key derivation (RFC 7292 appendix B.2): the keys, IVs and MAC
// keys of PKCS #12 PBES1 ciphers and of the PFX MAC, from a BMPString password.

/// The key derivation of RFC 7292 appendix B ("Deriving Keys and IVs from
/// Passwords and Salt"), over SHA-1 or a SHA-2 function.
///
/// The password is a BMPString (appendix B.1): UTF-16 big-endian code units
/// followed by two zero bytes, which ``passwordBytes(_:)`` produces. Its
/// derivation hashes the diversifier, salt and password ``DigestAlgorithm/blockByteCount``
/// bytes at a time, `iterationCount` times per output block.
///
/// ```swift
/// let password = PKCS12KeyDerivation.passwordBytes(passphrase)
/// let macKey = try PKCS12KeyDerivation.deriveKey(
///     password: password, salt: macSalt, purpose: .mac, iterationCount: 2048,
///     keyByteCount: 20, hash: .sha1)
/// ```
///
/// Legacy by design: the derivation exists to read PKCS #12 files; use PBKDF2
/// for anything new.
public enum PKCS12KeyDerivation {
    /// The diversifier ID of RFC 7292 appendix B.3: which value a derivation
    /// produces.
    public enum Purpose: UInt8, Sendable, Hashable, CaseIterable {
        /// ID 1: key material for a cipher.
        case key = 1
        /// ID 2: a cipher's initialization vector.
        case initializationVector = 2
        /// ID 3: the key of the PFX MAC (RFC 7292 §5).
        case mac = 3
    }

    /// The iteration cap ``deriveKey(password:salt:purpose:iterationCount:keyByteCount:hash:maximumIterationCount:)``
    /// applies unless told otherwise: ten million, as for ``PBKDF2``. Tools
    /// write 2,048 (OpenSSL) to a few hundred thousand.
    public static let defaultMaximumIterationCount = 10_000_000

    /// The longest output this derivation produces: 1,024 bytes (keys, IVs
    /// and MAC keys need at most 64).
    public static let maximumKeyByteCount = 1024

    /// The BMPString form of a password (RFC 7292 appendix B.1): UTF-16
    /// big-endian with two trailing zero bytes; characters outside the Basic
    /// Multilingual Plane as surrogate pairs, as OpenSSL encodes them. An
    /// absent password (`nil`) is the empty byte string, the empty password
    /// `""` is the two zero bytes alone: tools write both, and a reader tries
    /// both when a file has no password.
    ///
    /// - Parameter password: The password, or `nil` for none.
    /// - Returns: The bytes to pass as `password`.
    public static func passwordBytes(_ password: String?) -> [UInt8] {
        guard let password else { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2 * password.utf16.count + 2)
        for unit in password.utf16 {
            bytes.append(UInt8(truncatingIfNeeded: unit >> 8))
            bytes.append(UInt8(truncatingIfNeeded: unit))
        }
        bytes.append(0)
        bytes.append(0)
        return bytes
    }

    /// Derives `keyByteCount` bytes for `purpose` (RFC 7292 appendix B.2).
    ///
    /// - Parameters:
    ///   - password: The password as ``passwordBytes(_:)`` encodes it. Read only.
    ///   - salt: The salt.
    ///   - purpose: The diversifier: key, IV or MAC key.
    ///   - iterationCount: The iteration count r, at least 1.
    ///   - keyByteCount: The number n of bytes to derive, in `0...maximumKeyByteCount`.
    ///   - hash: The hash H (SHA-1 or SHA-2).
    ///   - maximumIterationCount: The largest `iterationCount` accepted.
    /// - Returns: `keyByteCount` bytes.
    /// - Throws: ``HashError/unsupportedDigest(_:)`` for MD5 (RFC 7292 allows
    ///   MD2 and MD5, which this module does not compute),
    ///   ``HashError/iterationCountNotPositive(_:)``,
    ///   ``HashError/iterationCountAboveLimit(count:limit:)`` and
    ///   ``HashError/keyByteCountOutOfRange(count:limit:)``.
    public static func deriveKey(
        password: [UInt8], salt: [UInt8], purpose: Purpose, iterationCount: Int, keyByteCount: Int,
        hash: DigestAlgorithm, maximumIterationCount: Int = defaultMaximumIterationCount
    ) throws(HashError) -> [UInt8] {
        try checkDerivationParameters(
            iterationCount: iterationCount, maximumIterationCount: maximumIterationCount,
            keyByteCount: keyByteCount, maximumKeyByteCount: maximumKeyByteCount)
        return try hash.dispatch(
            PKCS12Derivation(
                password: password, salt: salt, id: purpose.rawValue, iterationCount: iterationCount,
                keyByteCount: keyByteCount))
    }
}

/// RFC 7292 appendix B.2 steps 1 to 7 for one hash function.
private struct PKCS12Derivation: HashFunctionVisitor {
    let password: [UInt8]
    let salt: [UInt8]
    let id: UInt8
    let iterationCount: Int
    let keyByteCount: Int

    /// `source` repeated to fill v·⌈count/v⌉ bytes (steps 2 and 3; empty for
    /// an empty source).
    private static func stretched(_ source: [UInt8], blockSize v: Int) -> [UInt8] {
        guard !source.isEmpty else { return [] }
        let length = v * ((source.count + v - 1) / v)
        return (0..<length).map { source[$0 % source.count] }
    }

    func visit<Function: BlockHashFunction>(_: Function.Type) -> [UInt8] {
        let v = Function.blockByteCount
        let u = Function.digestByteCount
        // Step 1: D, v copies of the ID. Steps 2 to 4: I = S ‖ P.
        let diversifier = [UInt8](repeating: id, count: v)
        var input = Self.stretched(salt, blockSize: v) + Self.stretched(password, blockSize: v)
        var output: [UInt8] = []
        output.reserveCapacity(keyByteCount + u)
        // Step 5: c = ⌈n/u⌉ blocks; step 6 for each.
        while output.count < keyByteCount {
            // 6a: A = H^r(D ‖ I).
            var hasher = Function()
            hasher.update(diversifier)
            hasher.update(input)
            var block = hasher.finalize()
            for _ in 1..<iterationCount {
                block = block.withUnsafeBytes { Function.hash($0) }
            }
            output += block
            guard output.count < keyByteCount else { break }
            // 6b: B = A repeated to v bytes. 6c: each v-byte block I_j of I
            // becomes (I_j + B + 1) mod 2^(8v), big-endian, without a branch
            // on the (secret) bytes.
            block.withUnsafeBytes { a in
                var start = 0
                while start < input.count {
                    var carry: UInt16 = 1
                    for offset in stride(from: v - 1, through: 0, by: -1) {
                        let sum = UInt16(input[start + offset]) + UInt16(a[offset % u]) + carry
                        input[start + offset] = UInt8(truncatingIfNeeded: sum)
                        carry = sum >> 8
                    }
                    start += v
                }
            }
        }
        // Step 7: the first n bytes of A1 ‖ A2 ‖ ...
        let key = Array(output[0..<keyByteCount])
        // Do not leave the password-derived state in the working buffers.
        for index in input.indices { input[index] = 0 }
        for index in output.indices { output[index] = 0 }
        return key
    }
}
