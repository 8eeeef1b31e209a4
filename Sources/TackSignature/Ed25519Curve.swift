// The twisted Edwards curve edwards25519, −x² + y² = 1 + d·x²·y² over
// GF(2²⁵⁵ − 19) (RFC 8032 §5.1, RFC 7748 §4.1), with the group arithmetic
// Ed25519 verification needs.
//
// Points are in extended coordinates (X : Y : Z : T) with x = X/Z, y = Y/Z,
// x·y = T/Z (Hisil, Wong, Carter, Dawson, "Twisted Edwards curves revisited",
// ASIACRYPT 2008). With a = −1 and d not a square, the addition law is complete:
// it needs no case analysis for doubling, the identity or inverses (RFC 8032
// §5.1.4). Field elements are in Montgomery form, on the same generic field as
// the NIST curves.

/// A point in extended coordinates.
struct Ed25519Point: Sendable {
    var x: ECLimbs4
    var y: ECLimbs4
    var z: ECLimbs4
    var t: ECLimbs4
}

/// A point prepared for repeated addition: (Y + X, Y − X, 2d·T, 2Z)
/// ("cached" form, saving two multiplications per addition).
struct Ed25519CachedPoint: Sendable {
    var yPlusX: ECLimbs4
    var yMinusX: ECLimbs4
    var t2d: ECLimbs4
    var z2: ECLimbs4
}

/// An affine point prepared for addition: (y + x, y − x, 2d·x·y), Z = 1.
struct Ed25519AffineCachedPoint: Sendable {
    var yPlusX: ECLimbs4
    var yMinusX: ECLimbs4
    var t2d: ECLimbs4
}

/// Curve constants and the precomputed multiples of the base point.
struct Ed25519Curve: Sendable {
    /// GF(p), p = 2²⁵⁵ − 19.
    let field: ECMontgomeryField<ECLimbs4>
    /// Integers mod L = 2²⁵² + 27742317777372353535851937790883648493, the
    /// order of the base point (RFC 8032 §5.1).
    let order: ECMontgomeryField<ECLimbs4>
    /// d = −121665/121666 (RFC 8032 §5.1), Montgomery form.
    let d: ECLimbs4
    /// 2d, Montgomery form.
    let d2: ECLimbs4
    /// √−1 = 2^((p−1)/4) (RFC 8032 §5.1.3 step 3), Montgomery form.
    let squareRootOfMinusOne: ECLimbs4
    /// (p − 5)/8, the exponent of the square-root candidate (RFC 8032 §5.1.3 step 2).
    let squareRootExponent: ECLimbs4
    /// B, 3B, 5B, …, (2^(w−1) − 1)B for the width-w NAF of S (filled at the
    /// end of `init`, which needs the other constants to compute it).
    private(set) var baseTable: [Ed25519AffineCachedPoint]

    /// NAF width for the base point (a table of 32 points, built once).
    static var baseWindow: Int { 7 }
    /// NAF width for the public key (8 points per verification).
    static var publicKeyWindow: Int { 5 }

    static let shared = Ed25519Curve()

    private init() {
        let field = ECMontgomeryField(
            modulus: ECLimbs4((0xffffffffffffffed, 0xffffffffffffffff, 0xffffffffffffffff, 0x7fffffffffffffff)))
        self.field = field
        self.order = ECMontgomeryField(
            modulus: ECLimbs4((0x5812631a5cf5d3ed, 0x14def9dea2f79cd6, 0x0000000000000000, 0x1000000000000000)))
        // d = −121665 · 121666⁻¹ mod p.
        let numerator = field.toMontgomery(ECLimbs4(small: 121665))
        let denominator = field.toMontgomery(ECLimbs4(small: 121666))
        let d = field.negate(field.multiply(numerator, field.inverse(denominator)))
        self.d = d
        self.d2 = field.add(d, d)
        // (p − 1)/4 and (p − 5)/8, from p = 2²⁵⁵ − 19.
        let pMinusOne = field.modulus.subtractingWithBorrow(ECLimbs4(small: 1)).difference
        self.squareRootOfMinusOne = field.power(field.toMontgomery(ECLimbs4(small: 2)), pMinusOne.shiftedRight(by: 2))
        let pMinusFive = field.modulus.subtractingWithBorrow(ECLimbs4(small: 5)).difference
        self.squareRootExponent = pMinusFive.shiftedRight(by: 3)
        self.baseTable = []

        // The base point B: y = 4/5 with x even (RFC 8032 §5.1), whose encoding
        // is 0x58 followed by thirty-one 0x66 bytes.
        let baseEncoding: [UInt8] = [0x58] + [UInt8](repeating: 0x66, count: 31)
        guard let base = decode(baseEncoding) else {
            // Internal invariant: the RFC's base point decodes.
            preconditionFailure("the Ed25519 base point must decode")
        }
        var table: [Ed25519AffineCachedPoint] = []
        let count = 1 << (Self.baseWindow - 2)
        table.reserveCapacity(count)
        let twoB = cached(double(base))
        var current = base
        for _ in 0..<count {
            let zInverse = field.inverse(current.z)
            let x = field.multiply(current.x, zInverse)
            let y = field.multiply(current.y, zInverse)
            table.append(Ed25519AffineCachedPoint(
                yPlusX: field.add(y, x), yMinusX: field.subtract(y, x), t2d: field.multiply(field.multiply(x, y), d2)))
            current = add(current, twoB)
        }
        self.baseTable = table
    }

    // MARK: Encoding (RFC 8032 §5.1.2, §5.1.3)

    /// Decodes a 32-byte point encoding, or nil if it does not decode: y ≥ p
    /// (non-canonical), no square root, or x = 0 with the sign bit set.
    func decode(_ bytes: [UInt8]) -> Ed25519Point? {
        guard bytes.count == 32 else { return nil }
        var yBytes = bytes
        let sign = yBytes[31] >> 7
        yBytes[31] &= 0x7f
        guard let yValue = ECLimbs4(littleEndian: yBytes), yValue.isLess(than: field.modulus) else { return nil }
        let y = field.toMontgomery(yValue)
        let one = field.one
        let y2 = field.square(y)
        let u = field.subtract(y2, one)  // y² − 1
        let v = field.add(field.multiply(d, y2), one)  // d·y² + 1
        // x = u·v³·(u·v⁷)^((p−5)/8)
        let v3 = field.multiply(field.square(v), v)
        let v7 = field.multiply(field.square(v3), v)
        var x = field.multiply(field.multiply(u, v3), field.power(field.multiply(u, v7), squareRootExponent))
        let vx2 = field.multiply(v, field.square(x))
        if vx2 == u {
            // x is a square root of u/v.
        } else if vx2 == field.negate(u) {
            x = field.multiply(x, squareRootOfMinusOne)
        } else {
            return nil
        }
        let xIsOdd = field.fromMontgomery(x)[0] & 1
        if x.isZero && sign == 1 { return nil }
        if xIsOdd != UInt64(sign) { x = field.negate(x) }
        return Ed25519Point(x: x, y: y, z: one, t: field.multiply(x, y))
    }

    /// The 32-byte encoding: y little-endian with the parity of x in bit 255.
    func encode(_ point: Ed25519Point) -> [UInt8] {
        let zInverse = field.inverse(point.z)
        let x = field.fromMontgomery(field.multiply(point.x, zInverse))
        let y = field.fromMontgomery(field.multiply(point.y, zInverse))
        var bytes = y.littleEndianBytes(count: 32)
        bytes[31] |= UInt8(truncatingIfNeeded: x[0] & 1) << 7
        return bytes
    }

    // MARK: Group law

    func cached(_ p: Ed25519Point) -> Ed25519CachedPoint {
        Ed25519CachedPoint(
            yPlusX: field.add(p.y, p.x), yMinusX: field.subtract(p.y, p.x),
            t2d: field.multiply(p.t, d2), z2: field.add(p.z, p.z))
    }

    func negated(_ p: Ed25519Point) -> Ed25519Point {
        Ed25519Point(x: field.negate(p.x), y: p.y, z: p.z, t: field.negate(p.t))
    }

    /// 2P (dbl-2008-hwcd with a = −1: 4M + 4S).
    @inline(__always)
    func double(_ p: Ed25519Point) -> Ed25519Point {
        let a = field.square(p.x)
        let b = field.square(p.y)
        let zz = field.square(p.z)
        let c = field.add(zz, zz)
        let xy = field.add(p.x, p.y)
        let e = field.subtract(field.subtract(field.square(xy), a), b)
        let g = field.subtract(b, a)  // D + B with D = a·A = −A
        let f = field.subtract(g, c)
        let h = field.negate(field.add(a, b))  // D − B
        return Ed25519Point(
            x: field.multiply(e, f), y: field.multiply(g, h), z: field.multiply(f, g), t: field.multiply(e, h))
    }

    /// P + Q for Q in cached form (add-2008-hwcd-3: 8M), or P − Q when `subtract`.
    @inline(__always)
    func add(_ p: Ed25519Point, _ q: Ed25519CachedPoint, subtract: Bool = false) -> Ed25519Point {
        // −Q swaps Y + X with Y − X and negates T.
        let a = field.multiply(field.subtract(p.y, p.x), subtract ? q.yPlusX : q.yMinusX)
        let b = field.multiply(field.add(p.y, p.x), subtract ? q.yMinusX : q.yPlusX)
        let tt = field.multiply(p.t, q.t2d)
        let c = subtract ? field.negate(tt) : tt
        let dd = field.multiply(p.z, q.z2)
        let e = field.subtract(b, a)
        let f = field.subtract(dd, c)
        let g = field.add(dd, c)
        let h = field.add(b, a)
        return Ed25519Point(
            x: field.multiply(e, f), y: field.multiply(g, h), z: field.multiply(f, g), t: field.multiply(e, h))
    }

    /// P + Q for an affine Q (madd: 7M), or P − Q when `subtract`.
    @inline(__always)
    func add(_ p: Ed25519Point, _ q: Ed25519AffineCachedPoint, subtract: Bool) -> Ed25519Point {
        let a = field.multiply(field.subtract(p.y, p.x), subtract ? q.yPlusX : q.yMinusX)
        let b = field.multiply(field.add(p.y, p.x), subtract ? q.yMinusX : q.yPlusX)
        let tt = field.multiply(p.t, q.t2d)
        let c = subtract ? field.negate(tt) : tt
        let dd = field.add(p.z, p.z)
        let e = field.subtract(b, a)
        let f = field.subtract(dd, c)
        let g = field.add(dd, c)
        let h = field.add(b, a)
        return Ed25519Point(
            x: field.multiply(e, f), y: field.multiply(g, h), z: field.multiply(f, g), t: field.multiply(e, h))
    }

    func add(_ p: Ed25519Point, _ q: Ed25519Point) -> Ed25519Point {
        add(p, cached(q))
    }

    /// [s]B + [k]Q by interleaved wNAF; s and k are ordinary integers < 2²⁵³.
    func multiplyTwo(s: ECLimbs4, k: ECLimbs4, q: Ed25519Point) -> Ed25519Point {
        let digitCount = 64 * ECLimbs4.limbCount + 1
        return withUnsafeTemporaryAllocation(of: Int8.self, capacity: 2 * digitCount) { digits in
            let naf1 = UnsafeMutableBufferPointer(rebasing: digits[0..<digitCount])
            let naf2 = UnsafeMutableBufferPointer(rebasing: digits[digitCount..<(2 * digitCount)])
            let length1 = ecWNAF(s, window: Self.baseWindow, into: naf1)
            let length2 = ecWNAF(k, window: Self.publicKeyWindow, into: naf2)

            let tableCount = 1 << (Self.publicKeyWindow - 2)
            return withUnsafeTemporaryAllocation(of: Ed25519CachedPoint.self, capacity: tableCount) { table in
                // Q, 3Q, …, 15Q.
                let q2 = cached(double(q))
                var current = q
                for index in 0..<tableCount {
                    table.initializeElement(at: index, to: cached(current))
                    if index + 1 < tableCount { current = add(current, q2) }
                }
                defer { table.deinitialize() }

                let one = field.one
                var accumulator = Ed25519Point(x: ECLimbs4(), y: one, z: one, t: ECLimbs4())  // the identity
                var position = max(length1, length2) - 1
                while position >= 0 {
                    accumulator = double(accumulator)
                    let d1 = position < length1 ? Int(naf1[position]) : 0
                    if d1 != 0 {
                        accumulator = add(accumulator, baseTable[abs(d1) >> 1], subtract: d1 < 0)
                    }
                    let d2 = position < length2 ? Int(naf2[position]) : 0
                    if d2 != 0 {
                        accumulator = add(accumulator, table[abs(d2) >> 1], subtract: d2 < 0)
                    }
                    position -= 1
                }
                return accumulator
            }
        }
    }
}
