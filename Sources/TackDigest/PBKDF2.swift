// PBKDF2 (RFC 8018 §5.2; PKCS #5 v2.1) over HMAC with any hash of this
// module, chosen by DigestAlgorithm.
//
// The iterations U2...Uc run on a fast path inside the HMAC machinery: each
// is two single-block compressions (the inner hash of the previous U, padded,
// then the outer hash of that digest) from the keyed states HMAC computed
// once, with the padding and length written once. The first U of each block
// takes the general HMAC path. The known answers (RFC 6070, Wycheproof)
// hold the fast path to the definition; tack-bench `pbkdf2-sha256-600000`
// measures it.

/// PBKDF2, the password-based key derivation function 2 of RFC 8018 §5.2,
/// with HMAC over a ``DigestAlgorithm`` as its pseudorandom function (the
/// `PBKDF2-params` `prf` of RFC 8018 appendix A.2, `hmacWithSHA256` and its
/// siblings).
///
/// ```swift
/// let key = try PBKDF2.deriveKey(
///     password: Array(passphrase.utf8), salt: salt, iterationCount: 600_000,
///     keyByteCount: 32, hash: .sha256)
/// ```
public enum PBKDF2 {
    /// The iteration cap ``deriveKey(password:salt:iterationCount:keyByteCount:hash:maximumIterationCount:)``
    /// applies unless told otherwise: ten million, about 16 times OWASP's
    /// 2023 recommendation for PBKDF2-HMAC-SHA-256 (600,000), and a few
    /// seconds of work on one core. A file that asks for more is refused
    /// instead of stalling its reader.
    public static let defaultMaximumIterationCount = 10_000_000

    /// The longest key this function derives: 1,024 bytes. RFC 8018 allows up
    /// to (2³² − 1) blocks, but every use (cipher keys, MAC keys) needs a
    /// few dozen bytes, and the work grows with the block count.
    public static let maximumKeyByteCount = 1024

    /// Derives a key from a password (RFC 8018 §5.2).
    ///
    /// - Parameters:
    ///   - password: The password P, as bytes (PBES2 uses its UTF-8 encoding;
    ///     RFC 8018 §3 leaves the encoding to the application). Read only.
    ///   - salt: The salt S.
    ///   - iterationCount: The iteration count c, at least 1.
    ///   - keyByteCount: The length dkLen of the key to derive, in bytes, in
    ///     `0...maximumKeyByteCount`.
    ///   - hash: The hash under HMAC.
    ///   - maximumIterationCount: The largest `iterationCount` accepted.
    /// - Returns: The derived key DK, `keyByteCount` bytes.
    /// - Throws: ``HashError/unsupportedDigest(_:)`` for MD5,
    ///   ``HashError/iterationCountNotPositive(_:)``,
    ///   ``HashError/iterationCountAboveLimit(count:limit:)`` and
    ///   ``HashError/keyByteCountOutOfRange(count:limit:)``.
    public static func deriveKey(
        password: [UInt8], salt: [UInt8], iterationCount: Int, keyByteCount: Int, hash: DigestAlgorithm,
        maximumIterationCount: Int = defaultMaximumIterationCount
    ) throws(HashError) -> [UInt8] {
        try checkDerivationParameters(
            iterationCount: iterationCount, maximumIterationCount: maximumIterationCount,
            keyByteCount: keyByteCount, maximumKeyByteCount: maximumKeyByteCount)
        return try hash.dispatch(
            PBKDF2Derivation(password: password, salt: salt, iterationCount: iterationCount, keyByteCount: keyByteCount))
    }
}

/// RFC 8018 §5.2 steps 2 to 5 for one hash function.
private struct PBKDF2Derivation: HashFunctionVisitor {
    let password: [UInt8]
    let salt: [UInt8]
    let iterationCount: Int
    let keyByteCount: Int

    func visit<Function: BlockHashFunction>(_: Function.Type) -> [UInt8] {
        let prf = HMAC<Function>(key: password)
        let digestByteCount = Function.digestByteCount
        var key = [UInt8](repeating: 0, count: keyByteCount)
        // keyByteCount ≤ 1024 (checked), so at most 52 blocks: the 32-bit
        // block index of step 3 cannot overflow.
        var blockIndex: UInt32 = 1
        var offset = 0
        while offset < keyByteCount {
            // U1 = PRF(P, S ‖ INT(i)) (step 3).
            var first = prf
            first.update(salt)
            withUnsafeBytes(of: blockIndex.bigEndian) { first.update($0) }
            var block = first.finalize()
            // T_i = U1 ⊕ U2 ⊕ ... ⊕ Uc.
            block.withUnsafeMutableBytes { accumulator in
                BlockHashCore<Function.Compression>.xorChainedHMACs(
                    innerState: prf.inner.core.state, outerState: prf.outer.core.state,
                    implementation: prf.inner.core.implementation, accumulator: accumulator,
                    count: iterationCount - 1)
            }
            // Step 4: DK = T1 ‖ T2 ‖ ... truncated to dkLen.
            let take = min(digestByteCount, keyByteCount - offset)
            block.withUnsafeBytes { bytes in
                for index in 0..<take { key[offset + index] = bytes[index] }
            }
            offset += take
            blockIndex &+= 1
        }
        return key
    }
}

extension BlockHashCore {
    /// The PBKDF2 iterations after the first: with `accumulator` holding U1 on
    /// entry, computes U_{j+1} = HMAC(U_j) for `count` rounds and XORs each
    /// into `accumulator` (RFC 8018 §5.2 step 3).
    ///
    /// `innerState` and `outerState` are HMAC's chaining values after the
    /// key block (K ⊕ ipad, K ⊕ opad: exactly one block, nothing buffered).
    /// Both messages of an iteration, U_j and the inner digest, are a digest
    /// long, so each fits one final block with its padding (FIPS 180-4
    /// §5.1): the digest, the 1 bit, zeros and the bit length of one key
    /// block plus one digest. The padding is written once; the loop only
    /// compresses and moves digests.
    static func xorChainedHMACs(
        innerState: Compression.State, outerState: Compression.State, implementation: SHA2Implementation,
        accumulator: UnsafeMutableRawBufferPointer, count: Int
    ) {
        guard count > 0 else { return }
        let blockSize = Compression.blockByteCount
        let digestSize = accumulator.count
        // Every function here has digestSize + 1 + lengthField ≤ blockSize
        // (SHA-512: 64 + 1 + 16 ≤ 128; SHA-256: 32 + 1 + 8 ≤ 64).
        precondition(digestSize + 1 + Compression.lengthFieldByteCount <= blockSize, "digest does not fit one block")
        var innerBlock = Compression.zeroBlock
        var outerBlock = Compression.zeroBlock
        Swift.withUnsafeMutableBytes(of: &innerBlock) { inner in
            Swift.withUnsafeMutableBytes(of: &outerBlock) { outer in
                guard let innerBase = inner.baseAddress, let outerBase = outer.baseAddress else { return }
                // blockSize + digestSize ≤ 192 bytes: the bit count fits easily.
                let bitLength = UInt64(blockSize + digestSize) * 8
                inner[digestSize] = 0x80
                outer[digestSize] = 0x80
                inner.storeBytes(of: bitLength.bigEndian, toByteOffset: blockSize - 8, as: UInt64.self)
                outer.storeBytes(of: bitLength.bigEndian, toByteOffset: blockSize - 8, as: UInt64.self)
                let innerDigest = UnsafeMutableRawBufferPointer(rebasing: inner[0..<digestSize])
                let outerDigest = UnsafeMutableRawBufferPointer(rebasing: outer[0..<digestSize])
                innerDigest.copyMemory(from: UnsafeRawBufferPointer(accumulator))
                let wordCount = digestSize / 4  // every digest size is a multiple of 4
                for _ in 0..<count {
                    var state = innerState
                    Compression.compress(&state, innerBase, 1, implementation)
                    storeBigEndian(state, into: outerDigest)
                    state = outerState
                    Compression.compress(&state, outerBase, 1, implementation)
                    storeBigEndian(state, into: innerDigest)
                    for word in 0..<wordCount {
                        let u = innerDigest.loadUnaligned(fromByteOffset: word * 4, as: UInt32.self)
                        let t = accumulator.loadUnaligned(fromByteOffset: word * 4, as: UInt32.self)
                        accumulator.storeBytes(of: t ^ u, toByteOffset: word * 4, as: UInt32.self)
                    }
                }
                // Leave no chained values behind in the stack slots.
                inner.initializeMemory(as: UInt8.self, repeating: 0)
                outer.initializeMemory(as: UInt8.self, repeating: 0)
            }
        }
    }
}

/// The checks PBKDF2 and the PKCS #12 derivation make before any work: at least
/// one iteration, no more than the caller's limit, and a key length in range.
///
/// - Throws: ``HashError/iterationCountNotPositive(_:)``,
///   ``HashError/iterationCountAboveLimit(count:limit:)`` or
///   ``HashError/keyByteCountOutOfRange(count:limit:)``.
func checkDerivationParameters(
    iterationCount: Int, maximumIterationCount: Int, keyByteCount: Int, maximumKeyByteCount: Int
) throws(HashError) {
    guard iterationCount >= 1 else { throw .iterationCountNotPositive(iterationCount) }
    guard iterationCount <= maximumIterationCount else {
        throw .iterationCountAboveLimit(count: iterationCount, limit: maximumIterationCount)
    }
    guard keyByteCount >= 0 && keyByteCount <= maximumKeyByteCount else {
        throw .keyByteCountOutOfRange(count: keyByteCount, limit: maximumKeyByteCount)
    }
}
