// The portable AES (FIPS 197), bitsliced: constant-time by construction.
//
// Four blocks are processed at once in eight 64-bit words ("slices"): slice i
// holds bit i of each of the 64 state bytes. Within a slice, the byte in row r
// and column c of block b sits at bit 16·r + 4·c + b, so that
// - SubBytes is a Boolean circuit over the eight slices (no table, no branch);
// - ShiftRows rotates each 16-bit row lane by whole columns (masks and shifts);
// - MixColumns reaches the next row of a column by rotating a slice 16 bits;
// - AddRoundKey XORs round keys stored in the same layout (each key byte
//   repeated for the four blocks).
// The technique is that of Käsper and Schwabe ("Faster and Timing-Attack
// Resistant AES-GCM", CHES 2009) and of BearSSL's aes_ct64; the code is Tack's.
// The S-box circuit is Boyar and Peralta's ("A depth-16 circuit for the AES
// S-box", 2011, 113 gates); the inverse S-box is the forward circuit between
// two copies of the inverse affine map, since S⁻¹(y) = G(S(G(y))) with
// G(y) = A⁻¹(y ⊕ 0x63), A the S-box's linear part (G(y) is inv(x) when y = S(x)).
//
// Nothing here indexes memory or branches on key or data: every loop bound
// and every index depends only on the key size and the block count.

/// Eight bit slices of four AES states (see the top of this file).
struct AESSlices {
    var s0: UInt64 = 0, s1: UInt64 = 0, s2: UInt64 = 0, s3: UInt64 = 0
    var s4: UInt64 = 0, s5: UInt64 = 0, s6: UInt64 = 0, s7: UInt64 = 0

    /// XORs eight round-key slices starting at `key`.
    @inline(__always)
    mutating func add(_ key: UnsafePointer<UInt64>) {
        s0 ^= key[0]; s1 ^= key[1]; s2 ^= key[2]; s3 ^= key[3]
        s4 ^= key[4]; s5 ^= key[5]; s6 ^= key[6]; s7 ^= key[7]
    }
}

// MARK: Packing

/// Transposes an 8×8 bit matrix held in a word (row k in byte k, column i in
/// bit i of each byte): afterwards bit k of byte i is what bit i of byte k was.
/// Three rounds of swapping 2×2, 4×4 and 8×8 sub-blocks ("delta swaps").
@inline(__always)
private func transpose8x8(_ word: UInt64) -> UInt64 {
    var x = word
    var t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA
    x ^= t ^ (t << 7)
    t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC
    x ^= t ^ (t << 14)
    t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0
    x ^= t ^ (t << 28)
    return x
}

/// The state byte that lands in byte k of slice group g: group g holds row
/// g / 2, columns 2·(g mod 2) and 2·(g mod 2) + 1, each for blocks 0 to 3.
/// Returns the byte's offset in the 64 input bytes (block-major, each block's
/// bytes column-major as FIPS 197 §3.4 lays out the state).
@inline(__always)
private func packedOffset(group g: Int, byte k: Int) -> Int {
    let row = g >> 1
    let column = (g & 1) * 2 + (k >> 2)
    let block = k & 3
    return block * 16 + column * 4 + row
}

/// Bitslices 64 bytes (four blocks) into slices.
@inline(__always)
func aesPack(_ bytes: UnsafePointer<UInt8>) -> AESSlices {
    var q = AESSlices()
    for g in 0..<8 {
        var word: UInt64 = 0
        for k in 0..<8 {
            word |= UInt64(bytes[packedOffset(group: g, byte: k)]) << (8 * k)
        }
        let t = transpose8x8(word)
        let shift = UInt64(8 * g)
        q.s0 |= (t & 0xFF) << shift
        q.s1 |= ((t >> 8) & 0xFF) << shift
        q.s2 |= ((t >> 16) & 0xFF) << shift
        q.s3 |= ((t >> 24) & 0xFF) << shift
        q.s4 |= ((t >> 32) & 0xFF) << shift
        q.s5 |= ((t >> 40) & 0xFF) << shift
        q.s6 |= ((t >> 48) & 0xFF) << shift
        q.s7 |= (t >> 56) << shift
    }
    return q
}

/// The inverse of ``aesPack(_:)``: writes the four blocks' 64 bytes.
@inline(__always)
func aesUnpack(_ q: AESSlices, into bytes: UnsafeMutablePointer<UInt8>) {
    for g in 0..<8 {
        let shift = UInt64(8 * g)
        var t = (q.s0 >> shift) & 0xFF
        t |= ((q.s1 >> shift) & 0xFF) << 8
        t |= ((q.s2 >> shift) & 0xFF) << 16
        t |= ((q.s3 >> shift) & 0xFF) << 24
        t |= ((q.s4 >> shift) & 0xFF) << 32
        t |= ((q.s5 >> shift) & 0xFF) << 40
        t |= ((q.s6 >> shift) & 0xFF) << 48
        t |= ((q.s7 >> shift) & 0xFF) << 56
        let word = transpose8x8(t)
        for k in 0..<8 {
            bytes[packedOffset(group: g, byte: k)] = UInt8(truncatingIfNeeded: word >> (8 * k))
        }
    }
}

// MARK: SubBytes

/// The S-box on every byte of the slices: Boyar and Peralta's circuit, with
/// their x0 (the most significant bit) in slice 7 and their s7 in slice 0.
@inline(__always)
func aesSubBytes(_ q: inout AESSlices) {
    let x0 = q.s7, x1 = q.s6, x2 = q.s5, x3 = q.s4
    let x4 = q.s3, x5 = q.s2, x6 = q.s1, x7 = q.s0

    // Top linear layer.
    let y14 = x3 ^ x5
    let y13 = x0 ^ x6
    let y9 = x0 ^ x3
    let y8 = x0 ^ x5
    let t0 = x1 ^ x2
    let y1 = t0 ^ x7
    let y4 = y1 ^ x3
    let y12 = y13 ^ y14
    let y2 = y1 ^ x0
    let y5 = y1 ^ x6
    let y3 = y5 ^ y8
    let t1 = x4 ^ y12
    let y15 = t1 ^ x5
    let y20 = t1 ^ x1
    let y6 = y15 ^ x7
    let y10 = y15 ^ t0
    let y11 = y20 ^ y9
    let y7 = x7 ^ y11
    let y17 = y10 ^ y11
    let y19 = y10 ^ y8
    let y16 = t0 ^ y11
    let y21 = y13 ^ y16
    let y18 = x0 ^ y16

    // Middle non-linear layer (inversion in GF(2^4)²).
    let t2 = y12 & y15
    let t3 = y3 & y6
    let t4 = t3 ^ t2
    let t5 = y4 & x7
    let t6 = t5 ^ t2
    let t7 = y13 & y16
    let t8 = y5 & y1
    let t9 = t8 ^ t7
    let t10 = y2 & y7
    let t11 = t10 ^ t7
    let t12 = y9 & y11
    let t13 = y14 & y17
    let t14 = t13 ^ t12
    let t15 = y8 & y10
    let t16 = t15 ^ t12
    let t17 = t4 ^ t14
    let t18 = t6 ^ t16
    let t19 = t9 ^ t14
    let t20 = t11 ^ t16
    let t21 = t17 ^ y20
    let t22 = t18 ^ y19
    let t23 = t19 ^ y21
    let t24 = t20 ^ y18
    let t25 = t21 ^ t22
    let t26 = t21 & t23
    let t27 = t24 ^ t26
    let t28 = t25 & t27
    let t29 = t28 ^ t22
    let t30 = t23 ^ t24
    let t31 = t22 ^ t26
    let t32 = t31 & t30
    let t33 = t32 ^ t24
    let t34 = t23 ^ t33
    let t35 = t27 ^ t33
    let t36 = t24 & t35
    let t37 = t36 ^ t34
    let t38 = t27 ^ t36
    let t39 = t29 & t38
    let t40 = t25 ^ t39
    let t41 = t40 ^ t37
    let t42 = t29 ^ t33
    let t43 = t29 ^ t40
    let t44 = t33 ^ t37
    let t45 = t42 ^ t41
    let z0 = t44 & y15
    let z1 = t37 & y6
    let z2 = t33 & x7
    let z3 = t43 & y16
    let z4 = t40 & y1
    let z5 = t29 & y7
    let z6 = t42 & y11
    let z7 = t45 & y17
    let z8 = t41 & y10
    let z9 = t44 & y12
    let z10 = t37 & y3
    let z11 = t33 & y4
    let z12 = t43 & y13
    let z13 = t40 & y5
    let z14 = t29 & y2
    let z15 = t42 & y9
    let z16 = t45 & y14
    let z17 = t41 & y8

    // Bottom linear layer (with the affine constant 0x63 as complements).
    let t46 = z15 ^ z16
    let t47 = z10 ^ z11
    let t48 = z5 ^ z13
    let t49 = z9 ^ z10
    let t50 = z2 ^ z12
    let t51 = z2 ^ z5
    let t52 = z7 ^ z8
    let t53 = z0 ^ z3
    let t54 = z6 ^ z7
    let t55 = z16 ^ z17
    let t56 = z12 ^ t48
    let t57 = t50 ^ t53
    let t58 = z4 ^ t46
    let t59 = z3 ^ t54
    let t60 = t46 ^ t57
    let t61 = z14 ^ t57
    let t62 = t52 ^ t58
    let t63 = t49 ^ t58
    let t64 = z4 ^ t59
    let t65 = t61 ^ t62
    let t66 = z1 ^ t63
    let t67 = t64 ^ t65
    let out0 = t59 ^ t63
    let out6 = t56 ^ ~t62
    let out7 = t48 ^ ~t60
    let out3 = t53 ^ t66
    let out4 = t51 ^ t66
    let out5 = t47 ^ t65
    let out1 = t64 ^ ~out3
    let out2 = t55 ^ ~t67

    q.s7 = out0; q.s6 = out1; q.s5 = out2; q.s4 = out3
    q.s3 = out4; q.s2 = out5; q.s1 = out6; q.s0 = out7
}

/// G(y) = A⁻¹(y ⊕ 0x63) on every byte: bit i of the result is
/// y(i+2) ⊕ y(i+5) ⊕ y(i+7) (indices mod 8), then ⊕ 0x05 (FIPS 197 §5.3.2).
@inline(__always)
private func aesInverseAffine(_ q: inout AESSlices) {
    let y0 = q.s0, y1 = q.s1, y2 = q.s2, y3 = q.s3
    let y4 = q.s4, y5 = q.s5, y6 = q.s6, y7 = q.s7
    q.s0 = ~(y2 ^ y5 ^ y7)
    q.s1 = y3 ^ y6 ^ y0
    q.s2 = ~(y4 ^ y7 ^ y1)
    q.s3 = y5 ^ y0 ^ y2
    q.s4 = y6 ^ y1 ^ y3
    q.s5 = y7 ^ y2 ^ y4
    q.s6 = y0 ^ y3 ^ y5
    q.s7 = y1 ^ y4 ^ y6
}

/// The inverse S-box on every byte: G, then S, then G (see the top of the file).
@inline(__always)
func aesInverseSubBytes(_ q: inout AESSlices) {
    aesInverseAffine(&q)
    aesSubBytes(&q)
    aesInverseAffine(&q)
}

// MARK: ShiftRows

/// ShiftRows on one slice: row r (bits 16r..<16r+16, four columns of four bits)
/// rotates left by r columns, i.e. its lane rotates right by 4r bits.
@inline(__always)
private func shiftRows(_ x: UInt64) -> UInt64 {
    (x & 0x0000_0000_0000_FFFF)
        | ((x >> 4) & 0x0000_0000_0FFF_0000) | ((x << 12) & 0x0000_0000_F000_0000)
        | ((x >> 8) & 0x0000_00FF_0000_0000) | ((x << 8) & 0x0000_FF00_0000_0000)
        | ((x << 4) & 0xFFF0_0000_0000_0000) | ((x >> 12) & 0x000F_0000_0000_0000)
}

/// InvShiftRows on one slice: the inverse rotations.
@inline(__always)
private func inverseShiftRows(_ x: UInt64) -> UInt64 {
    (x & 0x0000_0000_0000_FFFF)
        | ((x << 4) & 0x0000_0000_FFF0_0000) | ((x >> 12) & 0x0000_0000_000F_0000)
        | ((x >> 8) & 0x0000_00FF_0000_0000) | ((x << 8) & 0x0000_FF00_0000_0000)
        | ((x >> 4) & 0x0FFF_0000_0000_0000) | ((x << 12) & 0xF000_0000_0000_0000)
}

@inline(__always)
func aesShiftRows(_ q: inout AESSlices) {
    q.s0 = shiftRows(q.s0); q.s1 = shiftRows(q.s1); q.s2 = shiftRows(q.s2); q.s3 = shiftRows(q.s3)
    q.s4 = shiftRows(q.s4); q.s5 = shiftRows(q.s5); q.s6 = shiftRows(q.s6); q.s7 = shiftRows(q.s7)
}

@inline(__always)
func aesInverseShiftRows(_ q: inout AESSlices) {
    q.s0 = inverseShiftRows(q.s0); q.s1 = inverseShiftRows(q.s1)
    q.s2 = inverseShiftRows(q.s2); q.s3 = inverseShiftRows(q.s3)
    q.s4 = inverseShiftRows(q.s4); q.s5 = inverseShiftRows(q.s5)
    q.s6 = inverseShiftRows(q.s6); q.s7 = inverseShiftRows(q.s7)
}

// MARK: MixColumns

/// Rotation right by 16 bits: each byte sees the byte one row below it in its
/// column (row 3 sees row 0).
@inline(__always)
private func nextRow(_ x: UInt64) -> UInt64 { (x >> 16) | (x << 48) }

/// Rotation by 32 bits: the byte two rows away.
@inline(__always)
private func rowPlusTwo(_ x: UInt64) -> UInt64 { (x >> 32) | (x << 32) }

/// Multiplication by x (0x02) in GF(2^8) mod x⁸+x⁴+x³+x+1 on bitsliced bytes:
/// a shift of the slices, the top bit folded back into bits 0, 1, 3 and 4.
@inline(__always)
private func times2(_ q: AESSlices) -> AESSlices {
    var r = AESSlices()
    r.s0 = q.s7
    r.s1 = q.s0 ^ q.s7
    r.s2 = q.s1
    r.s3 = q.s2 ^ q.s7
    r.s4 = q.s3 ^ q.s7
    r.s5 = q.s4
    r.s6 = q.s5
    r.s7 = q.s6
    return r
}

/// MixColumns (FIPS 197 §5.1.3): b(r) = 2·(a(r) ⊕ a(r+1)) ⊕ a(r+1) ⊕ (a(r+2) ⊕ a(r+3)),
/// where t = a ⊕ a(r+1) gives the last pair as t two rows down.
@inline(__always)
func aesMixColumns(_ q: inout AESSlices) {
    var t = AESSlices()
    t.s0 = q.s0 ^ nextRow(q.s0); t.s1 = q.s1 ^ nextRow(q.s1)
    t.s2 = q.s2 ^ nextRow(q.s2); t.s3 = q.s3 ^ nextRow(q.s3)
    t.s4 = q.s4 ^ nextRow(q.s4); t.s5 = q.s5 ^ nextRow(q.s5)
    t.s6 = q.s6 ^ nextRow(q.s6); t.s7 = q.s7 ^ nextRow(q.s7)
    let d = times2(t)
    q.s0 = d.s0 ^ nextRow(q.s0) ^ rowPlusTwo(t.s0); q.s1 = d.s1 ^ nextRow(q.s1) ^ rowPlusTwo(t.s1)
    q.s2 = d.s2 ^ nextRow(q.s2) ^ rowPlusTwo(t.s2); q.s3 = d.s3 ^ nextRow(q.s3) ^ rowPlusTwo(t.s3)
    q.s4 = d.s4 ^ nextRow(q.s4) ^ rowPlusTwo(t.s4); q.s5 = d.s5 ^ nextRow(q.s5) ^ rowPlusTwo(t.s5)
    q.s6 = d.s6 ^ nextRow(q.s6) ^ rowPlusTwo(t.s6); q.s7 = d.s7 ^ nextRow(q.s7) ^ rowPlusTwo(t.s7)
}

/// InvMixColumns (FIPS 197 §5.3.3) as MixColumns after the circulant
/// (05 00 04 00), since (0e 0b 0d 09) = (02 03 01 01)·(05 00 04 00) (Daemen and
/// Rijmen, "The Design of Rijndael", §4.1.3): a(r) ⊕= 4·(a(r) ⊕ a(r+2)).
@inline(__always)
func aesInverseMixColumns(_ q: inout AESSlices) {
    var u = AESSlices()
    u.s0 = q.s0 ^ rowPlusTwo(q.s0); u.s1 = q.s1 ^ rowPlusTwo(q.s1)
    u.s2 = q.s2 ^ rowPlusTwo(q.s2); u.s3 = q.s3 ^ rowPlusTwo(q.s3)
    u.s4 = q.s4 ^ rowPlusTwo(q.s4); u.s5 = q.s5 ^ rowPlusTwo(q.s5)
    u.s6 = q.s6 ^ rowPlusTwo(q.s6); u.s7 = q.s7 ^ rowPlusTwo(q.s7)
    let f = times2(times2(u))
    q.s0 ^= f.s0; q.s1 ^= f.s1; q.s2 ^= f.s2; q.s3 ^= f.s3
    q.s4 ^= f.s4; q.s5 ^= f.s5; q.s6 ^= f.s6; q.s7 ^= f.s7
    aesMixColumns(&q)
}

// MARK: Rounds

/// Encrypts four blocks (64 bytes) in place with bitsliced round keys (eight
/// slices per round key, `rounds + 1` of them).
func aesEncryptBitsliced(_ blocks: UnsafeMutablePointer<UInt8>, roundKeys: UnsafePointer<UInt64>, rounds: Int) {
    var q = aesPack(blocks)
    q.add(roundKeys)
    for round in 1..<rounds {
        aesSubBytes(&q)
        aesShiftRows(&q)
        aesMixColumns(&q)
        q.add(roundKeys + 8 * round)
    }
    aesSubBytes(&q)
    aesShiftRows(&q)
    q.add(roundKeys + 8 * rounds)
    aesUnpack(q, into: blocks)
}

/// Decrypts four blocks (64 bytes) in place (FIPS 197 §5.3, the inverse cipher).
func aesDecryptBitsliced(_ blocks: UnsafeMutablePointer<UInt8>, roundKeys: UnsafePointer<UInt64>, rounds: Int) {
    var q = aesPack(blocks)
    q.add(roundKeys + 8 * rounds)
    var round = rounds - 1
    while round > 0 {
        aesInverseShiftRows(&q)
        aesInverseSubBytes(&q)
        q.add(roundKeys + 8 * round)
        aesInverseMixColumns(&q)
        round -= 1
    }
    aesInverseShiftRows(&q)
    aesInverseSubBytes(&q)
    q.add(roundKeys)
    aesUnpack(q, into: blocks)
}

// MARK: Key expansion

/// The S-box on each byte of a 32-bit word (SubWord, FIPS 197 §5.2), through
/// the same circuit: byte j of the word goes to bit j of each slice.
func aesSubWord(_ word: UInt32) -> UInt32 {
    var q = AESSlices()
    func slice(_ bit: Int) -> UInt64 {
        var s: UInt64 = 0
        for j in 0..<4 {
            s |= UInt64((word >> (8 * j + bit)) & 1) << j
        }
        return s
    }
    q.s0 = slice(0); q.s1 = slice(1); q.s2 = slice(2); q.s3 = slice(3)
    q.s4 = slice(4); q.s5 = slice(5); q.s6 = slice(6); q.s7 = slice(7)
    aesSubBytes(&q)
    var out: UInt32 = 0
    for j in 0..<4 {
        func bit(_ slice: UInt64, _ index: Int) -> UInt32 {
            UInt32(truncatingIfNeeded: (slice >> j) & 1) << (8 * j + index)
        }
        out |= bit(q.s0, 0) | bit(q.s1, 1) | bit(q.s2, 2) | bit(q.s3, 3)
        out |= bit(q.s4, 4) | bit(q.s5, 5) | bit(q.s6, 6) | bit(q.s7, 7)
    }
    return out
}

/// The key expansion (FIPS 197 §5.2): the round keys as bytes, 16 per round
/// key, `rounds + 1` round keys. Words are little-endian here (byte 0 of a
/// word in its low bits), so RotWord is a rotation right by 8 and Rcon sits in
/// the low byte.
func aesExpandKey(_ key: UnsafeBufferPointer<UInt8>, rounds: Int) -> [UInt8] {
    let nk = key.count / 4
    let total = 4 * (rounds + 1)
    var words = [UInt32](repeating: 0, count: total)
    for i in 0..<nk {
        words[i] = UInt32(key[4 * i]) | UInt32(key[4 * i + 1]) << 8
            | UInt32(key[4 * i + 2]) << 16 | UInt32(key[4 * i + 3]) << 24
    }
    var rcon: UInt32 = 1
    for i in nk..<total {
        var temp = words[i - 1]
        if i % nk == 0 {
            temp = aesSubWord((temp >> 8) | (temp << 24)) ^ rcon
            // xtime of the round constant, which is public.
            rcon = (rcon << 1) ^ (0x11B & (0 &- (rcon >> 7)))
        } else if nk > 6 && i % nk == 4 {
            temp = aesSubWord(temp)
        }
        words[i] = words[i - nk] ^ temp
    }
    var bytes = [UInt8](repeating: 0, count: 4 * total)
    for i in 0..<total {
        for j in 0..<4 {
            bytes[4 * i + j] = UInt8(truncatingIfNeeded: words[i] >> (8 * j))
        }
    }
    zeroize(&words)
    return bytes
}

/// The bitsliced form of expanded round keys: eight slices per round key, each
/// key byte repeated for the four blocks.
func aesBitslicedRoundKeys(_ roundKeyBytes: [UInt8], rounds: Int) -> [UInt64] {
    var slices = [UInt64](repeating: 0, count: 8 * (rounds + 1))
    var four = [UInt8](repeating: 0, count: 64)
    for round in 0...rounds {
        for block in 0..<4 {
            for j in 0..<16 {
                four[16 * block + j] = roundKeyBytes[16 * round + j]
            }
        }
        let q = four.withUnsafeBufferPointer { buffer in buffer.baseAddress.map(aesPack) ?? AESSlices() }
        slices[8 * round] = q.s0
        slices[8 * round + 1] = q.s1
        slices[8 * round + 2] = q.s2
        slices[8 * round + 3] = q.s3
        slices[8 * round + 4] = q.s4
        slices[8 * round + 5] = q.s5
        slices[8 * round + 6] = q.s6
        slices[8 * round + 7] = q.s7
    }
    zeroize(&four)
    return slices
}
