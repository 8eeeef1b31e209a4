// Domain parameters of the NIST prime curves, from SEC 2 v2 (Certicom, 2010)
// §2.4.2 (secp256r1), §2.5.1 (secp384r1) and §2.6.1 (secp521r1), identical to
// FIPS 186-4 §D.1.2.3–D.1.2.5. Limbs are little-endian 64-bit words.
//
// Each curve is a lazily initialised global: the first verification on a curve
// derives its Montgomery constants and the generator table (a one-time cost of
// a few milliseconds), later ones reuse them.

/// P-256 (secp256r1, prime256v1).
enum P256 {
    static let curve = ECWeierstrassCurve<ECLimbs4>(
        p: ECLimbs4((0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000, 0xffffffff00000001)),
        n: ECLimbs4((0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000)),
        b: ECLimbs4((0x3bce3c3e27d2604b, 0x651d06b0cc53b0f6, 0xb3ebbd55769886bc, 0x5ac635d8aa3a93e7)),
        gx: ECLimbs4((0xf4a13945d898c296, 0x77037d812deb33a0, 0xf8bce6e563a440f2, 0x6b17d1f2e12c4247)),
        gy: ECLimbs4((0xcbb6406837bf51f5, 0x2bce33576b315ece, 0x8ee7eb4a7c0f9e16, 0x4fe342e2fe1a7f9b)),
        coordinateByteCount: 32,
        fieldShape: .p256Prime
    )
}

/// P-384 (secp384r1).
enum P384 {
    static let curve = ECWeierstrassCurve<ECLimbs6>(
        p: ECLimbs6((
            0x00000000ffffffff, 0xffffffff00000000, 0xfffffffffffffffe,
            0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff
        )),
        n: ECLimbs6((
            0xecec196accc52973, 0x581a0db248b0a77a, 0xc7634d81f4372ddf,
            0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff
        )),
        b: ECLimbs6((
            0x2a85c8edd3ec2aef, 0xc656398d8a2ed19d, 0x0314088f5013875a,
            0x181d9c6efe814112, 0x988e056be3f82d19, 0xb3312fa7e23ee7e4
        )),
        gx: ECLimbs6((
            0x3a545e3872760ab7, 0x5502f25dbf55296c, 0x59f741e082542a38,
            0x6e1d3b628ba79b98, 0x8eb1c71ef320ad74, 0xaa87ca22be8b0537
        )),
        gy: ECLimbs6((
            0x7a431d7c90ea0e5f, 0x0a60b1ce1d7e819d, 0xe9da3113b5f0b8c0,
            0xf8f41dbd289a147c, 0x5d9e98bf9292dc29, 0x3617de4a96262c6f
        )),
        coordinateByteCount: 48
    )
}

/// P-521 (secp521r1): p = 2⁵²¹ − 1, in nine limbs.
enum P521 {
    static let curve = ECWeierstrassCurve<ECLimbs9>(
        p: ECLimbs9((
            0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff,
            0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff,
            0xffffffffffffffff, 0xffffffffffffffff, 0x00000000000001ff
        )),
        n: ECLimbs9((
            0xbb6fb71e91386409, 0x3bb5c9b8899c47ae, 0x7fcc0148f709a5d0,
            0x51868783bf2f966b, 0xfffffffffffffffa, 0xffffffffffffffff,
            0xffffffffffffffff, 0xffffffffffffffff, 0x00000000000001ff
        )),
        b: ECLimbs9((
            0xef451fd46b503f00, 0x3573df883d2c34f1, 0x1652c0bd3bb1bf07,
            0x56193951ec7e937b, 0xb8b489918ef109e1, 0xa2da725b99b315f3,
            0x929a21a0b68540ee, 0x953eb9618e1c9a1f, 0x0000000000000051
        )),
        gx: ECLimbs9((
            0xf97e7e31c2e5bd66, 0x3348b3c1856a429b, 0xfe1dc127a2ffa8de,
            0xa14b5e77efe75928, 0xf828af606b4d3dba, 0x9c648139053fb521,
            0x9e3ecb662395b442, 0x858e06b70404e9cd, 0x00000000000000c6
        )),
        gy: ECLimbs9((
            0x88be94769fd16650, 0x353c7086a272c240, 0xc550b9013fad0761,
            0x97ee72995ef42640, 0x17afbd17273e662c, 0x98f54449579b4468,
            0x5c8a5fb42c7d1bd9, 0x39296a789a3bc004, 0x0000000000000118
        )),
        coordinateByteCount: 66,
        fieldShape: .p521Prime
    )
}
