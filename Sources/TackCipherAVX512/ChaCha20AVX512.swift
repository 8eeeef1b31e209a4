// ChaCha20 (RFC 8439 §2.3, §2.4) sixteen blocks at a time on AVX-512: the wide
// path of TackCipher's ChaCha20, in a module of its own because it is the only
// code compiled with the `avx512f` target feature (Swift has no per-function
// target attribute, and with the feature on for TackCipher the optimiser could
// put AVX-512 instructions anywhere in it). TackCipher calls it only after its
// run-time check (`chaCha20WideIsAvailable` in ChaCha20.swift: CPUID leaf 7
// AVX512F, and XCR0 showing that the OS saves the ZMM state).
//
// The layout is TackCipher's four-block path widened: one SIMD16<UInt32> per
// state word, lane j holding that word of block counter + j, so each quarter
// round is the same 12 instructions on sixteen blocks (the rotations are single
// `vprold`s). The sixteen blocks are transposed back with interleaves (32-bit,
// 64-bit, then 128-bit lanes; written as lane-by-lane initialisers from two
// vectors, which LLVM folds into vpermt2d/vpermt2q/vshufi32x4) and XORed into
// the data 64 bytes at a time. No branch and no memory index depends on the key
// or the data.
//
// Poly1305 runs here too (`poly1305AbsorbGroups`), eight blocks at a time: eight
// interleaved Horner chains, lane j taking blocks j, j + 8, j + 16, …, each
// multiplied by r⁸ per step, in radix 2²⁶ so that every limb product is one
// `vpmuludq` (32 × 32 → 64 bits) on eight lanes; at the end lane j is multiplied
// by r^(8 − j) and the lanes are summed (Goll and Gueron, "Vectorization of
// Poly1305 message authentication code", ITNG 2015). The scalar code's chain of
// dependent multiplications (about 18 cycles a block) becomes one chain per
// eight blocks. The multiplications take constant time, the reductions are
// shifts and masks, and the final selection below p is a mask: no branch and no
// index depends on the key or the data.
//
// Held to TackCipher's general paths by the seeded differential tests
// `fourBlocksMatchOneBlock` (the keystream against one block at a time) and
// `wideSealMatchesPortable` (whole records against the scalar Poly1305), in
// Tests/TackCipherTests/ChaCha20Poly1305Tests.swift, which cover this path
// wherever the CPU has AVX-512; measured by tack-bench's `chacha20poly1305-16k`.

#if TACK_CHACHA_AVX512 && arch(x86_64) && _endian(little)

/// One state word of sixteen blocks.
private typealias Lanes = SIMD16<UInt32>

/// Each lane rotated left by `count` bits, 0 < count < 32 (one `vprold`).
@inline(__always)
private func rotatedLeft(_ x: Lanes, by count: UInt32) -> Lanes {
    (x &<< count) | (x &>> (32 - count))
}

/// The quarter round (RFC 8439 §2.1) on sixteen blocks' words at once.
@inline(__always)
private func quarterRound(_ a: inout Lanes, _ b: inout Lanes, _ c: inout Lanes, _ d: inout Lanes) {
    a &+= b; d ^= a; d = rotatedLeft(d, by: 16)
    c &+= d; b ^= c; b = rotatedLeft(b, by: 12)
    a &+= b; d ^= a; d = rotatedLeft(d, by: 8)
    c &+= d; b ^= c; b = rotatedLeft(b, by: 7)
}

/// Words 0 and 1 of each 128-bit lane of `a` and `b`, interleaved (vpunpckldq).
@inline(__always)
private func interleaveLow32(_ a: Lanes, _ b: Lanes) -> Lanes {
    Lanes(a[0], b[0], a[1], b[1], a[4], b[4], a[5], b[5],
          a[8], b[8], a[9], b[9], a[12], b[12], a[13], b[13])
}

/// Words 2 and 3 of each 128-bit lane of `a` and `b`, interleaved (vpunpckhdq).
@inline(__always)
private func interleaveHigh32(_ a: Lanes, _ b: Lanes) -> Lanes {
    Lanes(a[2], b[2], a[3], b[3], a[6], b[6], a[7], b[7],
          a[10], b[10], a[11], b[11], a[14], b[14], a[15], b[15])
}

/// The low 64 bits of each 128-bit lane of `a`, then of `b` (vpunpcklqdq).
@inline(__always)
private func interleaveLow64(_ a: Lanes, _ b: Lanes) -> Lanes {
    Lanes(a[0], a[1], b[0], b[1], a[4], a[5], b[4], b[5],
          a[8], a[9], b[8], b[9], a[12], a[13], b[12], b[13])
}

/// The high 64 bits of each 128-bit lane of `a`, then of `b` (vpunpckhqdq).
@inline(__always)
private func interleaveHigh64(_ a: Lanes, _ b: Lanes) -> Lanes {
    Lanes(a[2], a[3], b[2], b[3], a[6], a[7], b[6], b[7],
          a[10], a[11], b[10], b[11], a[14], a[15], b[14], b[15])
}

/// 128-bit lanes 0 and 2 of `a`, then 0 and 2 of `b` (vshufi32x4).
@inline(__always)
private func evenLanes128(_ a: Lanes, _ b: Lanes) -> Lanes {
    Lanes(a[0], a[1], a[2], a[3], a[8], a[9], a[10], a[11],
          b[0], b[1], b[2], b[3], b[8], b[9], b[10], b[11])
}

/// 128-bit lanes 1 and 3 of `a`, then 1 and 3 of `b` (vshufi32x4).
@inline(__always)
private func oddLanes128(_ a: Lanes, _ b: Lanes) -> Lanes {
    Lanes(a[4], a[5], a[6], a[7], a[12], a[13], a[14], a[15],
          b[4], b[5], b[6], b[7], b[12], b[13], b[14], b[15])
}

/// Four state words (4g … 4g + 3) of sixteen blocks regrouped: result k holds, in
/// its 128-bit lane L, the four words of block 4L + k.
@inline(__always)
private func regroup(_ a: Lanes, _ b: Lanes, _ c: Lanes, _ d: Lanes) -> (Lanes, Lanes, Lanes, Lanes) {
    let t0 = interleaveLow32(a, b), t1 = interleaveHigh32(a, b)
    let t2 = interleaveLow32(c, d), t3 = interleaveHigh32(c, d)
    return (interleaveLow64(t0, t2), interleaveHigh64(t0, t2), interleaveLow64(t1, t3), interleaveHigh64(t1, t3))
}

/// XORs sixteen ChaCha20 keystream blocks (counters `counter` … `counter + 15`)
/// into 1,024 bytes at `input`, written at `output` (which may be `input`).
///
/// Call only where the CPU has AVX512F and the OS saves the ZMM state
/// (TackCipher's `chaCha20WideIsAvailable`).
///
/// - Parameters:
///   - key: The key as eight little-endian words (state words 4–11).
///   - counter: The first block counter; the caller keeps `counter + 15` from passing 2³² − 1.
///   - nonce: The three nonce words (state words 13–15).
///   - input: 1,024 readable bytes.
///   - output: 1,024 writable bytes.
public func chaCha20XorSixteenBlocks(
    key: SIMD8<UInt32>, counter: UInt32, nonce: SIMD3<UInt32>, input: UnsafeRawPointer, output: UnsafeMutableRawPointer
) {
    // "expand 32-byte k" (RFC 8439 §2.3).
    let c0 = Lanes(repeating: 0x6170_7865), c1 = Lanes(repeating: 0x3320_646e)
    let c2 = Lanes(repeating: 0x7962_2d32), c3 = Lanes(repeating: 0x6b20_6574)
    let k0 = Lanes(repeating: key[0]), k1 = Lanes(repeating: key[1]), k2 = Lanes(repeating: key[2]), k3 = Lanes(repeating: key[3])
    let k4 = Lanes(repeating: key[4]), k5 = Lanes(repeating: key[5]), k6 = Lanes(repeating: key[6]), k7 = Lanes(repeating: key[7])
    let n0 = Lanes(repeating: nonce[0]), n1 = Lanes(repeating: nonce[1]), n2 = Lanes(repeating: nonce[2])
    let counters = Lanes(repeating: counter) &+ Lanes(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    var (x0, x1, x2, x3) = (c0, c1, c2, c3)
    var (x4, x5, x6, x7) = (k0, k1, k2, k3)
    var (x8, x9, x10, x11) = (k4, k5, k6, k7)
    var (x12, x13, x14, x15) = (counters, n0, n1, n2)
    // The rounds are written again here rather than called from TackCipher's
    // twentyRounds: this module sits below TackCipher (it is compiled alone with
    // avx512f) and is absent from Embedded builds, so it cannot share that code;
    // the seeded differential test against the portable path holds the two together.
    for _ in 0..<10 {
        quarterRound(&x0, &x4, &x8, &x12)  // columns
        quarterRound(&x1, &x5, &x9, &x13)
        quarterRound(&x2, &x6, &x10, &x14)
        quarterRound(&x3, &x7, &x11, &x15)
        quarterRound(&x0, &x5, &x10, &x15)  // diagonals
        quarterRound(&x1, &x6, &x11, &x12)
        quarterRound(&x2, &x7, &x8, &x13)
        quarterRound(&x3, &x4, &x9, &x14)
    }
    // g(n).k: words 4n … 4n + 3 of block 4L + k in 128-bit lane L.
    let g0 = regroup(x0 &+ c0, x1 &+ c1, x2 &+ c2, x3 &+ c3)
    let g1 = regroup(x4 &+ k0, x5 &+ k1, x6 &+ k2, x7 &+ k3)
    let g2 = regroup(x8 &+ k4, x9 &+ k5, x10 &+ k6, x11 &+ k7)
    let g3 = regroup(x12 &+ counters, x13 &+ n0, x14 &+ n1, x15 &+ n2)
    /// Blocks k, 4 + k, 8 + k and 12 + k from their four word groups (a 4 × 4
    /// transpose of 128-bit lanes), each XORed into its 64 bytes.
    @inline(__always)
    func emit(_ p: Lanes, _ q: Lanes, _ r: Lanes, _ s: Lanes, _ k: Int) {
        let pq0 = evenLanes128(p, q), pq1 = oddLanes128(p, q)
        let rs0 = evenLanes128(r, s), rs1 = oddLanes128(r, s)
        @inline(__always)
        func xor(_ stream: Lanes, _ block: Int) {
            let data = input.loadUnaligned(fromByteOffset: 64 * block, as: Lanes.self)
            output.storeBytes(of: data ^ stream, toByteOffset: 64 * block, as: Lanes.self)
        }
        xor(evenLanes128(pq0, rs0), k)
        xor(evenLanes128(pq1, rs1), 4 + k)
        xor(oddLanes128(pq0, rs0), 8 + k)
        xor(oddLanes128(pq1, rs1), 12 + k)
    }
    emit(g0.0, g1.0, g2.0, g3.0, 0)
    emit(g0.1, g1.1, g2.1, g3.1, 1)
    emit(g0.2, g1.2, g2.2, g3.2, 2)
    emit(g0.3, g1.3, g2.3, g3.3, 3)
}

/// 0 or 1, as a bit cast of the Bool rather than `flag ? 1 : 0`, which the
/// optimiser may turn into a branch on a carry.
@inline(__always)
private func bit(_ flag: Bool) -> UInt64 {
    UInt64(unsafeBitCast(flag, to: UInt8.self))
}

/// Eight lanes of 64-bit words.
private typealias Wide = SIMD8<UInt64>

/// 2²⁶ − 1.
private let limbMask: UInt64 = (1 << 26) - 1

/// A value below 2¹³⁰ (or a little above) as five 26-bit limbs.
private typealias Limbs26 = (UInt64, UInt64, UInt64, UInt64, UInt64)

/// h = h0 + h1·2⁶⁴ + h2·2¹²⁸ as five limbs of 26 bits (the top one takes the rest).
@inline(__always)
private func limbs(_ h0: UInt64, _ h1: UInt64, _ h2: UInt64) -> Limbs26 {
    (h0 & limbMask, (h0 >> 26) & limbMask, ((h0 >> 52) | (h1 << 12)) & limbMask, (h1 >> 14) & limbMask, (h1 >> 40) | (h2 << 24))
}

/// The scalar product a·b mod p, partially reduced (radix 2⁶⁴), for the powers of r.
@inline(__always)
private func multiply(_ a: (UInt64, UInt64, UInt64), r0: UInt64, r1: UInt64) -> (UInt64, UInt64, UInt64) {
    // TackCipher's Poly1305.absorb step without the message (see Poly1305.swift for
    // the bounds): r1 is a multiple of 4, so r1·2¹²⁸ ≡ 5·(r1/4) mod p.
    let s1 = r1 &+ (r1 >> 2)
    let (h0, h1, h2) = a
    let (a0High, a0Low) = h0.multipliedFullWidth(by: r0)
    let (b0High, b0Low) = h1.multipliedFullWidth(by: s1)
    let (d0Low, c0) = a0Low.addingReportingOverflow(b0Low)
    let d0High = a0High &+ b0High &+ bit(c0)
    let (a1High, a1Low) = h0.multipliedFullWidth(by: r1)
    let (b1High, b1Low) = h1.multipliedFullWidth(by: r0)
    let (e1High, e1Low) = h2.multipliedFullWidth(by: s1)
    let (partial, c1) = a1Low.addingReportingOverflow(b1Low)
    let (d1Low, c2) = partial.addingReportingOverflow(e1Low)
    let d1High = a1High &+ b1High &+ e1High &+ bit(c1) &+ bit(c2)
    let (middle, carryC) = d1Low.addingReportingOverflow(d0High)
    let top = h2 &* r0 &+ d1High &+ bit(carryC)
    let fold = (top & ~3) &+ (top >> 2)
    let (low, carryD) = d0Low.addingReportingOverflow(fold)
    let (high, carryE) = middle.addingReportingOverflow(bit(carryD))
    return (low, high, (top & 3) &+ bit(carryE))
}

/// Fully reduced below p = 2¹³⁰ − 5 (h < 2p).
@inline(__always)
private func reduced(_ h: (UInt64, UInt64, UInt64)) -> (UInt64, UInt64, UInt64) {
    let (g0, c0) = h.0.addingReportingOverflow(5)
    let (g1, c1) = h.1.addingReportingOverflow(bit(c0))
    let g2 = h.2 &+ bit(c1)
    let mask = 0 &- (g2 >> 2)
    return ((h.0 & ~mask) | (g0 & mask), (h.1 & ~mask) | (g1 & mask), (h.2 & ~mask) | (g2 & mask & 3))
}

/// The low 32 bits of each lane times those of `b` (one vpmuludq).
@inline(__always)
private func mul32(_ a: Wide, _ b: Wide) -> Wide {
    let low = Wide(repeating: 0xffff_ffff)
    return (a & low) &* (b & low)
}

/// h·r mod p for eight lanes in radix 2²⁶, s = 5·r (limbs 1–4), carried so that
/// limb 1 is below 2²⁶ + 2¹² and the others below 2²⁶. With h's limbs below 2²⁸
/// and r's below 2²⁶, each product is below 2⁵⁷ and each sum of five below 2⁶⁰.
@inline(__always)
private func multiply(_ h: inout (Wide, Wide, Wide, Wide, Wide), _ r: (Wide, Wide, Wide, Wide, Wide), _ s: (Wide, Wide, Wide, Wide)) {
    let (h0, h1, h2, h3, h4) = h
    let (r0, r1, r2, r3, r4) = r
    let (s1, s2, s3, s4) = s
    var d0 = mul32(h0, r0) &+ mul32(h1, s4) &+ mul32(h2, s3) &+ mul32(h3, s2) &+ mul32(h4, s1)
    var d1 = mul32(h0, r1) &+ mul32(h1, r0) &+ mul32(h2, s4) &+ mul32(h3, s3) &+ mul32(h4, s2)
    var d2 = mul32(h0, r2) &+ mul32(h1, r1) &+ mul32(h2, r0) &+ mul32(h3, s4) &+ mul32(h4, s3)
    var d3 = mul32(h0, r3) &+ mul32(h1, r2) &+ mul32(h2, r1) &+ mul32(h3, r0) &+ mul32(h4, s4)
    var d4 = mul32(h0, r4) &+ mul32(h1, r3) &+ mul32(h2, r2) &+ mul32(h3, r1) &+ mul32(h4, r0)
    let mask = Wide(repeating: limbMask)
    d1 &+= d0 &>> 26; d0 &= mask
    d2 &+= d1 &>> 26; d1 &= mask
    d3 &+= d2 &>> 26; d2 &= mask
    d4 &+= d3 &>> 26; d3 &= mask
    let carry = d4 &>> 26; d4 &= mask
    d0 &+= carry &+ (carry &<< 2)  // ·5
    d1 &+= d0 &>> 26; d0 &= mask
    h = (d0, d1, d2, d3, d4)
}

/// Absorbs `groups` × 128 bytes of full 16-byte blocks (each with 2¹²⁸ added,
/// RFC 8439 §2.5.1) into the Poly1305 accumulator h = h0 + h1·2⁶⁴ + h2·2¹²⁸
/// under the clamped key r = r0 + r1·2⁶⁴, as TackCipher's `Poly1305` holds them:
/// eight interleaved Horner chains with the multiplier r⁸ (see the top of this
/// file), the previous h added to lane 0's first block, the lanes combined
/// with r⁸ … r¹. Leaves h below 2¹³⁰ + 2¹⁰⁴ (< 2p, h2 ≤ 4), within the bounds of
/// the scalar code's next block and of its final reduction.
///
/// Call only where the CPU has AVX512F and the OS saves the ZMM state
/// (TackCipher's `chaCha20WideIsAvailable`).
///
/// - Parameters:
///   - h: The accumulator (h0, h1, h2), h2 below 8.
///   - r0: Bits 0–63 of the clamped key.
///   - r1: Bits 64–127 of the clamped key (a multiple of 4).
///   - blocks: `128 · groups` readable bytes.
///   - groups: The number of 128-byte groups.
public func poly1305AbsorbGroups(
    _ h: inout (UInt64, UInt64, UInt64), r0: UInt64, r1: UInt64, _ blocks: UnsafeRawPointer, groups: Int
) {
    guard groups > 0 else { return }
    // rl: lane j holds the limbs of r^(8 − j); power ends as r⁸. Fully reduced
    // (below p < 2¹³⁰), so each limb is below 2²⁶.
    var rl = (Wide(), Wide(), Wide(), Wide(), Wide())
    var power = (r0, r1, UInt64(0))
    for k in 1...8 {
        if k > 1 { power = reduced(multiply(power, r0: r0, r1: r1)) }
        let l = limbs(power.0, power.1, power.2)
        rl.0[8 - k] = l.0
        rl.1[8 - k] = l.1
        rl.2[8 - k] = l.2
        rl.3[8 - k] = l.3
        rl.4[8 - k] = l.4
    }
    // The masks change no value (every limb is below 2²⁶, five times it below 2²⁹);
    // they show LLVM that the operands fit 32 bits, else it multiplies them as
    // 64-bit lanes (three vpmuludq and shifts).
    let low = Wide(repeating: 0xffff_ffff)
    rl = (rl.0 & low, rl.1 & low, rl.2 & low, rl.3 & low, rl.4 & low)
    let sl = ((rl.1 &* 5) & low, (rl.2 &* 5) & low, (rl.3 &* 5) & low, (rl.4 &* 5) & low)
    let r8 = (Wide(repeating: rl.0[0]), Wide(repeating: rl.1[0]), Wide(repeating: rl.2[0]), Wide(repeating: rl.3[0]),
              Wide(repeating: rl.4[0]))
    let s8 = ((r8.1 &* 5) & low, (r8.2 &* 5) & low, (r8.3 &* 5) & low, (r8.4 &* 5) & low)
    let mask = Wide(repeating: limbMask)
    /// Eight blocks as limbs, lane j block j: the low and high words of each
    /// block gathered (two-source shuffles), cut into 26-bit limbs, 2¹²⁸ added.
    @inline(__always)
    func load(_ at: UnsafeRawPointer) -> (Wide, Wide, Wide, Wide, Wide) {
        let a = at.loadUnaligned(as: Wide.self)
        let b = at.loadUnaligned(fromByteOffset: 64, as: Wide.self)
        let t0 = Wide(lowHalf: a.evenHalf, highHalf: b.evenHalf)
        let t1 = Wide(lowHalf: a.oddHalf, highHalf: b.oddHalf)
        return (t0 & mask, (t0 &>> 26) & mask, ((t0 &>> 52) | (t1 &<< 12)) & mask, (t1 &>> 14) & mask,
                (t1 &>> 40) | Wide(repeating: 1 << 24))
    }
    var accumulator = load(blocks)
    // h < 2¹³¹: limb 4 below 2²⁷, the others below 2²⁶; with a block's limbs, below 2²⁸.
    let previous = limbs(h.0, h.1, h.2)
    accumulator.0[0] &+= previous.0
    accumulator.1[0] &+= previous.1
    accumulator.2[0] &+= previous.2
    accumulator.3[0] &+= previous.3
    accumulator.4[0] &+= previous.4
    for group in 1..<groups {
        multiply(&accumulator, r8, s8)
        let m = load(blocks + 128 * group)
        accumulator = (accumulator.0 &+ m.0, accumulator.1 &+ m.1, accumulator.2 &+ m.2, accumulator.3 &+ m.3,
                       accumulator.4 &+ m.4)
    }
    multiply(&accumulator, rl, sl)
    // The lanes summed: each limb below 8 · (2²⁶ + 2¹²) < 2³⁰.
    var t0 = accumulator.0.wrappedSum(), t1 = accumulator.1.wrappedSum(), t2 = accumulator.2.wrappedSum()
    var t3 = accumulator.3.wrappedSum(), t4 = accumulator.4.wrappedSum()
    // Carried to 26-bit limbs, the bits from 2¹³⁰ up folded back by 5, twice;
    // then once more up to limb 4, which may end at 2²⁶ (h ≤ 2¹³⁰ + 2¹⁰⁴).
    for _ in 0..<2 {
        t1 &+= t0 >> 26; t0 &= limbMask
        t2 &+= t1 >> 26; t1 &= limbMask
        t3 &+= t2 >> 26; t2 &= limbMask
        t4 &+= t3 >> 26; t3 &= limbMask
        let carry = t4 >> 26
        t4 &= limbMask
        t0 &+= carry &* 5
    }
    t1 &+= t0 >> 26; t0 &= limbMask
    t2 &+= t1 >> 26; t1 &= limbMask
    t3 &+= t2 >> 26; t2 &= limbMask
    t4 &+= t3 >> 26; t3 &= limbMask
    h = (t0 | (t1 << 26) | (t2 << 52), (t2 >> 12) | (t3 << 14) | (t4 << 40), t4 >> 24)
}
#endif
