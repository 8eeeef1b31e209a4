// The ChaCha20 stream cipher (RFC 8439 §2.1–§2.4), the cipher half of
// ChaCha20-Poly1305.
//
// The block function works on sixteen 32-bit words in locals: each double
// round is eight quarter rounds of additions, XORs and rotations by constants,
// four of them independent at a time, which the CPU overlaps. No branch and
// no memory index depends on the key or the data. The keystream is XORed into
// the data 16 bytes at a time as SIMD4<UInt32> (one SSE2 or NEON XOR).
//
// Why the rounds are not SIMD: written as four SIMD4<UInt32> rows (diagonals
// by lane rotation) or in the 4-block transposed layout (one vector per state
// word), Swift 6.3 on x86-64 compiled each vector rotation into four scalar
// `rol`s with the lanes moved through general registers (`movd`, 322 of them
// per 256 bytes), and a 16 KiB seal ran at 50-57 MB/s; in scalar words it is
// the plain `rol` that code needs anyway, with no lane traffic.

extension UInt32 {
    /// The word rotated left by `count` bits, 0 < count < 32 (one `rol`).
    @inline(__always)
    fileprivate func rotatedLeft(by count: UInt32) -> UInt32 {
        (self << count) | (self >> (32 - count))
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

    /// The quarter round (RFC 8439 §2.1); additions are mod 2³², as the cipher defines them.
    @inline(__always)
    private static func quarterRound(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
        a &+= b; d ^= a; d = d.rotatedLeft(by: 16)
        c &+= d; b ^= c; b = b.rotatedLeft(by: 12)
        a &+= b; d ^= a; d = d.rotatedLeft(by: 8)
        c &+= d; b ^= c; b = b.rotatedLeft(by: 7)
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
        for _ in 0..<10 {
            Self.quarterRound(&x0, &x4, &x8, &x12)  // columns
            Self.quarterRound(&x1, &x5, &x9, &x13)
            Self.quarterRound(&x2, &x6, &x10, &x14)
            Self.quarterRound(&x3, &x7, &x11, &x15)
            Self.quarterRound(&x0, &x5, &x10, &x15)  // diagonals
            Self.quarterRound(&x1, &x6, &x11, &x12)
            Self.quarterRound(&x2, &x7, &x8, &x13)
            Self.quarterRound(&x3, &x4, &x9, &x14)
        }
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
    func xor(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, counter: UInt32, nonce: SIMD3<UInt32>) {
        // One block of keystream on the stack, wiped after.
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { keystream in
            var counter = counter
            var offset = 0
            let count = input.count
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
