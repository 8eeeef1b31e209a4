import TackTestSupport
import Testing

@testable import TackDigest

/// FIPS 180-4 examples, from NIST's "Examples with Intermediate Values"
/// (csrc.nist.gov, Cryptographic Standards and Guidelines, SHA-2 examples).
@Suite("SHA-2 known answers")
struct KnownAnswerTests {
    static let abc = Array("abc".utf8)
    static let message448 = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    static let message896 = Array(
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
            + "nopqrstu").utf8)

    @Test("SHA-256 and SHA-224 of the FIPS 180-4 example messages", arguments: testedImplementations)
    func sha256Family(implementation: SHA2Implementation) {
        func h256(_ message: [UInt8]) -> String {
            var hasher = SHA256(implementation: implementation)
            hasher.update(message)
            return hasher.finalize().hexString
        }
        func h224(_ message: [UInt8]) -> String {
            var hasher = SHA224(implementation: implementation)
            hasher.update(message)
            return hasher.finalize().hexString
        }
        #expect(h256(Self.abc) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(h256(Self.message448) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(h256([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(h224(Self.abc) == "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
        #expect(h224(Self.message448) == "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525")
    }

    @Test("SHA-512, SHA-384 and SHA-512/256 of the FIPS 180-4 example messages")
    func sha512Family() {
        #expect(
            SHA512.hash(Self.abc).hexString
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(
            SHA512.hash(Self.message896).hexString
                == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
        #expect(
            SHA384.hash(Self.abc).hexString
                == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
                + "8086072ba1e7cc2358baeca134c825a7")
        #expect(
            SHA384.hash(Self.message896).hexString
                == "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712"
                + "fcc7c71a557e2db966c3e9fa91746039")
        #expect(
            SHA512_256.hash(Self.abc).hexString
                == "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23")
    }

    @Test("One million 'a' (FIPS 180-4 long message example)", arguments: testedImplementations)
    func millionA(implementation: SHA2Implementation) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        var hasher = SHA256(implementation: implementation)
        hasher.update(message)
        #expect(hasher.finalize().hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(
            SHA512.hash(message).hexString
                == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }
}

@Suite("SHA-2 against hashlib vectors")
struct VectorTests {
    static let names = ["sha224", "sha256", "sha384", "sha512", "sha512_256"]

    @Test("Every message length 0...300, every function (Vectors/sha2/lengths.txt)", arguments: testedImplementations)
    func everyLength(implementation: SHA2Implementation) throws {
        let records = try vectorRecords("lengths.txt")
        #expect(records.count == 5 * 301)
        for record in records {
            let function = try #require(NamedHash.named(record[0]))
            let length = try #require(Int(record[1]))
            let digest = function.hash(patternMessage(count: length), implementation)
            #expect(digest == hexBytesIfValid(record[2]), "\(record[0]) length \(length)")
        }
    }

    @Test("Every split point of a two-part update gives the one-shot digest", arguments: testedImplementations)
    func everySplit(implementation: SHA2Implementation) throws {
        for name in Self.names {
            let function = try #require(NamedHash.named(name))
            for length in [0, 63, 64, 65, 127, 128, 129, 300] {
                let message = patternMessage(count: length)
                let expected = function.hash(message, implementation)
                for split in 0...length {
                    let pieces = [message[..<split], message[split...]]
                    #expect(function.hashPieces(pieces, implementation) == expected, "\(name) \(length) at \(split)")
                }
            }
        }
    }

    @Test("Byte-at-a-time and three-way updates give the one-shot digest", arguments: testedImplementations)
    func manyPieces(implementation: SHA2Implementation) throws {
        let message = patternMessage(count: 300)
        for name in Self.names {
            let function = try #require(NamedHash.named(name))
            let expected = function.hash(message, implementation)
            let single = message.indices.map { message[$0...$0] }
            #expect(function.hashPieces(single, implementation) == expected)
            for first in stride(from: 0, through: 300, by: 7) {
                for second in stride(from: first, through: 300, by: 13) {
                    let pieces = [message[..<first], message[first..<second], message[second...]]
                    #expect(function.hashPieces(pieces, implementation) == expected)
                }
            }
        }
    }

    @Test("NIST SHAVS Monte Carlo test (Vectors/sha2/monte-carlo.txt)", arguments: testedImplementations)
    func monteCarlo(implementation: SHA2Implementation) throws {
        let records = try vectorRecords("monte-carlo.txt")
        #expect(try Self.monteCarlo(records, "sha256") { SHA256(implementation: implementation) } == 100)
        #expect(try Self.monteCarlo(records, "sha512") { SHA512() } == 100)
    }

    /// Runs SHAVS §6.4 for one function and returns how many checkpoints
    /// matched: MD0 = MD1 = MD2 = seed; MDi = H(MDi-3 || MDi-2 || MDi-1) for
    /// i = 3...1002; the checkpoint (and the next seed) is MD1002.
    static func monteCarlo<H: SHA2HashFunction>(_ records: [[String]], _ name: String, _ makeHasher: () -> H) throws
        -> Int
    {
        let mine = records.filter { $0[0] == name }
        let seed = try #require(mine.first { $0[1] == "seed" }.flatMap { hexBytesIfValid($0[2]) })
        let expected = mine.filter { $0[1] != "seed" }.compactMap { hexBytesIfValid($0[2]) }
        let size = H.digestByteCount
        #expect(seed.count == size && expected.count == 100)
        // The three most recent digests, oldest first, in one buffer.
        var window = seed + seed + seed
        var matched = 0
        for checkpoint in expected {
            for _ in 0..<1000 {
                var hasher = makeHasher()
                hasher.update(window)
                let digest = hasher.finalize()
                window.withUnsafeMutableBytes { buffer in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[size...]))
                    digest.withUnsafeBytes {
                        UnsafeMutableRawBufferPointer(rebasing: buffer[(2 * size)...]).copyMemory(from: $0)
                    }
                }
            }
            let result = Array(window[(2 * size)...])
            #expect(result == checkpoint)
            if result == checkpoint { matched += 1 }
            // The next round starts with MD0 = MD1 = MD2 = this checkpoint.
            window = result + result + result
        }
        return matched
    }

    @Test("Length field across 2^32 and 2^64 bits, simulated by the byte counter")
    func lengthCounter() throws {
        let records = try vectorRecords("length-counter.txt")
        #expect(records.count == 6)
        let tail = patternMessage(count: 100)
        for record in records {
            let processed = try #require(UInt64(record[1]))
            let expected = try #require(hexBytesIfValid(record[2]))
            if record[0] == "sha256" {
                for implementation in testedImplementations {
                    var hasher = SHA256(implementation: implementation)
                    hasher.core.messageByteCount = processed
                    hasher.update(tail)
                    #expect(Array(hasher.finalize()) == expected, "sha256 after \(processed)")
                }
            } else {
                var hasher = SHA512()
                hasher.core.messageByteCount = processed
                hasher.update(tail)
                #expect(Array(hasher.finalize()) == expected, "sha512 after \(processed)")
            }
        }
    }
}

@Suite("SHA-2 digests and hasher values")
struct DigestTests {
    @Test("finalize does not disturb the hasher: it can continue and be copied")
    func finalizeIsNonMutating() {
        var hasher = SHA256()
        hasher.update(Array("ab".utf8))
        let early = hasher.finalize()
        #expect(early == SHA256.hash(Array("ab".utf8)))
        var fork = hasher
        hasher.update(Array("c".utf8))
        fork.update(Array("d".utf8))
        #expect(hasher.finalize() == SHA256.hash(Array("abc".utf8)))
        #expect(fork.finalize() == SHA256.hash(Array("abd".utf8)))
    }

    @Test("Digest equality, hashing, collection view and init(bytes:)")
    func digestValue() throws {
        let a = SHA256.hash(Array("abc".utf8))
        let b = SHA256.hash(Array("abd".utf8))
        #expect(a != b)
        #expect(a == SHA256.hash(Array("abc".utf8)))
        #expect(Set([a, b, a]).count == 2)
        #expect(a.count == 32 && a.first == 0xba && a.last == 0xad && a[1] == 0x78)
        #expect(SHA256Digest(bytes: Array(a)) == a)
        #expect(SHA256Digest(bytes: Array(a).dropLast()) == nil)
        #expect(SHA224.hash([]).count == 28)
        let zeros = [UInt8](repeating: 0, count: 28)
        #expect(SHA224Digest(bytes: zeros).map(Array.init) == zeros)
        #expect(SHA384.hash([]).count == 48 && SHA512.hash([]).count == 64 && SHA512_256.hash([]).count == 32)
        // One inline shape for every function, room for the longest digest.
        #expect(MemoryLayout<SHA224Digest>.size == 64 && MemoryLayout<SHA512Digest>.size == 64)
        // A digest that differs only in its last byte is still unequal.
        var last = Array(a)
        last[31] ^= 1
        #expect(try #require(SHA256Digest(bytes: last)) != a)
        // Contiguous: the bytes in place, exactly the digest's length for each function.
        #expect(a.withContiguousStorageIfAvailable { Array($0) } == Array(a))
        #expect(SHA224.hash([]).withContiguousStorageIfAvailable { $0.count } == 28)
        #expect(SHA512.hash([]).withContiguousStorageIfAvailable { Array($0) } == Array(SHA512.hash([])))
    }

    @Test("Unsafe-buffer, array and slice entry points agree")
    func entryPoints() {
        let message = patternMessage(count: 200)
        let expected = SHA384.hash(message)
        #expect(SHA384.hash(message[...]) == expected)
        #expect(message.withUnsafeBytes { SHA384.hash($0) } == expected)
        #expect(SHA384.hash(message[10...]) == SHA384.hash(Array(message[10...])))
    }
}

@Suite("Digest rendering")
struct DigestRenderingTests {
    @Test("SHA-256 of \"abc\" renders as lowercase hex and as padded Base64")
    func renderings() {
        let digest = SHA256.hash(Array("abc".utf8))
        #expect(digest.hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // printf abc | openssl dgst -sha256 -binary | base64
        #expect(digest.base64String == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
    }
}
