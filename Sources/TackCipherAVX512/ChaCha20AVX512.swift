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
// ChaCha20-Poly1305's seal also runs here in one pass over whole kilobytes
// (`chaCha20Poly1305SealKilobytes`): while the vector rounds of kilobyte i run,
// the scalar Poly1305 multiplications absorb the ciphertext of kilobyte i − 1,
// six or seven blocks per double round, so the out-of-order core overlaps the
// two (their own Poly1305 step is a copy of TackCipher's arithmetic, as this
// module cannot see TackCipher's). Poly1305's multiplications take constant
// time and its carries are bit casts, not branches.
//
// Held to TackCipher's general paths by the seeded differential tests
// `fourBlocksMatchOneBlock` (the keystream against one block at a time) and
// `wideSealMatchesPortable` (whole records against ChaCha20 then Poly1305), in
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
    var idle = Poly1305Accumulator(h0: 0, h1: 0, h2: 0, r0: 0, r1: 0)
    sixteenBlocks(key: key, counter: counter, nonce: nonce, input: input, output: output, absorbing: nil, into: &idle)
}

/// The sixteen blocks of `chaCha20XorSixteenBlocks`, absorbing on the way, when
/// `absorbing` is not nil, the 64 Poly1305 blocks (1,024 bytes) there into `mac`:
/// seven or six of them in each double round, so that the scalar multiplications
/// run beside the vector rounds.
@inline(__always)
private func sixteenBlocks(
    key: SIMD8<UInt32>, counter: UInt32, nonce: SIMD3<UInt32>, input: UnsafeRawPointer, output: UnsafeMutableRawPointer,
    absorbing: UnsafeRawPointer?, into mac: inout Poly1305Accumulator
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
    for round in 0..<10 {
        if let absorbing {
            // 4 × 7 + 6 × 6 = 64 blocks.
            mac.absorb(absorbing + (round < 4 ? 112 * round : 448 + 96 * (round - 4)), blocks: round < 4 ? 7 : 6)
        }
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

/// A Poly1305 accumulator and key (RFC 8439 §2.5) in TackCipher's radix 2⁶⁴
/// layout: h = h0 + h1·2⁶⁴ + h2·2¹²⁸, r = r0 + r1·2⁶⁴ (clamped).
public struct Poly1305Accumulator {
    /// Bits 0–63 of the accumulator.
    public var h0: UInt64
    /// Bits 64–127 of the accumulator.
    public var h1: UInt64
    /// Bits 128 and up of the accumulator (a few bits).
    public var h2: UInt64
    /// Bits 0–63 of the clamped key r.
    public let r0: UInt64
    /// Bits 64–127 of the clamped key r (a multiple of 4).
    public let r1: UInt64

    /// An accumulator and key as TackCipher's `Poly1305` holds them.
    ///
    /// - Parameters:
    ///   - h0: Bits 0–63 of the accumulator.
    ///   - h1: Bits 64–127 of the accumulator.
    ///   - h2: Bits 128 and up of the accumulator.
    ///   - r0: Bits 0–63 of the clamped key.
    ///   - r1: Bits 64–127 of the clamped key.
    public init(h0: UInt64, h1: UInt64, h2: UInt64, r0: UInt64, r1: UInt64) {
        (self.h0, self.h1, self.h2, self.r0, self.r1) = (h0, h1, h2, r0, r1)
    }

    /// Absorbs `count` full 16-byte blocks at `blocks`: the arithmetic of
    /// TackCipher's `Poly1305.absorb` (see Poly1305.swift for the bounds), which the
    /// differential test `wideSealMatchesPortable` holds this copy to.
    @inline(__always)
    mutating func absorb(_ blocks: UnsafeRawPointer, blocks count: Int) {
        let s1 = r1 &+ (r1 >> 2)
        var h0 = self.h0, h1 = self.h1, h2 = self.h2
        for index in 0..<count {
            let m0 = UInt64(littleEndian: blocks.loadUnaligned(fromByteOffset: 16 * index, as: UInt64.self))
            let m1 = UInt64(littleEndian: blocks.loadUnaligned(fromByteOffset: 16 * index + 8, as: UInt64.self))
            let (sum0, carry0) = h0.addingReportingOverflow(m0)
            let (partial1, carryA) = h1.addingReportingOverflow(m1)
            let (sum1, carryB) = partial1.addingReportingOverflow(bit(carry0))
            h0 = sum0
            h1 = sum1
            h2 = h2 &+ 1 &+ bit(carryA) &+ bit(carryB)
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
            h0 = low
            h1 = high
            h2 = (top & 3) &+ bit(carryE)
        }
        self.h0 = h0
        self.h1 = h1
        self.h2 = h2
    }
}

/// ChaCha20-Poly1305's seal over whole kilobytes (RFC 8439 §2.8): encrypts
/// `chunks` × 1,024 bytes from `input` to `output` (blocks `counter` …) and absorbs
/// the ciphertext into `mac`, each kilobyte's Poly1305 blocks interleaved with the
/// rounds of the next (the last kilobyte's absorbed after).
///
/// Call only where the CPU has AVX512F and the OS saves the ZMM state
/// (TackCipher's `chaCha20WideIsAvailable`).
///
/// - Parameters:
///   - key: The key as eight little-endian words (state words 4–11).
///   - counter: The first block counter; the caller keeps `counter + 16 · chunks − 1` from passing 2³² − 1.
///   - nonce: The three nonce words (state words 13–15).
///   - input: `1024 · chunks` readable bytes.
///   - output: `1024 · chunks` writable bytes, not overlapping `input` unless equal to it.
///   - chunks: The number of kilobytes, at least 1.
///   - mac: The Poly1305 accumulator, which has absorbed what precedes the ciphertext.
public func chaCha20Poly1305SealKilobytes(
    key: SIMD8<UInt32>, counter: UInt32, nonce: SIMD3<UInt32>, input: UnsafeRawPointer, output: UnsafeMutableRawPointer,
    chunks: Int, mac: inout Poly1305Accumulator
) {
    guard chunks > 0 else { return }
    var idle = Poly1305Accumulator(h0: 0, h1: 0, h2: 0, r0: 0, r1: 0)
    sixteenBlocks(key: key, counter: counter, nonce: nonce, input: input, output: output, absorbing: nil, into: &idle)
    var counter = counter
    for chunk in 1..<chunks {
        counter &+= 16  // bounded by the caller's length check
        sixteenBlocks(
            key: key, counter: counter, nonce: nonce, input: input + 1024 * chunk, output: output + 1024 * chunk,
            absorbing: UnsafeRawPointer(output + 1024 * (chunk - 1)), into: &mac)
    }
    mac.absorb(UnsafeRawPointer(output + 1024 * (chunks - 1)), blocks: 64)
}

#endif
