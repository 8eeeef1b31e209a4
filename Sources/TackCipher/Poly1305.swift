// The Poly1305 one-time authenticator (RFC 8439 §2.5), the MAC half of
// ChaCha20-Poly1305.
//
// The accumulator h and the key r are held in radix 2⁶⁴: h = h0 + h1·2⁶⁴ +
// h2·2¹²⁸ with h2 a few bits, r = r0 + r1·2⁶⁴. Because the clamp clears the
// low two bits of r1, r1·2¹²⁸ = (r1/4)·2¹³⁰ ≡ 5·r1/4 (mod p = 2¹³⁰ − 5),
// so the product h·r mod p needs four 64×64→128-bit products and one by
// the small h2, plus a partial reduction by 5 (the layout of poly1305-donna's
// 64-bit variant). Every step is a multiplication, an addition with carry, a
// shift or a mask: no branch and no memory index depends on the key, the
// message or the accumulator, and the final reduction modulo p selects with a
// mask.

/// 0 or 1, as a bit cast of the Bool (one byte holding 0 or 1) rather than
/// `flag ? 1 : 0`, which the optimiser may turn into a branch on a carry.
@inline(__always)
private func bit(_ flag: Bool) -> UInt64 {
    UInt64(unsafeBitCast(flag, to: UInt8.self))
}

/// A 128-bit sum of products, as (high, low).
private struct Accumulator128 {
    var low: UInt64
    var high: UInt64

    /// a·b.
    @inline(__always)
    init(_ a: UInt64, _ b: UInt64) {
        (high, low) = a.multipliedFullWidth(by: b)
    }

    /// Adds a·b; the callers' bounds keep the sum below 2¹²⁸ (see `Poly1305.absorb`).
    @inline(__always)
    mutating func add(_ a: UInt64, _ b: UInt64) {
        let (productHigh, productLow) = a.multipliedFullWidth(by: b)
        let (sum, carry) = low.addingReportingOverflow(productLow)
        low = sum
        high = high &+ productHigh &+ bit(carry)
    }
}

/// Poly1305 under one 32-byte one-time key (r ‖ s), absorbing 16-byte blocks.
struct Poly1305 {
    private var h0: UInt64 = 0
    private var h1: UInt64 = 0
    private var h2: UInt64 = 0
    private let r0: UInt64
    private let r1: UInt64
    /// 5·r1/4 (r1 is a multiple of 4 after clamping).
    private let s1: UInt64
    private let pad0: UInt64
    private let pad1: UInt64

    /// The authenticator for a one-time key.
    ///
    /// - Parameter key: 32 bytes: r (clamped here, RFC 8439 §2.5.1) then s.
    init(key: UnsafeRawBufferPointer) {
        func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: key.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        r0 = word(0) & 0x0fff_fffc_0fff_ffff
        r1 = word(8) & 0x0fff_fffc_0fff_fffc
        s1 = r1 &+ (r1 >> 2)  // < 2⁶⁰ + 2⁵⁸: no wrap
        pad0 = word(16)
        pad1 = word(24)
    }

    /// Absorbs whole 16-byte blocks, each with 2¹²⁸ added (RFC 8439 §2.5.1:
    /// the 0x01 byte after a full block).
    ///
    /// - Parameters:
    ///   - blocks: A multiple of 16 bytes.
    ///   - highBit: 1, the 2¹²⁸ of a full block; 0 for a final partial block
    ///     that carries its own 0x01 byte.
    @inline(__always)
    mutating func absorb(_ blocks: UnsafeRawBufferPointer, highBit: UInt64 = 1) {
        var offset = 0
        let count = blocks.count - blocks.count % 16
        var h0 = self.h0, h1 = self.h1, h2 = self.h2
        while offset < count {
            // h += m + 2¹²⁸·highBit. h < 2¹³⁰ + 2⁶⁵ before (see below), so h2 stays below 8.
            let m0 = UInt64(littleEndian: blocks.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let m1 = UInt64(littleEndian: blocks.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            let (sum0, carry0) = h0.addingReportingOverflow(m0)
            let (partial1, carryA) = h1.addingReportingOverflow(m1)
            let (sum1, carryB) = partial1.addingReportingOverflow(bit(carry0))
            h0 = sum0
            h1 = sum1
            h2 = h2 &+ highBit &+ bit(carryA) &+ bit(carryB)
            // h·r mod p, partially: with h2 < 8 and r0, r1, s1 < 2⁶¹, each 128-bit sum is below 2¹²⁷.
            var d0 = Accumulator128(h0, r0)
            d0.add(h1, s1)
            var d1 = Accumulator128(h0, r1)
            d1.add(h1, r0)
            d1.add(h2, s1)
            let d2 = h2 &* r0  // < 2³·2⁶⁰
            // Carry d0's high word into d1, d1's into d2.
            let (middle, carryC) = d1.low.addingReportingOverflow(d0.high)
            let top = d2 &+ d1.high &+ bit(carryC)  // the bits from 2¹²⁸ up, < 2⁶⁴
            // Fold bits 130 and up by 2¹³⁰ ≡ 5: + 5·(top >> 2) = (top & ~3) + (top >> 2).
            let fold = (top & ~3) &+ (top >> 2)  // top < 2⁶³: no wrap
            let (low, carryD) = d0.low.addingReportingOverflow(fold)
            let (high, carryE) = middle.addingReportingOverflow(bit(carryD))
            h0 = low
            h1 = high
            h2 = (top & 3) &+ bit(carryE)  // h < 2¹³⁰ + 2⁶⁵ now
            offset += 16
        }
        self.h0 = h0
        self.h1 = h1
        self.h2 = h2
    }

    /// Absorbs bytes padded with zeros to a multiple of 16 (the AEAD's
    /// `pad16`, RFC 8439 §2.8): whole blocks, then the rest in one zero-padded block.
    ///
    /// - Parameters:
    ///   - bytes: The bytes.
    ///   - wide: Whether whole 128-byte groups may take the AVX-512 path
    ///     (`absorbGroupsWide`, where `chaCha20WideIsAvailable`); the tests turn it
    ///     off to compare the paths.
    mutating func absorbPadded(_ bytes: UnsafeRawBufferPointer, wide: Bool = false) {
        var start = 0
        #if TACK_HARDWARE_AES && arch(x86_64) && canImport(TackCipherAVX512)
        if wide { start = absorbGroupsWide(bytes) }
        #endif
        let whole = bytes.count - bytes.count % 16
        absorb(UnsafeRawBufferPointer(rebasing: bytes[start..<whole]))
        guard whole < bytes.count else { return }
        var block: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &block) { buffer in
            for index in whole..<bytes.count { buffer[index - whole] = bytes[index] }
            absorb(UnsafeRawBufferPointer(buffer))
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
        }
    }

    /// Absorbs a final partial block of 1 to 15 bytes: the bytes, then 0x01,
    /// zeros, and no 2¹²⁸ (RFC 8439 §2.5.1). Used only by the plain MAC of
    /// `authenticationTag(for:key:)`.
    private mutating func absorbFinal(_ bytes: UnsafeRawBufferPointer) {
        var block: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &block) { buffer in
            for index in 0..<bytes.count { buffer[index] = bytes[index] }
            buffer[bytes.count] = 1
            absorb(UnsafeRawBufferPointer(buffer), highBit: 0)
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
        }
    }

    /// The tag: h mod p, plus s, mod 2¹²⁸ (RFC 8439 §2.5.1), as two words
    /// whose memory representation is the 16 tag bytes.
    func finalize() -> (UInt64, UInt64) {
        // h < 2¹³⁰ + 2⁶⁵ < 2p: h − p = h + 5 − 2¹³⁰ is the reduced value when h + 5 reaches 2¹³⁰.
        let (g0, c0) = h0.addingReportingOverflow(5)
        let (g1, c1) = h1.addingReportingOverflow(bit(c0))
        let g2 = h2 &+ bit(c1)
        let mask = 0 &- (g2 >> 2)  // all ones when h ≥ p (g2 is below 8)
        let t0 = (h0 & ~mask) | (g0 & mask)
        let t1 = (h1 & ~mask) | (g1 & mask)
        let (tag0, carry) = t0.addingReportingOverflow(pad0)
        let tag1 = t1 &+ pad1 &+ bit(carry)  // mod 2¹²⁸
        return (tag0.littleEndian, tag1.littleEndian)
    }

    /// Poly1305 of a whole message (RFC 8439 §2.5), for the known answers.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - key: The 32-byte one-time key.
    /// - Returns: The 16-byte tag.
    static func authenticationTag(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        precondition(key.count == 32)  // internal: the known-answer tests pass 32 bytes
        var mac = key.withUnsafeBytes { Poly1305(key: $0) }
        message.withUnsafeBytes { bytes in
            let whole = bytes.count - bytes.count % 16
            mac.absorb(UnsafeRawBufferPointer(rebasing: bytes[0..<whole]))
            if whole < bytes.count { mac.absorbFinal(UnsafeRawBufferPointer(rebasing: bytes[whole...])) }
        }
        let tag = mac.finalize()
        return withUnsafeBytes(of: tag) { Array($0) }
    }
}

#if TACK_HARDWARE_AES && arch(x86_64) && canImport(TackCipherAVX512)
private import TackCipherAVX512

extension Poly1305 {
    /// Absorbs the whole 128-byte groups at the start of `bytes` eight blocks at a
    /// time on AVX-512 (TackCipherAVX512's `poly1305AbsorbGroups`: eight Horner
    /// chains in radix 2²⁶ on vector lanes, combined with r⁸ … r¹) and returns
    /// how many bytes that was. Only where `chaCha20WideIsAvailable`.
    ///
    /// - Parameter bytes: The blocks.
    /// - Returns: 128 × the number of whole groups.
    mutating func absorbGroupsWide(_ bytes: UnsafeRawBufferPointer) -> Int {
        let groups = bytes.count / 128
        guard groups > 0, let base = bytes.baseAddress else { return 0 }
        var h = (h0, h1, h2)
        poly1305AbsorbGroups(&h, r0: r0, r1: r1, base, groups: groups)
        (h0, h1, h2) = h
        return 128 * groups
    }
}
#endif
