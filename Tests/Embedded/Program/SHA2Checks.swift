// SHA-2 known answers: FIPS 180-4 examples, one million "a", and every message
// length 0...300 (Vectors/sha2/lengths.txt), one-shot and in 13-byte pieces so
// the partial-block buffering runs too.

import TackDigest

/// The four functions, named as in the generated vectors.
enum SHA2Name: CustomStringConvertible {
    case sha224, sha256, sha384, sha512

    var description: String {
        switch self {
        case .sha224: "SHA-224"
        case .sha256: "SHA-256"
        case .sha384: "SHA-384"
        case .sha512: "SHA-512"
        }
    }

    var digestByteCount: Int {
        switch self {
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The digest of `message`, fed in pieces of `pieceLength` bytes (all at once
    /// when 0); SHA-224 and SHA-256 on `implementation`.
    func digest(_ message: [UInt8], pieceLength: Int = 0, implementation: SHA2Implementation = .portable) -> [UInt8] {
        switch self {
        case .sha224:
            var hasher = SHA224(implementation: implementation)
            feed(&hasher, message, pieceLength)
            return Array(hasher.finalize())
        case .sha256:
            var hasher = SHA256(implementation: implementation)
            feed(&hasher, message, pieceLength)
            return Array(hasher.finalize())
        case .sha384:
            var hasher = SHA384()
            feed(&hasher, message, pieceLength)
            return Array(hasher.finalize())
        case .sha512:
            var hasher = SHA512()
            feed(&hasher, message, pieceLength)
            return Array(hasher.finalize())
        }
    }
}

private func feed<H: SHA2HashFunction>(_ hasher: inout H, _ message: [UInt8], _ pieceLength: Int) {
    guard pieceLength > 0 else {
        hasher.update(message)
        return
    }
    var start = 0
    while start < message.count {
        let end = min(start + pieceLength, message.count)
        hasher.update(message[start..<end])
        start = end
    }
}

/// Byte i of the lengths.txt messages.
func patternMessage(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
}

func checkSHA2(_ implementation: SHA2Implementation, _ tally: inout Tally) {
    // SHA-384/512 have one compression function; check them on the first pass only.
    let names: [SHA2Name] = implementation == .portable ? [.sha224, .sha256, .sha384, .sha512] : [.sha224, .sha256]
    for (name, message, expected) in fipsExamples where names.contains(name) {
        tally.check(name.digest(utf8(message), implementation: implementation) == bytes(expected),
                    "\(name) FIPS 180-4 example of \(message.utf8CodeUnitCount) bytes")
    }
    let millionA = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    for (name, expected) in millionADigests where names.contains(name) {
        tally.check(name.digest(millionA, implementation: implementation) == bytes(expected),
                    "\(name) of one million a")
    }
    for (name, concatenated) in lengthDigests where names.contains(name) {
        let all = bytes(concatenated)
        let size = name.digestByteCount
        var length = 0
        while (length + 1) * size <= all.count {
            let expected = Array(all[(length * size)..<((length + 1) * size)])
            let message = patternMessage(length)
            tally.check(name.digest(message, implementation: implementation) == expected,
                        "\(name) of the \(length)-byte pattern message")
            tally.check(name.digest(message, pieceLength: 13, implementation: implementation) == expected,
                        "\(name) of the \(length)-byte pattern message in 13-byte pieces")
            length += 1
        }
        tally.check(length == 301, "\(name): \(length) length vectors, expected 301")
    }
}

/// The portable and hardware SHA-256 paths agree on 2,000 lengths of a
/// deterministic stream (beyond the known answers, up to 64 blocks).
func checkSHA256PathsAgree(_ tally: inout Tally) {
    var state: UInt64 = 0x5441_434b_5348_4132  // "TACKSHA2"
    var disagreements = 0
    for round in 0..<2000 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let count = Int(truncatingIfNeeded: (state >> 33) % 4096)
        let message = (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 131) ^ round ^ Int(truncatingIfNeeded: state >> 17)) }
        if SHA2Name.sha256.digest(message, implementation: .portable)
            != SHA2Name.sha256.digest(message, implementation: .hardware) {
            disagreements += 1
        }
    }
    tally.check(disagreements == 0, "SHA-256 portable and hardware paths disagree on \(disagreements) of 2000 messages")
}
