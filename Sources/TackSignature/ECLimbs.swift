// Fixed-width multi-precision integers for the elliptic-curve code (P-256,
// P-384, P-521 and Ed25519): little-endian 64-bit limbs held inline in a
// tuple, so that field elements, scalars and points never touch the heap.
//
// The limb count is a static property of each storage type. The hot
// operations (Montgomery product, modular addition and subtraction) are
// straight-line code generated per limb count into ECLimbArithmetic.swift by
// scripts/generate-ec-limb-arithmetic.py; the rest (conversions, comparisons,
// bit access) are the generic loops below, off the hot path or short.

/// Inline storage for a fixed number of little-endian 64-bit limbs.
///
/// Limb 0 is the least significant. Indices come only from internal loops
/// bounded by `limbCount`, never from input.
protocol ECLimbs: Sendable, Hashable {
    /// The number of 64-bit limbs.
    static var limbCount: Int { get }
    /// The value zero.
    init()
    /// Limb `index` (0 is least significant); `index` is in `0..<limbCount`.
    subscript(index: Int) -> UInt64 { get set }

    // Straight-line arithmetic, generated per limb count (ECLimbArithmetic.swift).

    /// a·b·2^(−64·limbCount) mod m, for a·b < 2^(64·limbCount)·m; result < m.
    /// `shape` selects a dedicated routine for a well-known modulus.
    static func montgomeryMultiply(
        _ a: Self, _ b: Self, modulus: Self, negativeInverse: UInt64, shape: ECModulusShape
    ) -> Self
    /// a²·2^(−64·limbCount) mod m for a < m; result < m. The same value as
    /// `montgomeryMultiply(a, a, …)`, by a dedicated squaring where `shape`
    /// has one.
    static func montgomerySquare(_ a: Self, modulus: Self, negativeInverse: UInt64, shape: ECModulusShape) -> Self
    /// (a + b) mod m for a, b < m.
    static func modularAdd(_ a: Self, _ b: Self, modulus: Self) -> Self
    /// (a − b) mod m for a, b < m.
    static func modularSubtract(_ a: Self, _ b: Self, modulus: Self) -> Self
    /// a / 2 mod m for a < m and odd m.
    static func modularHalve(_ a: Self, modulus: Self) -> Self
}

/// Moduli with a dedicated multiplication routine.
enum ECModulusShape: Sendable {
    /// Any odd modulus: the generic unrolled Montgomery product.
    case generic
    /// The P-256 prime 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1: reduction rounds of one
    /// word product each (`p256MontgomeryMultiply`, `p256MontgomerySquare`).
    case p256Prime
    /// The P-521 prime 2⁵²¹ − 1: Mersenne folding instead of Montgomery
    /// reduction (`p521MontgomeryMultiply`, `p521MontgomerySquare`).
    case p521Prime
}

// Limb access is a switch over the tuple's elements, not a raw load at byte
// offset 8·index from `withUnsafeBytes(of: storage)` (what it was). Under
// Embedded Swift (Swift 6.3.1, -O and -Osize; not -Onone, not ordinary Swift)
// the SIL optimizer drops the stores that fill the temporary copy of a
// constant tuple when the read is at offset 0, so `p[0]` of a curve constant
// read uninitialised stack: LLVM folded the curve initialisers of P-256, P-384
// and Ed25519 (`ECMontgomeryField.init`'s precondition on `modulus[0]`) into
// a trap, and the Embedded test program stopped at its first P-256 key on
// aarch64, armv7 and riscv64 (Tests/Embedded/README.md, "The start-up
// trap"). A switch involves no memory at all: with a constant index (the
// unrolled loops) it folds to the element, with a variable one it is a
// select or a small jump table; the hot arithmetic destructures `storage`
// directly (ECLimbArithmetic.swift) and never came through here.

/// Four limbs: 256 bits (P-256 field and order, Ed25519 field and order).
struct ECLimbs4: ECLimbs {
    var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    static var limbCount: Int { 4 }
    init() {}
    init(_ storage: (UInt64, UInt64, UInt64, UInt64)) { self.storage = storage }

    @inline(__always)
    static func montgomeryMultiply(
        _ a: Self, _ b: Self, modulus: Self, negativeInverse: UInt64, shape: ECModulusShape
    ) -> Self {
        switch shape {
        case .p256Prime: p256MontgomeryMultiply(a, b)
        case .generic, .p521Prime: montgomeryProduct(a, b, modulus: modulus, negativeInverse: negativeInverse)
        }
    }

    @inline(__always)
    static func montgomerySquare(_ a: Self, modulus: Self, negativeInverse: UInt64, shape: ECModulusShape) -> Self {
        switch shape {
        case .p256Prime: p256MontgomerySquare(a)
        case .generic, .p521Prime: montgomeryProduct(a, a, modulus: modulus, negativeInverse: negativeInverse)
        }
    }

    subscript(index: Int) -> UInt64 {
        @inline(__always) get {
            switch index {
            case 0: storage.0
            case 1: storage.1
            case 2: storage.2
            default: storage.3
            }
        }
        @inline(__always) set {
            switch index {
            case 0: storage.0 = newValue
            case 1: storage.1 = newValue
            case 2: storage.2 = newValue
            default: storage.3 = newValue
            }
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.isEqual(to: rhs) }
}

/// Six limbs: 384 bits (P-384 field and order).
struct ECLimbs6: ECLimbs {
    var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    static var limbCount: Int { 6 }
    init() {}
    init(_ storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) { self.storage = storage }

    @inline(__always)
    static func montgomeryMultiply(
        _ a: Self, _ b: Self, modulus: Self, negativeInverse: UInt64, shape: ECModulusShape
    ) -> Self {
        montgomeryProduct(a, b, modulus: modulus, negativeInverse: negativeInverse)  // no dedicated routine
    }

    @inline(__always)
    static func montgomerySquare(_ a: Self, modulus: Self, negativeInverse: UInt64, shape: ECModulusShape) -> Self {
        montgomeryProduct(a, a, modulus: modulus, negativeInverse: negativeInverse)  // no dedicated routine
    }

    subscript(index: Int) -> UInt64 {
        @inline(__always) get {
            switch index {
            case 0: storage.0
            case 1: storage.1
            case 2: storage.2
            case 3: storage.3
            case 4: storage.4
            default: storage.5
            }
        }
        @inline(__always) set {
            switch index {
            case 0: storage.0 = newValue
            case 1: storage.1 = newValue
            case 2: storage.2 = newValue
            case 3: storage.3 = newValue
            case 4: storage.4 = newValue
            default: storage.5 = newValue
            }
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.isEqual(to: rhs) }
}

/// Nine limbs: 576 bits (P-521 field and order, 521 bits each).
struct ECLimbs9: ECLimbs {
    var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
    static var limbCount: Int { 9 }
    init() {}
    init(_ storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) { self.storage = storage }

    @inline(__always)
    static func montgomeryMultiply(
        _ a: Self, _ b: Self, modulus: Self, negativeInverse: UInt64, shape: ECModulusShape
    ) -> Self {
        switch shape {
        case .p521Prime: p521MontgomeryMultiply(a, b)
        case .generic, .p256Prime: montgomeryProduct(a, b, modulus: modulus, negativeInverse: negativeInverse)
        }
    }

    @inline(__always)
    static func montgomerySquare(_ a: Self, modulus: Self, negativeInverse: UInt64, shape: ECModulusShape) -> Self {
        switch shape {
        case .p521Prime: p521MontgomerySquare(a)
        case .generic, .p256Prime: montgomeryProduct(a, a, modulus: modulus, negativeInverse: negativeInverse)
        }
    }

    subscript(index: Int) -> UInt64 {
        @inline(__always) get {
            switch index {
            case 0: storage.0
            case 1: storage.1
            case 2: storage.2
            case 3: storage.3
            case 4: storage.4
            case 5: storage.5
            case 6: storage.6
            case 7: storage.7
            default: storage.8
            }
        }
        @inline(__always) set {
            switch index {
            case 0: storage.0 = newValue
            case 1: storage.1 = newValue
            case 2: storage.2 = newValue
            case 3: storage.3 = newValue
            case 4: storage.4 = newValue
            case 5: storage.5 = newValue
            case 6: storage.6 = newValue
            case 7: storage.7 = newValue
            default: storage.8 = newValue
            }
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.isEqual(to: rhs) }
}

extension ECLimbs {
    /// A value with limb 0 set to `value` and the others zero.
    @inline(__always)
    init(small value: UInt64) {
        self.init()
        self[0] = value
    }

    /// Decodes an unsigned big-endian integer, in place: one forward pass
    /// over `bytes`, no copy (a reversed view of a plain `Collection` would
    /// be an array).
    ///
    /// - Returns: `nil` when the value does not fit in `limbCount` limbs
    ///   (leading zero bytes beyond the width are accepted).
    @inline(__always)
    init?(bigEndian bytes: some Collection<UInt8>) {
        self.init()
        // Bit position of the current byte's least significant bit.
        var bitPosition = 8 * bytes.count
        for byte in bytes {
            bitPosition -= 8
            let limbIndex = bitPosition >> 6
            if limbIndex >= Self.limbCount {
                guard byte == 0 else { return nil }
            } else {
                self[limbIndex] |= UInt64(byte) << UInt64(bitPosition & 63)
            }
        }
    }

    /// Decodes an unsigned little-endian integer (Ed25519's byte order).
    ///
    /// - Returns: `nil` when the value does not fit in `limbCount` limbs.
    init?(littleEndian bytes: some Collection<UInt8>) {
        self.init()
        var bitPosition = 0
        for byte in bytes {
            let limbIndex = bitPosition >> 6
            if limbIndex >= Self.limbCount {
                guard byte == 0 else { return nil }
            } else {
                self[limbIndex] |= UInt64(byte) << UInt64(bitPosition & 63)
            }
            bitPosition += 8
        }
    }

    /// The same integer in another limb type, or nil when it does not fit.
    @inline(__always)
    init?<Other: ECLimbs>(resizing other: Other) {
        self.init()
        for i in 0..<Other.limbCount {
            if i < Self.limbCount {
                self[i] = other[i]
            } else if other[i] != 0 {
                return nil
            }
        }
    }

    /// The value as exactly `byteCount` big-endian bytes (the high limbs are
    /// truncated if they do not fit; callers pass a width that holds the value).
    func bigEndianBytes(count byteCount: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for i in 0..<byteCount {
            let limbIndex = i / 8
            guard limbIndex < Self.limbCount else { break }
            bytes[byteCount - 1 - i] = UInt8(truncatingIfNeeded: self[limbIndex] >> UInt64((i % 8) * 8))
        }
        return bytes
    }

    /// The value as `byteCount` little-endian bytes.
    func littleEndianBytes(count byteCount: Int) -> [UInt8] {
        bigEndianBytes(count: byteCount).reversed()
    }

    /// Hashes the limbs, consistently with `==`.
    func hash(into hasher: inout Hasher) {
        for i in 0..<Self.limbCount { hasher.combine(self[i]) }
    }

    @inline(__always)
    func isEqual(to other: Self) -> Bool {
        var difference: UInt64 = 0
        for i in 0..<Self.limbCount { difference |= self[i] ^ other[i] }
        return difference == 0
    }

    /// Whether every limb is zero.
    @inline(__always)
    var isZero: Bool {
        var accumulator: UInt64 = 0
        for i in 0..<Self.limbCount { accumulator |= self[i] }
        return accumulator == 0
    }

    /// Whether `self < other` as unsigned integers.
    @inline(__always)
    func isLess(than other: Self) -> Bool {
        var i = Self.limbCount - 1
        while i >= 0 {
            if self[i] != other[i] { return self[i] < other[i] }
            i -= 1
        }
        return false
    }

    /// Bit `index` (0 is least significant); zero beyond the width.
    @inline(__always)
    func bit(_ index: Int) -> UInt64 {
        let limbIndex = index >> 6
        guard limbIndex < Self.limbCount else { return 0 }
        return (self[limbIndex] >> UInt64(index & 63)) & 1
    }

    /// The `count` bits from bit `index` up (1 ≤ count ≤ 63), as the low bits
    /// of a word; bits past the top limb read as zero.
    @inline(__always)
    func bits(from index: Int, count: Int) -> UInt64 {
        let limbIndex = index >> 6
        guard limbIndex < Self.limbCount else { return 0 }
        let shift = UInt64(index & 63)
        var word = self[limbIndex] >> shift
        if shift != 0 && limbIndex + 1 < Self.limbCount { word |= self[limbIndex + 1] << (64 - shift) }
        return word & ((1 << UInt64(count)) - 1)
    }

    /// The number of significant bits (0 for zero).
    var bitWidth: Int {
        var i = Self.limbCount - 1
        while i >= 0 {
            if self[i] != 0 { return i * 64 + 64 - self[i].leadingZeroBitCount }
            i -= 1
        }
        return 0
    }

    /// `self + other`, returning the carry out of the top limb.
    @inline(__always)
    func addingWithCarry(_ other: Self) -> (sum: Self, carry: UInt64) {
        var result = Self()
        var carry: UInt64 = 0
        for i in 0..<Self.limbCount {
            // Limb arithmetic: the wrap is the carry, captured by the overflow flags.
            let (s1, c1) = self[i].addingReportingOverflow(other[i])
            let (s2, c2) = s1.addingReportingOverflow(carry)
            result[i] = s2
            carry = (c1 ? 1 : 0) &+ (c2 ? 1 : 0)
        }
        return (result, carry)
    }

    /// `self - other`, returning the borrow out of the top limb.
    @inline(__always)
    func subtractingWithBorrow(_ other: Self) -> (difference: Self, borrow: UInt64) {
        var result = Self()
        var borrow: UInt64 = 0
        for i in 0..<Self.limbCount {
            // Limb arithmetic: the wrap is the borrow, captured by the overflow flags.
            let (d1, b1) = self[i].subtractingReportingOverflow(other[i])
            let (d2, b2) = d1.subtractingReportingOverflow(borrow)
            result[i] = d2
            borrow = (b1 ? 1 : 0) &+ (b2 ? 1 : 0)
        }
        return (result, borrow)
    }

    /// Shifts right by `count` bits, `0 ≤ count < 64`.
    func shiftedRight(by count: Int) -> Self {
        guard count > 0 else { return self }
        var result = Self()
        for i in 0..<Self.limbCount {
            var limb = self[i] >> UInt64(count)
            if i + 1 < Self.limbCount { limb |= self[i + 1] << UInt64(64 - count) }
            result[i] = limb
        }
        return result
    }
}
