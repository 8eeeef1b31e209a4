/// AES in Galois/Counter Mode (NIST SP 800-38D), the AEAD of TLS 1.3's
/// `TLS_AES_128_GCM_SHA256` and `TLS_AES_256_GCM_SHA384` (RFC 8446 §B.4).
///
/// A value holds the expanded key and the hash key H; both are overwritten
/// when the last copy of the value goes away. Sealing encrypts with AES in
/// counter mode and appends a 16-byte tag over the associated data and the
/// ciphertext; opening checks the tag in constant time first and decrypts
/// only when it matches, so no unauthenticated plaintext is ever returned.
///
/// The portable code is constant-time: the bitsliced AES and a GHASH by
/// integer multiplications with no table (see GHASH.swift). Where the CPU has
/// AES instructions, the key stream comes from them (``AESImplementation``),
/// and on x86-64 GHASH from PCLMULQDQ (GHASHHardware.swift).
///
/// ```swift
/// let gcm = try AESGCM(key: key)
/// let sealed = try gcm.seal(record, nonce: nonce, authenticating: header)
/// let opened = try gcm.open(sealed, nonce: nonce, authenticating: header)
/// ```
///
/// A nonce must never repeat under one key: GCM's confidentiality and its
/// authenticity both fail when it does. TLS derives a fresh nonce per record.
public struct AESGCM: Sendable {
    /// The length of the tag `seal` appends: 16 bytes.
    public static let tagByteCount = 16
    /// The nonce length GCM is designed for and TLS uses: 12 bytes. Other
    /// non-zero lengths are accepted and hashed into the initial counter
    /// (SP 800-38D §7.1 step 2).
    public static let standardNonceByteCount = 12
    /// The longest plaintext one nonce may protect: 2³⁶ − 32 bytes
    /// (SP 800-38D §5.2.1.1: 2³⁹ − 256 bits).
    public static let maximumPlaintextByteCount: UInt64 = (1 << 36) - 32

    private let key: AESGCMKey

    /// Expands `key` for sealing and opening.
    ///
    /// - Parameters:
    ///   - key: 16 (AES-128), 24 (AES-192) or 32 (AES-256) bytes.
    ///   - implementation: Which AES and GHASH code runs;
    ///     ``AESImplementation/bestAvailable`` unless a test or benchmark asks
    ///     for one. An implementation this CPU lacks falls back to the
    ///     portable one.
    /// - Throws: ``AEADError/invalidKeyLength(_:)``.
    public init(key: some Collection<UInt8>, implementation: AESImplementation = .bestAvailable) throws(AEADError) {
        do throws(CipherError) {
            self.key = AESGCMKey(try GCMCore(key: key, implementation: implementation))
        } catch {
            throw .invalidKeyLength(key.count)
        }
    }

    /// Encrypts and authenticates.
    ///
    /// - Parameters:
    ///   - plaintext: The bytes to encrypt (any length up to
    ///     ``maximumPlaintextByteCount``, empty included).
    ///   - nonce: 12 bytes for TLS; any non-zero length is accepted.
    ///   - associatedData: Bytes authenticated but not encrypted (a record
    ///     header, say).
    /// - Returns: The ciphertext, as long as the plaintext, followed by the
    ///   16-byte tag.
    /// - Throws: ``AEADError/invalidNonceLength(_:)`` for an empty nonce,
    ///   ``AEADError/inputTooLong`` past the limits of SP 800-38D §5.2.1.1.
    public func seal(
        _ plaintext: some Collection<UInt8>, nonce: some Collection<UInt8>,
        authenticating associatedData: some Collection<UInt8> = [UInt8]()
    ) throws(AEADError) -> [UInt8] {
        try Self.checkLengths(textCount: plaintext.count, associatedCount: associatedData.count)
        let nonceBytes = try Self.checkedNonce(nonce)
        let aad = contiguousBytes(associatedData)
        // The plaintext is read in place when its storage is contiguous (an
        // array, a slice); otherwise it is copied once and the copy wiped.
        if let sealed = plaintext.withContiguousStorageIfAvailable({ seal($0, nonce: nonceBytes, aad: aad) }) {
            return sealed
        }
        var message = [UInt8](plaintext)
        defer { zeroize(&message) }
        return message.withUnsafeBufferPointer { seal($0, nonce: nonceBytes, aad: aad) }
    }

    /// Seals contiguous plaintext: counter mode into the output, then the tag after it.
    private func seal(_ input: UnsafeBufferPointer<UInt8>, nonce: [UInt8], aad: [UInt8]) -> [UInt8] {
        let count = input.count
        return [UInt8](unsafeUninitializedCapacity: count + Self.tagByteCount) { out, initialized in
            guard let outBase = out.baseAddress else { return }
            key.withCore { core in
                let j0 = core.initialCounter(nonce)
                core.counterMode(input, into: outBase, startingAfter: j0)
                let tag = core.tag(
                    j0: j0, associatedData: aad, ciphertext: UnsafeBufferPointer(start: outBase, count: count))
                tag.store(outBase + count)
            }
            initialized = count + Self.tagByteCount
        }
    }

    /// Checks the tag and decrypts.
    ///
    /// - Parameters:
    ///   - sealed: The ciphertext followed by its 16-byte tag, as `seal`
    ///     returns it.
    ///   - nonce: The nonce it was sealed with.
    ///   - associatedData: The associated data it was sealed with.
    /// - Returns: The plaintext, only when the tag matches.
    /// - Throws: ``AEADError/authenticationFailed`` when the tag does not
    ///   match (nothing is decrypted then),
    ///   ``AEADError/ciphertextTooShort(_:)`` for fewer bytes than a tag,
    ///   ``AEADError/invalidNonceLength(_:)`` for an empty nonce,
    ///   ``AEADError/inputTooLong`` past the limits of SP 800-38D §5.2.1.1.
    public func open(
        _ sealed: some Collection<UInt8>, nonce: some Collection<UInt8>,
        authenticating associatedData: some Collection<UInt8> = [UInt8]()
    ) throws(AEADError) -> [UInt8] {
        guard sealed.count >= Self.tagByteCount else { throw .ciphertextTooShort(sealed.count) }
        let count = sealed.count - Self.tagByteCount
        try Self.checkLengths(textCount: count, associatedCount: associatedData.count)
        let nonceBytes = try Self.checkedNonce(nonce)
        let input = contiguousBytes(sealed)
        let aad = contiguousBytes(associatedData)
        var plaintext = [UInt8](repeating: 0, count: count)
        let authentic = key.withCore { core in
            input.withUnsafeBufferPointer { input in
                guard let inBase = input.baseAddress else { return false }
                let j0 = core.initialCounter(nonceBytes)
                let ciphertext = UnsafeBufferPointer(start: inBase, count: count)
                let expected = core.tag(j0: j0, associatedData: aad, ciphertext: ciphertext)
                let received = GHASHBlock(inBase + count)
                // One verdict from all 128 bits, without an early exit.
                let difference = (expected.high ^ received.high) | (expected.low ^ received.low)
                guard difference == 0 else { return false }
                plaintext.withUnsafeMutableBufferPointer { out in
                    guard let outBase = out.baseAddress else { return }
                    core.counterMode(ciphertext, into: outBase, startingAfter: j0)
                }
                return true
            }
        }
        guard authentic else { throw .authenticationFailed }
        return plaintext
    }

    private static func checkedNonce(_ nonce: some Collection<UInt8>) throws(AEADError) -> [UInt8] {
        // SP 800-38D §5.2.1.1: 1 ≤ len(IV) ≤ 2⁶⁴ − 1 bits; an Int byte count is below that.
        guard !nonce.isEmpty, UInt64(nonce.count) < (1 << 61) else { throw .invalidNonceLength(nonce.count) }
        return contiguousBytes(nonce)
    }

    private static func checkLengths(textCount: Int, associatedCount: Int) throws(AEADError) {
        guard UInt64(textCount) <= maximumPlaintextByteCount, UInt64(associatedCount) < (1 << 61) else {
            throw .inputTooLong
        }
    }
}

/// The expanded key of an ``AESGCM`` value, shared by its copies and wiped
/// when the last goes away.
///
/// `@unchecked Sendable`: the keys are written once, in `init`, and
/// overwritten only in `deinit`, when no other reference exists.
private final class AESGCMKey: @unchecked Sendable {
    private var core: GCMCore

    /// Not generic: Embedded Swift allows no generic initialiser on a class.
    init(_ core: GCMCore) {
        self.core = core
    }

    func withCore<Result>(_ body: (GCMCore) -> Result) -> Result {
        body(core)
    }

    deinit {
        core.wipe()
    }
}

/// The GCM computation on an expanded key: the initial counter, the counter
/// mode and the tag (SP 800-38D §7.1).
struct GCMCore {
    var schedule: AESKeySchedule
    var hashKey: GHASHKey

    /// The AES key schedule and H = E_K(0¹²⁸).
    init(key: some Collection<UInt8>, implementation: AESImplementation) throws(CipherError) {
        let schedule = try AESKeySchedule(key: key, implementation: implementation)
        self.schedule = schedule
        var zero = [UInt8](repeating: 0, count: 16)
        let h = zero.withUnsafeMutableBufferPointer { block -> GHASHBlock in
            guard let base = block.baseAddress else { return .zero }
            schedule.encryptBlock(base)
            return GHASHBlock(base)
        }
        zeroize(&zero)
        hashKey = GHASHKey(h, hardware: schedule.usesHardware)
    }

    mutating func wipe() {
        schedule.wipe()
        hashKey.wipe()
    }

    /// J₀ (SP 800-38D §7.1 step 2): nonce ‖ 0³¹ ‖ 1 for a 12-byte nonce,
    /// otherwise GHASH(nonce ‖ 0ˢ⁺⁶⁴ ‖ [len(nonce)]₆₄).
    func initialCounter(_ nonce: [UInt8]) -> GHASHBlock {
        if nonce.count == AESGCM.standardNonceByteCount {
            return nonce.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return .zero }
                var block = GHASHBlock.zero
                block.high = UInt64(bigEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
                block.low = UInt64(UInt32(bigEndian: UnsafeRawPointer(base + 8).loadUnaligned(as: UInt32.self))) << 32 | 1
                return block
            }
        }
        var state = GHASHBlock.zero
        nonce.withUnsafeBufferPointer { hashKey.absorbPadded(&state, $0) }
        absorbLengths(&state, UInt64(0), UInt64(nonce.count) &* 8)
        return state
    }

    /// state ← (state ⊕ [a]₆₄ ‖ [b]₆₄)·H.
    private func absorbLengths(_ state: inout GHASHBlock, _ a: UInt64, _ b: UInt64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { scratch in
            guard let block = scratch.baseAddress else { return }
            GHASHBlock(high: a, low: b).store(block)
            hashKey.absorb(&state, block, count: 1)
        }
    }

    /// The tag: E_K(J₀) ⊕ GHASH(A ‖ 0ᵛ ‖ C ‖ 0ᵘ ‖ [len(A)]₆₄ ‖ [len(C)]₆₄)
    /// (SP 800-38D §7.1 steps 5 and 6), all 16 bytes.
    func tag(j0: GHASHBlock, associatedData: [UInt8], ciphertext: UnsafeBufferPointer<UInt8>) -> GHASHBlock {
        var state = GHASHBlock.zero
        associatedData.withUnsafeBufferPointer { hashKey.absorbPadded(&state, $0) }
        hashKey.absorbPadded(&state, ciphertext)
        // The lengths fit: checkLengths bounds both below 2⁶¹ bytes.
        absorbLengths(&state, UInt64(associatedData.count) &* 8, UInt64(ciphertext.count) &* 8)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { scratch in
            guard let block = scratch.baseAddress else { return .zero }
            j0.store(block)
            schedule.encryptBlock(block)
            let mask = GHASHBlock(block)
            block.update(repeating: 0, count: 16)
            return state ^ mask
        }
    }

    /// The counter blocks encrypted per call of the block function: enough
    /// for the hardware path's eight-block interleave (twice) and the
    /// bitsliced path's four blocks at a time (four times).
    private static var chunkBlockCount: Int { 16 }

    /// GCTR (SP 800-38D §6.5) from inc₃₂(J₀): `input` XOR the encrypted
    /// counter blocks, written to `output` (which may be the same memory).
    /// The counter is the block's last 32 bits, incremented modulo 2³².
    func counterMode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, startingAfter j0: GHASHBlock) {
        guard let inBase = input.baseAddress, !input.isEmpty else { return }
        let chunkBytes = 16 * Self.chunkBlockCount
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunkBytes) { scratch in
            guard let stream = scratch.baseAddress else { return }
            stream.initialize(repeating: 0, count: chunkBytes)
            let prefix = j0.low & 0xffff_ffff_0000_0000
            var counter = UInt32(truncatingIfNeeded: j0.low)
            var offset = 0
            while offset < input.count {
                let length = min(chunkBytes, input.count - offset)
                let blocks = (length + 15) / 16
                for index in 0..<blocks {
                    counter &+= 1
                    GHASHBlock(high: j0.high, low: prefix | UInt64(counter)).store(stream + 16 * index)
                }
                schedule.encryptBlocks(stream, count: blocks)
                // Whole blocks 16 bytes at a time (one vector XOR each), then the tail.
                let whole = length & ~15
                var index = 0
                while index < whole {
                    let data = UnsafeRawPointer(inBase + offset + index).loadUnaligned(as: SIMD2<UInt64>.self)
                    let key = UnsafeRawPointer(stream + index).loadUnaligned(as: SIMD2<UInt64>.self)
                    UnsafeMutableRawPointer(output + offset + index).storeBytes(of: data ^ key, as: SIMD2<UInt64>.self)
                    index += 16
                }
                while index < length {
                    output[offset + index] = inBase[offset + index] ^ stream[index]
                    index += 1
                }
                offset += length
            }
            stream.update(repeating: 0, count: chunkBytes)
        }
    }
}
