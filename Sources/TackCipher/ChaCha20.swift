// The ChaCha20 stream cipher (RFC 8439 §2.1–§2.4), the cipher half of
// ChaCha20-Poly1305.
//
// The state is held as four rows of SIMD4<UInt32> (constants, key, key,
// counter ‖ nonce), so a column round is one quarter round on the four rows
// lane by lane, and a diagonal round is the same after rotating rows b, c, d
// by one, two and three lanes (D. J. Bernstein's "vectorised" layout, as in
// the SSE implementations). The code is additions, XORs, rotations and lane
// shuffles: no branch and no memory index depends on the key or the data, and
// the optimiser turns each row operation into one SSE2 or NEON instruction
// (two shifts and an OR for a rotation). Two blocks are computed side by side
// in the bulk loop, so that the two dependency chains overlap.

/// A row of the ChaCha20 state: four 32-bit words.
typealias ChaChaRow = SIMD4<UInt32>

/// ChaCha20 with one key: the keystream of RFC 8439 §2.3 XORed into data (§2.4).
struct ChaCha20: Sendable {
    /// The key as eight little-endian words (RFC 8439 §2.3: state words 4–11).
    let key: SIMD8<UInt32>

    /// "expand 32-byte k" as four little-endian words (RFC 8439 §2.3).
    static let constants = ChaChaRow(0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574)

    /// The cipher for a 32-byte key.
    ///
    /// - Parameter key: Exactly 32 bytes (the caller checks).
    init(key: UnsafeRawBufferPointer) {
        var words = SIMD8<UInt32>()
        for index in 0..<8 { words[index] = UInt32(littleEndian: key.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)) }
        self.key = words
    }

    /// Rotates each lane left by `count` bits (0 < count < 32).
    @inline(__always)
    private static func rotated(_ x: ChaChaRow, _ count: UInt32) -> ChaChaRow {
        (x &<< count) | (x &>> (32 - count))
    }

    /// The quarter round (RFC 8439 §2.1) on the four rows, lane by lane; all
    /// additions are mod 2³², as the cipher defines them.
    @inline(__always)
    private static func quarterRound(_ a: inout ChaChaRow, _ b: inout ChaChaRow, _ c: inout ChaChaRow, _ d: inout ChaChaRow) {
        a &+= b; d ^= a; d = rotated(d, 16)
        c &+= d; b ^= c; b = rotated(b, 12)
        a &+= b; d ^= a; d = rotated(d, 8)
        c &+= d; b ^= c; b = rotated(b, 7)
    }

    /// Lanes (1, 2, 3, 0): moves the diagonals into columns (and back, with
    /// `lanesRotatedRight`).
    @inline(__always)
    private static func lanesRotatedLeft(_ x: ChaChaRow) -> ChaChaRow { ChaChaRow(x[1], x[2], x[3], x[0]) }
    @inline(__always)
    private static func lanesSwapped(_ x: ChaChaRow) -> ChaChaRow { ChaChaRow(x[2], x[3], x[0], x[1]) }
    @inline(__always)
    private static func lanesRotatedRight(_ x: ChaChaRow) -> ChaChaRow { ChaChaRow(x[3], x[0], x[1], x[2]) }

    /// One ChaCha20 block (RFC 8439 §2.3): 20 rounds, then the input added back.
    ///
    /// - Parameter counterAndNonce: Row d: the block counter and the three nonce words.
    /// - Returns: The four rows of the keystream block, as words.
    @inline(__always)
    func block(_ counterAndNonce: ChaChaRow) -> (ChaChaRow, ChaChaRow, ChaChaRow, ChaChaRow) {
        let b0 = key.lowHalf
        let c0 = key.highHalf
        var a = Self.constants, b = b0, c = c0, d = counterAndNonce
        for _ in 0..<10 {
            Self.quarterRound(&a, &b, &c, &d)  // columns
            b = Self.lanesRotatedLeft(b); c = Self.lanesSwapped(c); d = Self.lanesRotatedRight(d)
            Self.quarterRound(&a, &b, &c, &d)  // diagonals
            b = Self.lanesRotatedRight(b); c = Self.lanesSwapped(c); d = Self.lanesRotatedLeft(d)
        }
        return (a &+ Self.constants, b &+ b0, c &+ c0, d &+ counterAndNonce)
    }

    /// Two consecutive blocks, their rounds interleaved so that the two
    /// dependency chains run in parallel.
    @inline(__always)
    func twoBlocks(
        _ counterAndNonce: ChaChaRow
    ) -> ((ChaChaRow, ChaChaRow, ChaChaRow, ChaChaRow), (ChaChaRow, ChaChaRow, ChaChaRow, ChaChaRow)) {
        let b0 = key.lowHalf
        let c0 = key.highHalf
        // The counter is the first word; the caller keeps it from wrapping (RFC 8439 §2.8 length limit).
        let next = counterAndNonce &+ ChaChaRow(1, 0, 0, 0)
        var a1 = Self.constants, b1 = b0, c1 = c0, d1 = counterAndNonce
        var a2 = Self.constants, b2 = b0, c2 = c0, d2 = next
        for _ in 0..<10 {
            Self.quarterRound(&a1, &b1, &c1, &d1)
            Self.quarterRound(&a2, &b2, &c2, &d2)
            b1 = Self.lanesRotatedLeft(b1); c1 = Self.lanesSwapped(c1); d1 = Self.lanesRotatedRight(d1)
            b2 = Self.lanesRotatedLeft(b2); c2 = Self.lanesSwapped(c2); d2 = Self.lanesRotatedRight(d2)
            Self.quarterRound(&a1, &b1, &c1, &d1)
            Self.quarterRound(&a2, &b2, &c2, &d2)
            b1 = Self.lanesRotatedRight(b1); c1 = Self.lanesSwapped(c1); d1 = Self.lanesRotatedLeft(d1)
            b2 = Self.lanesRotatedRight(b2); c2 = Self.lanesSwapped(c2); d2 = Self.lanesRotatedLeft(d2)
        }
        return (
            (a1 &+ Self.constants, b1 &+ b0, c1 &+ c0, d1 &+ counterAndNonce),
            (a2 &+ Self.constants, b2 &+ b0, c2 &+ c0, d2 &+ next)
        )
    }

    /// XORs one block of keystream into 64 bytes of `input` at `offset`, writing `output`.
    @inline(__always)
    private static func xorBlock(
        _ rows: (ChaChaRow, ChaChaRow, ChaChaRow, ChaChaRow), input: UnsafeRawBufferPointer,
        output: UnsafeMutableRawBufferPointer, offset: Int
    ) {
        xorRow(rows.0, input: input, output: output, offset: offset)
        xorRow(rows.1, input: input, output: output, offset: offset + 16)
        xorRow(rows.2, input: input, output: output, offset: offset + 32)
        xorRow(rows.3, input: input, output: output, offset: offset + 48)
    }

    /// XORs one row (16 bytes, its words little-endian) into `input` at `offset`.
    @inline(__always)
    private static func xorRow(_ row: ChaChaRow, input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer, offset: Int) {
        let data = input.loadUnaligned(fromByteOffset: offset, as: ChaChaRow.self)
        output.storeBytes(of: data ^ littleEndian(row), toByteOffset: offset, as: ChaChaRow.self)
    }

    /// The row with each word in little-endian byte order in memory.
    @inline(__always)
    static func littleEndian(_ row: ChaChaRow) -> ChaChaRow {
        #if _endian(big)
        ChaChaRow(row[0].littleEndian, row[1].littleEndian, row[2].littleEndian, row[3].littleEndian)
        #else
        row
        #endif
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
        var state = ChaChaRow(counter, nonce[0], nonce[1], nonce[2])
        var offset = 0
        let count = input.count
        while count - offset >= 128 {
            let (first, second) = twoBlocks(state)
            Self.xorBlock(first, input: input, output: output, offset: offset)
            Self.xorBlock(second, input: input, output: output, offset: offset + 64)
            state &+= ChaChaRow(2, 0, 0, 0)  // bounded by the caller's length check
            offset += 128
        }
        while offset < count {
            let rows = block(state)
            state &+= ChaChaRow(1, 0, 0, 0)
            if count - offset >= 64 {
                Self.xorBlock(rows, input: input, output: output, offset: offset)
                offset += 64
                continue
            }
            // The last, partial block: through a 64-byte buffer on the stack, wiped after.
            var keystream = (rows.0, rows.1, rows.2, rows.3)
            withUnsafeMutableBytes(of: &keystream) { bytes in
                for row in 0..<4 {
                    bytes.storeBytes(of: Self.littleEndian(bytes.load(fromByteOffset: 16 * row, as: ChaChaRow.self)),
                                     toByteOffset: 16 * row, as: ChaChaRow.self)
                }
                for index in 0..<(count - offset) { output[offset + index] = input[offset + index] ^ bytes[index] }
                bytes.initializeMemory(as: UInt8.self, repeating: 0)
            }
            offset = count
        }
    }
}
