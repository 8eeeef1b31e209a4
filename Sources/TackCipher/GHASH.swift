// GHASH, the universal hash of GCM (NIST SP 800-38D §6.4): multiplication by
// the hash key H in GF(2¹²⁸) modulo x¹²⁸ + x⁷ + x² + x + 1, in constant time.
//
// Representation. GCM numbers the bits of a block from the most significant
// bit of its first byte: that bit is the coefficient of x⁰. Read as one
// big-endian 128-bit integer V, the coefficient of xⁱ is bit 127 − i of V,
// so V is the polynomial with its bits reversed. The carry-less product of
// two such integers then holds the coefficient of xᵏ of the polynomial
// product at bit 254 − k; shifted left by one, at bit 255 − k, so that its
// upper 128 bits are coefficients 0…127 in the same reversed order and its
// lower 128 bits are coefficients 128…255, which fold back by
// x¹²⁸ ≡ x⁷ + x² + x + 1 (``ghashReduce``). Working on the reversed integers
// spares reversing every block's bits.
//
// Portable multiplication. No table is indexed by H or by the data (the
// 4-bit tables of SP 800-38D's reference method leak through the cache).
// A 64 × 64-bit carry-less product is computed with ordinary integer
// multiplications of operands whose bits are spread four apart
// (``carrylessMultiplyLow``): between the set bits of each operand there are
// three zero bits, so the at most 15 terms that meet at a bit position sum
// to at most 15 and never carry into the next position of the same class;
// the integer product's bit k then has the parity of the carry-less
// product's. That gives the low 64 bits of the product; the high 64 bits are
// the low bits of the product of the bit-reversed operands, reversed. The
// 128 × 128-bit product takes three of those (Karatsuba).
//
// On x86-64 with the AES-NI path, PCLMULQDQ does the 64 × 64-bit products
// instead (GHASHHardware.swift, reached through the compiler's `Builtin`
// module). On arm64, `vmull_p64` (PMULL) returns `poly128_t`, a 128-bit
// integer the Clang importer cannot import (Swift 6.3.1), so the portable
// multiplication runs there.

/// A GF(2¹²⁸) element as GCM lays it out: `high` is the block's first eight
/// bytes read big-endian, `low` its last eight.
struct GHASHBlock: Sendable, Equatable {
    var high: UInt64
    var low: UInt64

    static let zero = GHASHBlock(high: 0, low: 0)

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The 16 bytes at `bytes`.
    @inline(__always)
    init(_ bytes: UnsafePointer<UInt8>) {
        high = UInt64(bigEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
        low = UInt64(bigEndian: UnsafeRawPointer(bytes + 8).loadUnaligned(as: UInt64.self))
    }

    /// Writes the 16 bytes to `bytes`.
    @inline(__always)
    func store(_ bytes: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(bytes).storeBytes(of: high.bigEndian, as: UInt64.self)
        UnsafeMutableRawPointer(bytes + 8).storeBytes(of: low.bigEndian, as: UInt64.self)
    }

    @inline(__always)
    static func ^ (a: GHASHBlock, b: GHASHBlock) -> GHASHBlock {
        GHASHBlock(high: a.high ^ b.high, low: a.low ^ b.low)
    }
}

/// One operand of 64 × 64-bit carry-less products, prepared once: its bits
/// split into the four classes of positions modulo 4, and the same for its bit
/// reversal (for the high half of the product). GHASH's operand is H, fixed
/// per key, so the preparation is per key, not per block.
struct CarrylessOperand {
    var classes: (UInt64, UInt64, UInt64, UInt64)
    var reversedClasses: (UInt64, UInt64, UInt64, UInt64)

    init(_ y: UInt64) {
        classes = splitClasses(y)
        reversedClasses = splitClasses(y.bitReversed)
    }
}

/// `y`'s bits at positions ≡ 0, 1, 2, 3 (mod 4).
@inline(__always)
func splitClasses(_ y: UInt64) -> (UInt64, UInt64, UInt64, UInt64) {
    (y & 0x1111_1111_1111_1111, y & 0x2222_2222_2222_2222, y & 0x4444_4444_4444_4444, y & 0x8888_8888_8888_8888)
}

/// The low 64 bits of the carry-less product of `x` and the operand whose
/// classes are `y`, branch-free and without tables: four integer products per
/// class (see the top of this file for why the holes keep the parities exact).
@inline(__always)
func carrylessMultiplyLow(_ x: UInt64, _ y: (UInt64, UInt64, UInt64, UInt64)) -> UInt64 {
    let (x0, x1, x2, x3) = splitClasses(x)
    let (y0, y1, y2, y3) = y
    // The terms xᵢ·yⱼ land on positions ≡ i + j (mod 4).
    let z0 = (x0 &* y0) ^ (x1 &* y3) ^ (x2 &* y2) ^ (x3 &* y1)
    let z1 = (x0 &* y1) ^ (x1 &* y0) ^ (x2 &* y3) ^ (x3 &* y2)
    let z2 = (x0 &* y2) ^ (x1 &* y1) ^ (x2 &* y0) ^ (x3 &* y3)
    let z3 = (x0 &* y3) ^ (x1 &* y2) ^ (x2 &* y1) ^ (x3 &* y0)
    let (m0, m1, m2, m3) = splitClasses(~0)
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3)
}

/// The 128-bit carry-less product of `x` and `y`: the low half directly, the
/// high half from the bit-reversed operands (whose product is the reversed
/// 127-bit product).
@inline(__always)
func carrylessMultiply(_ x: UInt64, _ y: CarrylessOperand) -> (high: UInt64, low: UInt64) {
    let low = carrylessMultiplyLow(x, y.classes)
    let reversed = carrylessMultiplyLow(x.bitReversed, y.reversedClasses)
    return (reversed.bitReversed >> 1, low)
}

extension UInt64 {
    /// The 64 bits in reverse order, by swapping ever smaller groups (no table).
    @inline(__always)
    var bitReversed: UInt64 {
        var v = self.byteSwapped
        v = ((v >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((v & 0x0f0f_0f0f_0f0f_0f0f) << 4)
        v = ((v >> 2) & 0x3333_3333_3333_3333) | ((v & 0x3333_3333_3333_3333) << 2)
        v = ((v >> 1) & 0x5555_5555_5555_5555) | ((v & 0x5555_5555_5555_5555) << 1)
        return v
    }
}

/// A GF(2¹²⁸) multiplier prepared as Karatsuba's three 64-bit operands: its
/// low word, its high word and their sum.
struct GHASHMultiplier {
    var low: CarrylessOperand
    var high: CarrylessOperand
    var sum: CarrylessOperand

    init(_ b: GHASHBlock) {
        low = CarrylessOperand(b.low)
        high = CarrylessOperand(b.high)
        sum = CarrylessOperand(b.low ^ b.high)
    }

    /// Overwrites the prepared words (a copy of H's).
    mutating func wipe() {
        self = GHASHMultiplier(.zero)
        ghashKeepStore(&self)
    }

    /// a·b in GCM's field: the 255-bit carry-less product by Karatsuba (three
    /// 64 × 64-bit products instead of four), shifted and reduced.
    @inline(__always)
    func multiply(_ a: GHASHBlock) -> GHASHBlock {
        let low = carrylessMultiply(a.low, self.low)
        let high = carrylessMultiply(a.high, self.high)
        let middle = carrylessMultiply(a.low ^ a.high, sum)
        let middleHigh = middle.high ^ low.high ^ high.high
        let middleLow = middle.low ^ low.low ^ high.low
        return ghashReduce(high.high, high.low ^ middleHigh, low.high ^ middleLow, low.low)
    }
}

/// Keeps a wiping store from being dropped as dead: out of line, the compiler
/// cannot see that nothing reads the value afterwards.
@inline(never)
func ghashKeepStore<Value>(_ value: inout Value) {}

/// Shifts the 255-bit product w₃‖w₂‖w₁‖w₀ (most significant word first) left
/// by one (see the top of this file) and folds its lower 128 bits,
/// coefficients 128…255, back by x¹²⁸ ≡ 1 + x + x² + x⁷.
///
/// In the reversed order a multiplication by x is a shift right by one, so the
/// lower word's bits land 128, 127, 126 and 121 places up; the bits that cross
/// into the lower half again (from word 0 into word 1) are folded by the
/// second round.
@inline(__always)
func ghashReduce(_ w3: UInt64, _ w2: UInt64, _ w1: UInt64, _ w0: UInt64) -> GHASHBlock {
    var z3 = (w3 << 1) | (w2 >> 63)
    var z2 = (w2 << 1) | (w1 >> 63)
    var z1 = (w1 << 1) | (w0 >> 63)
    let z0 = w0 << 1
    z2 ^= z0 ^ (z0 >> 1) ^ (z0 >> 2) ^ (z0 >> 7)
    z1 ^= (z0 << 63) ^ (z0 << 62) ^ (z0 << 57)
    z3 ^= z1 ^ (z1 >> 1) ^ (z1 >> 2) ^ (z1 >> 7)
    z2 ^= (z1 << 63) ^ (z1 << 62) ^ (z1 << 57)
    return GHASHBlock(high: z3, low: z2)
}

/// a·b in GCM's field, portable and constant-time.
func ghashMultiply(_ a: GHASHBlock, _ b: GHASHBlock) -> GHASHBlock {
    GHASHMultiplier(b).multiply(a)
}

/// A GHASH key: H, prepared once per key as a ``GHASHMultiplier`` and, on the
/// PCLMULQDQ path (GHASHHardware.swift), as H, H², …, H⁸ for eight blocks per
/// reduction. Secret: wiped by its owner.
struct GHASHKey {
    var multiplier: GHASHMultiplier
    /// Whether `absorb` runs on PCLMULQDQ (asked for, and available).
    let usesHardware: Bool
    /// H, H², H³, H⁴ for the hardware path (H's words only when it is off).
    var hardwarePowers: (GHASHHardwareOperand, GHASHHardwareOperand, GHASHHardwareOperand, GHASHHardwareOperand)
    /// H⁵, H⁶, H⁷, H⁸ for the hardware path's eight blocks per reduction (likewise).
    var hardwareHighPowers: (GHASHHardwareOperand, GHASHHardwareOperand, GHASHHardwareOperand, GHASHHardwareOperand)

    /// The key for H.
    ///
    /// - Parameters:
    ///   - h: H, the encrypted zero block.
    ///   - hardware: Whether to use PCLMULQDQ when this build and CPU have it
    ///     (AES-GCM asks for it with its AES-NI path).
    init(_ h: GHASHBlock, hardware: Bool = false) {
        multiplier = GHASHMultiplier(h)
        usesHardware = hardware && hardwareCarrylessIsAvailable
        if usesHardware {
            let h2 = multiplier.multiply(h)
            let h3 = multiplier.multiply(h2)
            let h4 = multiplier.multiply(h3)
            let h5 = multiplier.multiply(h4)
            let h6 = multiplier.multiply(h5)
            let h7 = multiplier.multiply(h6)
            let h8 = multiplier.multiply(h7)
            hardwarePowers = (
                GHASHHardwareOperand(h), GHASHHardwareOperand(h2), GHASHHardwareOperand(h3), GHASHHardwareOperand(h4)
            )
            hardwareHighPowers = (
                GHASHHardwareOperand(h5), GHASHHardwareOperand(h6), GHASHHardwareOperand(h7), GHASHHardwareOperand(h8)
            )
        } else {
            let operand = GHASHHardwareOperand(.zero)
            hardwarePowers = (operand, operand, operand, operand)
            hardwareHighPowers = (operand, operand, operand, operand)
        }
    }

    /// Overwrites H's prepared words and powers.
    mutating func wipe() {
        multiplier.wipe()
        let zero = GHASHHardwareOperand(.zero)
        hardwarePowers = (zero, zero, zero, zero)
        ghashKeepStore(&hardwarePowers)
        hardwareHighPowers = (zero, zero, zero, zero)
        ghashKeepStore(&hardwareHighPowers)
    }

    /// Absorbs `count` whole blocks at `blocks` into `state`:
    /// state ← (state ⊕ block)·H for each block in turn.
    func absorb(_ state: inout GHASHBlock, _ blocks: UnsafePointer<UInt8>, count: Int) {
        if usesHardware {
            absorbHardware(&state, blocks, count: count)
            return
        }
        let multiplier = self.multiplier
        for index in 0..<count {
            state = multiplier.multiply(state ^ GHASHBlock(blocks + 16 * index))
        }
    }

    /// Absorbs `bytes`, the last partial block padded with zeros
    /// (SP 800-38D §7.1 steps 5 and 6: A ‖ 0ᵛ and C ‖ 0ᵘ).
    func absorbPadded(_ state: inout GHASHBlock, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let whole = bytes.count / 16
        absorb(&state, base, count: whole)
        let rest = bytes.count - 16 * whole
        guard rest > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { scratch in
            guard let block = scratch.baseAddress else { return }
            block.initialize(repeating: 0, count: 16)
            block.update(from: base + 16 * whole, count: rest)
            absorb(&state, block, count: 1)
            block.update(repeating: 0, count: 16)
        }
    }
}
