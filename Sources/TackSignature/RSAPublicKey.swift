/// An RSA public key (n, e), validated and prepared for signature verification.
///
/// Create one from the raw modulus and exponent (for example the INTEGER
/// contents of a certificate's key) with ``init(modulus:exponent:)-(_,Collection<UInt8>)``, or from a
/// PKCS #1 `RSAPublicKey` DER structure with ``init(pkcs1DER:)``. Preparing the
/// key costs little (one 64-bit inverse; no R² mod n, see `RSAModulus`; each
/// verification loads the modulus into its limbs), so keeping the value saves only that.
///
/// ## Limits
///
/// Tack accepts what it can verify in bounded time and refuses the rest with
/// a named error instead of computing:
///
/// - The modulus must be odd (an even modulus is not an RSA modulus, and
///   Montgomery multiplication needs an odd one).
/// - Its bit length must lie in 1024...8192
///   (``minimumModulusBitCount``, ``maximumModulusBitCount``). The upper bound
///   keeps the work per signature bounded (an 8192-bit verification costs
///   about 64 times a 1024-bit one) and the stack buffers small (at most
///   about 5 KiB); it is the bound Tack's design sets (issue 5), well above
///   the 4096-bit keys that public CAs issue. The lower
///   bound refuses keys that have been factorable in practice (RSA-768 was
///   factored in 2009, and NIST SP 800-131A disallows RSA below 2048 bits for
///   signing since 2013, keeping 1024 bits only for legacy verification).
///   Policy above this floor, such as requiring 2048 bits for the Web PKI,
///   belongs to the caller.
/// - The public exponent must be odd, at least 3, and at most 33 bits long
///   (``maximumExponentBitCount``). An even exponent cannot be an RSA
///   exponent, and e = 1 makes every "signature" its own message. The 33-bit
///   bound is the one BoringSSL (`kMaxExponentBits`) and ring use: it admits
///   every exponent seen in practice (3, 17, 65537, and the 32-bit exponents
///   some Windows CryptoAPI keys carry) while capping the exponentiation at
///   32 squarings and 32 multiplications.
///
/// All checks run on public values; nothing here needs to be constant time.
public struct RSAPublicKey: Sendable {
    /// The smallest modulus accepted, in bits.
    public static let minimumModulusBitCount = 1024
    /// The largest modulus accepted, in bits.
    public static let maximumModulusBitCount = 8192
    /// The largest public exponent accepted, in bits (e < 2^33).
    public static let maximumExponentBitCount = 33

    /// The modulus n, big-endian, without leading zero bytes (a copy of the octets the key keeps).
    public var modulus: [UInt8] { Array(magnitude) }
    /// n, big-endian, without leading zero bytes: the caller's octets when they came as
    /// a slice (a certificate's key, ``init(magnitude:exponent:)``), shared rather than
    /// copied. Each verification loads them into its limbs, so a key holds no buffer
    /// of its own and preparing one allocates nothing (`e2e-rsa2048`, issue 35).
    let magnitude: ArraySlice<UInt8>
    /// The public exponent e.
    public let exponent: UInt64
    /// n prepared for Montgomery arithmetic.
    let prepared: RSAModulus

    /// The bit length of the modulus.
    public var modulusBitCount: Int { prepared.bitCount }

    /// The length in bytes of every signature under this key: the modulus
    /// length in bytes, k in RFC 8017 §8.2.2 and §8.1.2.
    public var signatureByteCount: Int { magnitude.count }

    /// Creates a key from its modulus and exponent as big-endian unsigned
    /// magnitudes.
    ///
    /// Leading zero bytes are ignored, so the contents octets of a DER
    /// INTEGER (with the 0x00 that keeps a modulus positive) can be passed
    /// directly.
    ///
    /// - Parameters:
    ///   - modulus: n, big-endian.
    ///   - exponent: e, big-endian.
    /// - Throws: ``SignatureError/malformedPublicKey(_:)`` if n is even
    ///   or zero, or e is even or below 3;
    ///   ``SignatureError/unsupported(_:)`` if n is outside
    ///   1024...8192 bits or e is above 33 bits.
    public init(
        modulus: some Collection<UInt8>, exponent: some Collection<UInt8>
    ) throws(SignatureError) {
        let exponentBytes = exponent.drop(while: { $0 == 0 })
        guard exponentBytes.count <= 8 else {
            throw .unsupported(.rsaExponentTooLarge)
        }
        var e: UInt64 = 0
        for byte in exponentBytes {
            e = (e << 8) | UInt64(byte)
        }
        try self.init(modulus: modulus, exponent: e)
    }

    /// Creates a key from its big-endian modulus and an integer exponent.
    ///
    /// - Parameters:
    ///   - modulus: n, big-endian; leading zero bytes are ignored.
    ///   - exponent: e.
    /// - Throws: ``SignatureError/malformedPublicKey(_:)`` if n is even
    ///   or zero, or e is even or below 3;
    ///   ``SignatureError/unsupported(_:)`` if n is outside
    ///   1024...8192 bits or e is above 33 bits.
    public init(modulus: some Collection<UInt8>, exponent: UInt64) throws(SignatureError) {
        try self.init(magnitude: ArraySlice(modulus), exponent: exponent)
    }

    /// ``init(modulus:exponent:)-(_,UInt64)`` on octets the key may keep as they are
    /// (no copy: a certificate's key shares the certificate's buffer).
    ///
    /// - Parameters:
    ///   - modulus: n, big-endian; leading zero bytes are ignored.
    ///   - exponent: e.
    /// - Throws: As ``init(modulus:exponent:)-(_,UInt64)``.
    init(magnitude modulus: ArraySlice<UInt8>, exponent: UInt64) throws(SignatureError) {
        guard exponent & 1 == 1, exponent >= 3 else {
            throw .malformedPublicKey(.invalidExponent)
        }
        guard 64 - exponent.leadingZeroBitCount <= Self.maximumExponentBitCount else {
            throw .unsupported(.rsaExponentTooLarge)
        }
        let magnitude = modulus.drop(while: { $0 == 0 })
        guard let first = magnitude.first, let last = magnitude.last else {
            throw .malformedPublicKey(.zeroModulus)
        }
        guard last & 1 == 1 else {
            throw .malformedPublicKey(.evenModulus)
        }
        // first is non-zero, so the bit length is exact (and cannot overflow: an
        // array's count times 8 fits in Int).
        let bitCount = 8 * magnitude.count - first.leadingZeroBitCount
        guard magnitude.count <= Self.maximumModulusBitCount / 8 else {
            throw .unsupported(.rsaModulusTooLong(bits: bitCount))
        }
        guard bitCount >= Self.minimumModulusBitCount else {
            throw .unsupported(.rsaModulusTooShort(bits: bitCount))
        }
        self.magnitude = magnitude
        self.exponent = exponent
        self.prepared = RSAModulus(bigEndian: magnitude)
    }

    /// Converts big-endian bytes to little-endian 64-bit limbs, exactly
    /// ceil(count / 8) of them.
    static func limbs(fromBigEndian bytes: [UInt8]) -> [UInt64] {
        let limbCount = (bytes.count + 7) / 8
        var limbs = [UInt64](repeating: 0, count: limbCount)
        bytes.withUnsafeBufferPointer { source in
            limbs.withUnsafeMutableBufferPointer { target in
                loadLimbs(target.baseAddress.unsafelyUnwrapped, limbCount, from: source)
            }
        }
        return limbs
    }

    /// Writes the big-endian `source` into `limbCount` little-endian limbs,
    /// zero-extended. `source.count` must not exceed 8·limbCount.
    ///
    /// Eight bytes a load from the end, then the 0 to 7 leading bytes (a byte
    /// at a time this was 1% of a `trust-rsa2048-chain` verdict: the signature
    /// of each RSA check and the modulus of each key prepared).
    static func loadLimbs(
        _ target: UnsafeMutablePointer<UInt64>, _ limbCount: Int, from source: UnsafeBufferPointer<UInt8>
    ) {
        target.update(repeating: 0, count: limbCount)
        guard let base = source.baseAddress else { return }
        let bytes = UnsafeRawPointer(base)
        // Bytes 0 ..< end are still to load; limb `limb` takes the 8 ending at end.
        var end = source.count
        var limb = 0
        while end >= 8 {
            target[limb] = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self))
            end &-= 8
            limb &+= 1
        }
        if end > 0 {
            var top: UInt64 = 0
            var i = 0
            while i < end {
                top = (top << 8) | UInt64(source[i])
                i &+= 1
            }
            target[limb] = top
        }
    }

    /// RSAVP1 (RFC 8017 §5.2.2): recovers the message representative
    /// m = s^e mod n from a signature and passes it, as `signatureByteCount`
    /// big-endian bytes, to `body`, together with a scratch buffer of the
    /// same length for the encoding checks.
    ///
    /// Checks first that the signature is exactly k bytes long (RFC 8017
    /// §8.1.2 and §8.2.2, step 1) and that s < n (§5.2.2 step 1), so that no
    /// other byte string denotes the same signature.
    ///
    /// The working memory of one verification is three blocks (``withWorkspace(k:_:)``):
    /// on the stack for moduli up to 2048 bits, the keys of nearly every chain, so
    /// that a verdict allocates nothing for RSA (`Benchmarks/count-instructions.sh
    /// --allocations e2e-rsa2048`); one heap block above. The arithmetic is the same
    /// code on either and does not allocate.
    ///
    /// - Throws: ``SignatureError/malformedSignature(_:)`` for a wrong
    ///   length or s ≥ n; whatever `body` throws.
    func withMessageRepresentative<Value>(
        signature: UnsafeBufferPointer<UInt8>,
        _ body: (
            _ recovered: UnsafeBufferPointer<UInt8>, _ scratch: UnsafeMutableBufferPointer<UInt8>
        ) throws(SignatureError) -> Value
    ) throws(SignatureError) -> Value {
        let byteCount = magnitude.count
        guard signature.count == byteCount else {
            throw .malformedSignature(.wrongLength(expected: byteCount, found: signature.count))
        }
        // The closures capture plain values and pointers only: capturing the key
        // would copy it (a retain of the modulus octets' buffer) at each level.
        let prepared = self.prepared
        let exponent = self.exponent
        let outcome = magnitude.withUnsafeBufferPointer { modulus in
            Self.withWorkspace(k: prepared.limbCount) { (values, work, scratch) in
                Self.representative(
                    modulus: modulus, prepared: prepared, exponent: exponent, signature: signature,
                    values: values, work: work, scratch: scratch, body)
            }
        }
        return try outcome.get()
    }

    /// The largest modulus, in limbs, whose working memory goes on the stack: 32
    /// (2048 bits). Each block is then at most 1 KiB, which
    /// `withUnsafeTemporaryAllocation` always places on the stack (on Linux, Darwin and
    /// Embedded Swift alike), 2,568 bytes in all where the heap block they replace cost
    /// an allocation per signature checked.
    static let stackLimbBound = 32

    /// Calls `body` with one verification's working memory for a k-limb modulus, any
    /// contents: `values` (3k limbs: n, s, m), `work` (4k: the power's two values,
    /// then 16k bytes for the encoding checks) and `scratch` (3k + 1, the power's).
    ///
    /// Up to ``stackLimbBound`` limbs the three blocks are temporary stack
    /// allocations of at most 1 KiB each, so `withUnsafeTemporaryAllocation` never takes
    /// its heap fallback (after which Swift 6.3.1 release builds on x86_64 mishandle a
    /// typed-throws error register: `body` does not throw, the caller unwraps a
    /// `Result`); above, one heap block.
    static func withWorkspace<Value>(
        k: Int,
        _ body: (
            _ values: UnsafeMutablePointer<UInt64>, _ work: UnsafeMutablePointer<UInt64>, _ scratch: UnsafeMutablePointer<UInt64>
        ) -> Value
    ) -> Value {
        if k <= stackLimbBound {
            return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 3 * k) { values in
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 4 * k) { work in
                    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: RSAModulus.powerScratchLimbCount(k: k)) { scratch in
                        body(values.baseAddress.unsafelyUnwrapped, work.baseAddress.unsafelyUnwrapped, scratch.baseAddress.unsafelyUnwrapped)
                    }
                }
            }
        }
        let heap = UnsafeMutablePointer<UInt64>.allocate(capacity: 7 * k + RSAModulus.powerScratchLimbCount(k: k))
        defer { heap.deallocate() }
        return body(heap, heap + 3 * k, heap + 7 * k)
    }

    /// ``withMessageRepresentative(signature:_:)``'s work in the blocks of
    /// ``withWorkspace(k:_:)``, its error as a value. Called, not inlined: the
    /// workspace's stack and heap branches each call it, and inlined it was copied
    /// into both (968 bytes of a Cortex-M4 image, issue 36).
    @inline(never)
    private static func representative<Value>(
        modulus: UnsafeBufferPointer<UInt8>, prepared: RSAModulus, exponent: UInt64, signature: UnsafeBufferPointer<UInt8>,
        values: UnsafeMutablePointer<UInt64>, work: UnsafeMutablePointer<UInt64>, scratch: UnsafeMutablePointer<UInt64>,
        _ body: (
            _ recovered: UnsafeBufferPointer<UInt8>, _ scratch: UnsafeMutableBufferPointer<UInt8>
        ) throws(SignatureError) -> Value
    ) -> Swift.Result<Value, SignatureError> {
        let byteCount = modulus.count
        let k = prepared.limbCount
        let n = values
        let s = n + k
        let m = s + k
        loadLimbs(n, k, from: modulus)
        loadLimbs(s, k, from: signature)
        guard RSAModulus.isLess(UnsafePointer(s), UnsafePointer(n), k) else {
            return .failure(.malformedSignature(.representativeOutOfRange))
        }
        prepared.power(UnsafePointer(s), exponent: exponent, into: m, workspace: work, scratch: scratch, modulus: UnsafePointer(n))
        // I2OSP(m, k): the k limbs big-endian, most significant first, into the 8k
        // bytes after the power's values; m < n < 2^(8·byteCount), so the first
        // 8k − byteCount of them are zero and the representative is the rest.
        let encoded = work + 2 * k
        let raw = UnsafeMutableRawPointer(encoded)
        var limb = 0
        while limb < k {
            raw.storeBytes(of: m[limb].bigEndian, toByteOffset: 8 &* (k &- 1 &- limb), as: UInt64.self)
            limb &+= 1
        }
        let leading = 8 * k - byteCount
        return encoded.withMemoryRebound(to: UInt8.self, capacity: 16 * k) { bytes in
            Swift.Result { () throws(SignatureError) -> Value in
                try body(
                    UnsafeBufferPointer(start: bytes + leading, count: byteCount),
                    UnsafeMutableBufferPointer(start: bytes + 8 * k, count: byteCount)
                )
            }
        }
    }
}

extension RSAPublicKey: Hashable {
    /// Two keys are equal when their modulus and exponent are.
    ///
    /// - Parameters:
    ///   - lhs: A key.
    ///   - rhs: Another key.
    /// - Returns: Whether n and e agree.
    public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.exponent == rhs.exponent && lhs.magnitude == rhs.magnitude
    }

    /// Hashes the modulus and exponent.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(magnitude)
        hasher.combine(exponent)
    }
}
