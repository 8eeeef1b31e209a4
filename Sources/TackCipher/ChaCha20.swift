// The ChaCha20 stream cipher (RFC 8439 §2.1–§2.4), the cipher half of
// ChaCha20-Poly1305.
//
// Four blocks at a time (`fourBlocks`): the state is transposed, one
// SIMD4<UInt32> per state word holding that word of four consecutive blocks,
// so each quarter round is the same additions, XORs and rotations on four
// lanes (one SSE2 or NEON instruction each), then the four blocks are
// transposed back and XORed into the data. The tail (under 256 bytes) runs one
// block at a time in scalar words (`block`). No branch and no memory index
// depends on the key or the data. Measured by tack-bench's `chacha20poly1305-16k`;
// the four-block path is held to the one-block path by the seeded differential
// test `fourBlocksMatchOneBlock` (Tests/TackCipherTests/ChaCha20Poly1305Tests.swift).
//
// The vector rotation. Written as (x << n) | (x >> (32 − n)), LLVM recognises a
// rotate, which SSE2 lacks, and Swift 6.3 on x86-64 compiled each into four
// scalar `rol`s with the lanes moved through general registers (322 `movd` per
// 256 bytes, 50-57 MB/s). `rotatedLeft` below takes the right shift on the
// 64-bit lanes instead and masks off the bits that crossed from the
// neighbouring word: no rotate pattern, and it compiles to psllq/psrld, pand
// and por (checked in the assembly: no `rol`, no `movd` in the rounds).
//
// Where the CPU has AVX-512 (AVX512F, and the OS saves the ZMM state), whole
// kilobytes go sixteen blocks at a time through `chaCha20XorSixteenBlocks`, the
// same transposed layout on SIMD16 lanes with one-instruction rotations, in the
// module TackCipherAVX512 (compiled with that target feature; see its file).
// About four times the four-block path's speed; `fourBlocksMatchOneBlock` holds
// it to the one-block path too, on inputs long enough to reach it.

#if TACK_HARDWARE_AES && arch(x86_64) && canImport(TackCipherAVX512)
import Builtin
import _Builtin_intrinsics.intel.cpuid
private import TackCipherAVX512

/// Whether the sixteen-block AVX-512 ChaCha20 may run: CPUID.(EAX=7,ECX=0):EBX bit
/// 16 (AVX512F), and, since the OS must save the registers, CPUID.1:ECX bit 27
/// (OSXSAVE: XGETBV is available) with XCR0 bits 1, 2, 5, 6 and 7 (SSE, AVX,
/// opmask, ZMM0–15 upper halves, ZMM16–31) all set (Intel SDM Vol. 1, §13.3).
/// Asked once.
let chaCha20WideIsAvailable: Bool = {
    var eax: UInt32 = 0
    var ebx: UInt32 = 0
    var ecx: UInt32 = 0
    var edx: UInt32 = 0
    guard cpuidLeaf1ECX & (1 << 27) != 0, __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0,
        ebx & (1 << 16) != 0
    else { return false }
    let register: Int32 = 0  // XCR0
    let enabled = UInt64(Builtin.int_x86_xgetbv(register._value))
    return enabled & 0xe6 == 0xe6
}()
#else
/// The sixteen-block ChaCha20 is not compiled in (no AVX-512 module in this build).
let chaCha20WideIsAvailable = false
#endif

/// A ChaCha20 state word: one word of one block (`UInt32`), or the same word of
/// four blocks, a lane each (`SIMD4<UInt32>`); the rounds are written once over it.
fileprivate protocol ChaChaWord {
    /// Addition mod 2³² (of each lane).
    static func &+ (a: Self, b: Self) -> Self
    /// Exclusive or.
    static func ^ (a: Self, b: Self) -> Self
    /// Rotation left by `count` bits, 0 < count < 32 (of each lane).
    func rotatedLeft(by count: UInt32) -> Self
}

extension UInt32: ChaChaWord {
    /// The word rotated left by `count` bits, 0 < count < 32 (one `rol`).
    @inline(__always)
    fileprivate func rotatedLeft(by count: UInt32) -> UInt32 {
        (self << count) | (self >> (32 - count))
    }
}

extension SIMD4: ChaChaWord where Scalar == UInt32 {
    /// Each lane rotated left by `count` bits, 0 < count < 32, without the
    /// rotate pattern (see the top of this file): the right shift runs on the
    /// two 64-bit halves and the bits from the neighbouring lane are masked off.
    @inline(__always)
    fileprivate func rotatedLeft(by count: UInt32) -> SIMD4<UInt32> {
        let wide = unsafeBitCast(self, to: SIMD2<UInt64>.self) &>> SIMD2<UInt64>(repeating: UInt64(32 - count))
        let low = unsafeBitCast(wide, to: SIMD4<UInt32>.self) & SIMD4<UInt32>(repeating: (1 << count) &- 1)
        return (self &<< SIMD4<UInt32>(repeating: count)) | low
    }
}

/// ChaCha20 with one key: the keystream of RFC 8439 §2.3 XORed into data (§2.4).
struct ChaCha20: Sendable {
    /// The key as eight little-endian words (RFC 8439 §2.3: state words 4–11).
    let key: SIMD8<UInt32>

    /// The cipher for a 32-byte key.
    ///
    /// - Parameter key: Exactly 32 bytes (the caller checks).
    init(key: UnsafeRawBufferPointer) {
        var words = SIMD8<UInt32>()
        for index in 0..<8 { words[index] = UInt32(littleEndian: key.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)) }
        self.key = words
    }

    /// The quarter round (RFC 8439 §2.1) on scalar words (`block`) or on four
    /// blocks' words at once (`fourBlocks`); additions are mod 2³², as the cipher
    /// defines them.
    @inline(__always)
    private static func quarterRound<W: ChaChaWord>(_ a: inout W, _ b: inout W, _ c: inout W, _ d: inout W) {
        a = a &+ b; d = (d ^ a).rotatedLeft(by: 16)
        c = c &+ d; b = (b ^ c).rotatedLeft(by: 12)
        a = a &+ b; d = (d ^ a).rotatedLeft(by: 8)
        c = c &+ d; b = (b ^ c).rotatedLeft(by: 7)
    }

    /// The 20 rounds (RFC 8439 §2.3): ten times a column round and a diagonal round.
    @inline(__always)
    private static func twentyRounds<W: ChaChaWord>(
        _ x0: inout W, _ x1: inout W, _ x2: inout W, _ x3: inout W, _ x4: inout W, _ x5: inout W, _ x6: inout W,
        _ x7: inout W, _ x8: inout W, _ x9: inout W, _ x10: inout W, _ x11: inout W, _ x12: inout W, _ x13: inout W,
        _ x14: inout W, _ x15: inout W
    ) {
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
    }

    /// Four lanes transposed: lane j of result i is lane i of input j.
    @inline(__always)
    private static func transpose(
        _ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>
    ) -> (SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>) {
        (SIMD4(a[0], b[0], c[0], d[0]), SIMD4(a[1], b[1], c[1], d[1]),
         SIMD4(a[2], b[2], c[2], d[2]), SIMD4(a[3], b[3], c[3], d[3]))
    }

    /// XORs four keystream blocks (counters `counter` … `counter + 3`) into
    /// 256 bytes of `input` at `offset`, written to `output` at the same offset.
    @inline(__always)
    func fourBlocks(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, offset: Int,
        counter: UInt32, nonce: SIMD3<UInt32>
    ) {
        typealias V = SIMD4<UInt32>
        let c0 = V(repeating: 0x6170_7865), c1 = V(repeating: 0x3320_646e)
        let c2 = V(repeating: 0x7962_2d32), c3 = V(repeating: 0x6b20_6574)
        let k0 = V(repeating: key[0]), k1 = V(repeating: key[1]), k2 = V(repeating: key[2]), k3 = V(repeating: key[3])
        let k4 = V(repeating: key[4]), k5 = V(repeating: key[5]), k6 = V(repeating: key[6]), k7 = V(repeating: key[7])
        let n0 = V(repeating: nonce[0]), n1 = V(repeating: nonce[1]), n2 = V(repeating: nonce[2])
        // The caller keeps counter + 3 from passing 2³² − 1.
        let counters = V(repeating: counter) &+ V(0, 1, 2, 3)
        var (x0, x1, x2, x3) = (c0, c1, c2, c3)
        var (x4, x5, x6, x7) = (k0, k1, k2, k3)
        var (x8, x9, x10, x11) = (k4, k5, k6, k7)
        var (x12, x13, x14, x15) = (counters, n0, n1, n2)
        Self.twentyRounds(&x0, &x1, &x2, &x3, &x4, &x5, &x6, &x7, &x8, &x9, &x10, &x11, &x12, &x13, &x14, &x15)
        // Block j's words 4g … 4g + 3 are lane j of x(4g) … x(4g + 3).
        let (a0, a1, a2, a3) = Self.transpose(x0 &+ c0, x1 &+ c1, x2 &+ c2, x3 &+ c3)
        let (b0, b1, b2, b3) = Self.transpose(x4 &+ k0, x5 &+ k1, x6 &+ k2, x7 &+ k3)
        let (e0, e1, e2, e3) = Self.transpose(x8 &+ k4, x9 &+ k5, x10 &+ k6, x11 &+ k7)
        let (f0, f1, f2, f3) = Self.transpose(x12 &+ counters, x13 &+ n0, x14 &+ n1, x15 &+ n2)
        @inline(__always)
        func xor(_ stream: V, _ at: Int) {
            let data = input.loadUnaligned(fromByteOffset: offset + at, as: V.self)
            output.storeBytes(of: data ^ stream, toByteOffset: offset + at, as: V.self)
        }
        xor(a0, 0); xor(b0, 16); xor(e0, 32); xor(f0, 48)
        xor(a1, 64); xor(b1, 80); xor(e1, 96); xor(f1, 112)
        xor(a2, 128); xor(b2, 144); xor(e2, 160); xor(f2, 176)
        xor(a3, 192); xor(b3, 208); xor(e3, 224); xor(f3, 240)
    }

    /// One keystream block (RFC 8439 §2.3): 20 rounds, then the input added
    /// back, written as 64 little-endian bytes.
    ///
    /// - Parameters:
    ///   - counter: The block counter (state word 12).
    ///   - nonce: The three nonce words (state words 13–15).
    ///   - block: 64 bytes of output.
    @inline(__always)
    func block(counter: UInt32, nonce: SIMD3<UInt32>, into block: UnsafeMutableRawBufferPointer) {
        // "expand 32-byte k" (RFC 8439 §2.3).
        let (c0, c1, c2, c3): (UInt32, UInt32, UInt32, UInt32) = (0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574)
        var (x0, x1, x2, x3) = (c0, c1, c2, c3)
        var (x4, x5, x6, x7) = (key[0], key[1], key[2], key[3])
        var (x8, x9, x10, x11) = (key[4], key[5], key[6], key[7])
        var (x12, x13, x14, x15) = (counter, nonce[0], nonce[1], nonce[2])
        Self.twentyRounds(&x0, &x1, &x2, &x3, &x4, &x5, &x6, &x7, &x8, &x9, &x10, &x11, &x12, &x13, &x14, &x15)
        @inline(__always)
        func store(_ word: UInt32, _ index: Int) {
            block.storeBytes(of: word.littleEndian, toByteOffset: 4 * index, as: UInt32.self)
        }
        store(x0 &+ c0, 0); store(x1 &+ c1, 1); store(x2 &+ c2, 2); store(x3 &+ c3, 3)
        store(x4 &+ key[0], 4); store(x5 &+ key[1], 5); store(x6 &+ key[2], 6); store(x7 &+ key[3], 7)
        store(x8 &+ key[4], 8); store(x9 &+ key[5], 9); store(x10 &+ key[6], 10); store(x11 &+ key[7], 11)
        store(x12 &+ counter, 12); store(x13 &+ nonce[0], 13); store(x14 &+ nonce[1], 14); store(x15 &+ nonce[2], 15)
    }

    /// Encrypts or decrypts (RFC 8439 §2.4): `output = input ⊕ keystream`,
    /// the keystream starting at block `counter` under `nonce`.
    ///
    /// - Parameters:
    ///   - input: The data; `output` has the same count (they may be the same memory).
    ///   - counter: The first block counter; the caller ensures that
    ///     `counter + blocks − 1` does not pass 2³² − 1.
    ///   - nonce: The three nonce words (state words 13–15).
    ///   - wide: Whether whole kilobytes may take the AVX-512 path (the tests turn it off
    ///     to compare the paths).
    func xor(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, counter: UInt32, nonce: SIMD3<UInt32>,
        wide: Bool = chaCha20WideIsAvailable
    ) {
        // One block of keystream on the stack, wiped after.
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { keystream in
            var counter = counter
            var offset = 0
            let count = input.count
            #if TACK_HARDWARE_AES && arch(x86_64) && canImport(TackCipherAVX512)
            if wide, let source = input.baseAddress, let destination = output.baseAddress {
                while count - offset >= 1024 {
                    chaCha20XorSixteenBlocks(
                        key: key, counter: counter, nonce: nonce, input: source + offset, output: destination + offset)
                    counter &+= 16  // bounded by the caller's length check; wraps only after the last block
                    offset += 1024
                }
            }
            #endif
            // The lanes are the words' memory order only on a little-endian CPU.
            #if _endian(little)
            while count - offset >= 256 {
                fourBlocks(input, into: output, offset: offset, counter: counter, nonce: nonce)
                counter &+= 4  // bounded by the caller's length check; wraps only after the last block
                offset += 256
            }
            #endif
            while count - offset >= 64 {
                block(counter: counter, nonce: nonce, into: keystream)
                for index in stride(from: 0, to: 64, by: 16) {
                    let data = input.loadUnaligned(fromByteOffset: offset + index, as: SIMD4<UInt32>.self)
                    let stream = keystream.load(fromByteOffset: index, as: SIMD4<UInt32>.self)
                    output.storeBytes(of: data ^ stream, toByteOffset: offset + index, as: SIMD4<UInt32>.self)
                }
                counter &+= 1  // bounded by the caller's length check; wraps only after the last block
                offset += 64
            }
            if offset < count {
                block(counter: counter, nonce: nonce, into: keystream)
                for index in 0..<(count - offset) { output[offset + index] = input[offset + index] ^ keystream[index] }
            }
            keystream.initializeMemory(as: UInt8.self, repeating: 0)
        }
    }
}
