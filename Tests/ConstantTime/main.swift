// The constant-time check (scripts/constant-time-check.sh): each secret-handling
// routine runs once on secrets that valgrind's memcheck sees as undefined, the
// technique of Adam Langley's ctgrind without its client requests: the secret
// bytes are heap memory never written (`[UInt8](unsafeUninitializedCapacity:)`),
// so memcheck reports every conditional jump and every memory address that
// depends on them ("Conditional jump or move depends on uninitialised value(s)",
// "Use of uninitialised value of size N"). The script runs this program under
// valgrind and fails on any such report in Tack's code, and first on a control
// routine that does branch on its secret (the check must be able to fail).
//
// Built against the release objects of the check build (-O, -enable-testing),
// so the code measured is the optimised code that ships.

@testable import TackCipher
@testable import TackDigest
@testable import TackSignature

/// `count` bytes memcheck considers undefined: heap memory that nothing wrote.
func undefinedBytes(_ count: Int) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
}

/// Keeps a result alive without inspecting it (printing it would branch on it).
@inline(never)
func sink(_ bytes: [UInt8]) {
    withExtendedLifetime(bytes) {}
}

let selection = CommandLine.arguments.dropFirst().first ?? "all"
let defined = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 9) }

func run(_ name: String, _ body: () throws -> Void) {
    guard selection == "all" || selection == name else { return }
    print("constant-time: \(name)")
    do { try body() } catch { print("constant-time: \(name) threw \(error)") }
}

// The control: a branch on a secret byte, which the check must report.
run("control") {
    let secret = undefinedBytes(1)
    if secret[0] == 0x5A { print("constant-time: control branch taken") }
}

// X25519: the clamped scalar through the Montgomery ladder (masked swaps) and the
// Fermat inversion; the peer's u-coordinate is public.
run("x25519") {
    let scalar = X25519.clampedScalar(undefinedBytes(32))
    sink(X25519.multiply(scalar: scalar, u: X25519.decodeCoordinate(defined)))
}

// Ed25519: a seed's public key (SHA-512 of the seed, the pruned scalar times B by
// one doubling and one masked addition per bit, the Fermat inverse).
run("ed25519-public-key") {
    sink(PrivateKeyReader.ed25519PublicKey(seed: undefinedBytes(32)))
}

// P-256 and P-384 ECDH: the secret scalar times a public point by the masked
// fixed window (Jacobian doublings and additions, the last window's complete;
// P-256 with its shaped field, as `multiplySecret(_:_:)` runs it), then the
// Fermat inverse. The public function's
// last step, `nil` for infinity, is a branch on the result; it is left out here
// (with a scalar in [1, n − 1] the result is never infinity).
func affineX<Limbs: ECLimbs>(_ point: ECProjectivePoint<Limbs>, _ curve: ECWeierstrassCurve<Limbs>) -> [UInt8] {
    let zInverse = curve.field.power(point.z, curve.field.modulusMinusTwo)
    return curve.field.fromMontgomery(curve.field.multiply(point.x, zInverse)).bigEndianBytes(count: curve.coordinateByteCount)
}
run("ecdh-p256") {
    let d = ECLimbs4(bigEndian: undefinedBytes(32)) ?? ECLimbs4()
    let curve = P256.curve
    let field = ECShapedField<ECLimbs4, ECP256PrimeShape>(curve.field)
    let point = curve.multiplySecret(d, curve.generator, using: field)
    // P-256's Z is inverted by its addition chain, as `multiplySecret(_:_:)` does.
    let zInverse = ECWeierstrassCurve<ECLimbs4>.p256FermatInverse(point.z, field)
    sink(curve.field.fromMontgomery(field.multiply(point.x, zInverse)).bigEndianBytes(count: curve.coordinateByteCount))
}
run("ecdh-p384") {
    let d = ECLimbs6(bigEndian: undefinedBytes(48)) ?? ECLimbs6()
    let curve = P384.curve
    sink(affineX(curve.multiplySecret(d, curve.generator, using: curve.field), curve))
}

// ChaCha20-Poly1305 and Poly1305: secret key and secret plaintext.
run("chacha20poly1305") {
    let aead = try ChaCha20Poly1305(key: undefinedBytes(32))
    sink(try aead.seal(undefinedBytes(100), nonce: Array(defined.prefix(12)), authenticating: Array(defined.prefix(13))))
}
run("poly1305") {
    sink(Poly1305.authenticationTag(for: undefinedBytes(77), key: undefinedBytes(32)))
}

// AES-GCM on the portable path (bitsliced AES, table-free GHASH): secret key and
// plaintext. The AES-NI path's instructions are constant-time by the CPU's design.
run("aes128gcm-portable") {
    let gcm = try AESGCM(key: undefinedBytes(16), implementation: .portable)
    sink(try gcm.seal(undefinedBytes(100), nonce: Array(defined.prefix(12)), authenticating: Array(defined.prefix(13))))
}
run("aes256gcm-portable") {
    let gcm = try AESGCM(key: undefinedBytes(32), implementation: .portable)
    sink(try gcm.seal(undefinedBytes(64), nonce: Array(defined.prefix(12)), authenticating: []))
}

// HKDF over HMAC-SHA-256: secret input keying material.
// AES-NI counter mode and the PCLMULQDQ GHASH (four-block groups and a rest):
// the instructions' timing does not depend on their operands, so what is checked
// is the code around them (no branch or address from the key, H or the data).
run("aes128gcm-hardware") {
    let gcm = try AESGCM(key: undefinedBytes(16), implementation: .hardware)
    sink(try gcm.seal(undefinedBytes(300), nonce: Array(defined.prefix(12)), authenticating: Array(defined.prefix(13))))
}

run("hkdf-sha256") {
    sink(try HKDF.deriveKey(inputKeyMaterial: undefinedBytes(32), salt: defined, info: [1, 2, 3], outputByteCount: 32, hash: .sha256))
}
