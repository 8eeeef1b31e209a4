import TackTestSupport
import Testing

@testable import TackCipher

@Suite("ChaCha20-Poly1305 (RFC 8439)")
struct ChaCha20Poly1305Tests {
    static let sunscreen = Array(
        "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)

    @Test("RFC 8439 §2.4.2: ChaCha20 encryption from block counter 1")
    func chaCha20KnownAnswer() {
        let key = hexBytes("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
        let cipher = key.withUnsafeBytes { ChaCha20(key: $0) }
        var output = [UInt8](repeating: 0, count: Self.sunscreen.count)
        Self.sunscreen.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { cipher.xor(input, into: $0, counter: 1, nonce: SIMD3(0, 0x4a00_0000, 0)) }
        }
        #expect(output == hexBytes("""
            6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593dabcd62b357
            1639d624e65152ab8f530c359f0861d807ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736
            5af90bbf74a35be6b40b8eedf2785e42874d
            """))
    }

    /// The differential test of the fast paths (measured by tack-bench's
    /// `chacha20poly1305-16k`): the sixteen-block AVX-512 path, where the CPU has it, and
    /// the four-block path each against one block at a time.
    @Test("Seeded: the sixteen-block AVX-512 and four-block SIMD paths give the keystream of the one-block path (lengths 0 to 3,300, random counters)")
    func fourBlocksMatchOneBlock() {
        var stream = DeterministicStream(state: 0x4B10C4)
        for round in 0..<60 {
            let key = stream.bytes(32)
            let cipher = key.withUnsafeBytes { ChaCha20(key: $0) }
            let nonce = SIMD3<UInt32>(UInt32(truncatingIfNeeded: stream.next()), UInt32(truncatingIfNeeded: stream.next()), 7)
            let counter = UInt32(truncatingIfNeeded: stream.next() % 100_000)
            let data = stream.bytes(Int(stream.next() % 3_300))
            var fast = [UInt8](repeating: 0, count: data.count)
            data.withUnsafeBytes { input in
                fast.withUnsafeMutableBytes { cipher.xor(input, into: $0, counter: counter, nonce: nonce, wide: false) }
            }
            var wide = [UInt8](repeating: 0, count: data.count)
            data.withUnsafeBytes { input in
                wide.withUnsafeMutableBytes {
                    cipher.xor(input, into: $0, counter: counter, nonce: nonce, wide: chaCha20WideIsAvailable)
                }
            }
            // The reference: one block at a time through `block`.
            var slow = [UInt8](repeating: 0, count: data.count)
            var keystream = [UInt8](repeating: 0, count: 64)
            for start in stride(from: 0, to: data.count, by: 64) {
                keystream.withUnsafeMutableBytes {
                    cipher.block(counter: counter &+ UInt32(start / 64), nonce: nonce, into: $0)
                }
                for index in start..<min(start + 64, data.count) { slow[index] = data[index] ^ keystream[index - start] }
            }
            #expect(fast == slow, "round \(round), \(data.count) bytes")
            #expect(wide == slow, "round \(round), \(data.count) bytes, wide path \(chaCha20WideIsAvailable)")
        }
    }

    /// The differential test of the AVX-512 seal and open (measured by tack-bench's
    /// `chacha20poly1305-16k`; where the CPU has no AVX-512 both sides are the portable path).
    @Test("Seeded: the AVX-512 seal (sixteen-block ChaCha20, eight-lane Poly1305) gives the portable path's record, which opens (lengths 0 to 5,200)")
    func wideSealMatchesPortable() throws {
        var stream = DeterministicStream(state: 0x5EA1_32)
        for round in 0..<40 {
            let aead = try ChaCha20Poly1305(key: stream.bytes(32))
            let nonce = SIMD3<UInt32>(UInt32(truncatingIfNeeded: stream.next()), UInt32(truncatingIfNeeded: stream.next()), 9)
            // Every fourth length a whole number of kilobytes, all of it on the wide paths.
            let count = round % 4 == 0 ? 1024 * Int(stream.next() % 6) : Int(stream.next() % 5_200)
            let data = stream.bytes(count)
            let aad = stream.bytes(Int(stream.next() % 40))
            func sealed(wide: Bool) -> [UInt8] {
                var record = [UInt8](repeating: 0, count: count + 16)
                data.withUnsafeBytes { input in
                    aad.withUnsafeBytes { aad in
                        record.withUnsafeMutableBytes { record in
                            let tag = aead.seal(
                                input, into: UnsafeMutableRawBufferPointer(rebasing: record[0..<count]), additionalData: aad,
                                nonce: nonce, wide: wide)
                            record.storeBytes(of: tag.0, toByteOffset: count, as: UInt64.self)
                            record.storeBytes(of: tag.1, toByteOffset: count + 8, as: UInt64.self)
                        }
                    }
                }
                return record
            }
            let portable = sealed(wide: false)
            #expect(sealed(wide: chaCha20WideIsAvailable) == portable, "round \(round), \(count) bytes, wide path \(chaCha20WideIsAvailable)")
            // And the portable record opens (through the AVX-512 Poly1305 where the CPU has it).
            let nonceBytes = withUnsafeBytes(of: nonce) { Array($0.prefix(12)) }
            #expect(try aead.open(portable, nonce: nonceBytes, authenticating: aad) == data, "round \(round)")
        }
    }

    @Test("RFC 8439 §2.5.2: the Poly1305 tag of \"Cryptographic Forum Research Group\"")
    func poly1305KnownAnswer() {
        let key = hexBytes("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")
        let tag = Poly1305.authenticationTag(for: Array("Cryptographic Forum Research Group".utf8), key: key)
        #expect(tag == hexBytes("a8061dc1305136c6c22b8baf0c0127a9"))
    }

    @Test("Poly1305 reduces a value at or above p = 2¹³⁰ − 5 (RFC 8439 §A.3 test vectors 6 and 7)")
    func poly1305Reduction() {
        // #6: r = 2, s = 0, message 2¹²⁸ − 1 … reaches p; the tag is 3.
        let keyTwo = hexBytes("02000000000000000000000000000000 00000000000000000000000000000000")
        let tag6 = Poly1305.authenticationTag(for: [UInt8](repeating: 0xff, count: 16), key: keyTwo)
        #expect(tag6 == hexBytes("03000000000000000000000000000000"))
        // #7: r = 1, the sum wraps past p exactly.
        let keyOne = hexBytes("01000000000000000000000000000000 00000000000000000000000000000000")
        let message = hexBytes("ffffffffffffffffffffffffffffffff f0ffffffffffffffffffffffffffffff 11000000000000000000000000000000")
        #expect(Poly1305.authenticationTag(for: message, key: keyOne) == hexBytes("05000000000000000000000000000000"))
    }

    @Test("RFC 8439 §2.8.2: seal gives the ciphertext and tag, open gives the plaintext back")
    func aeadKnownAnswer() throws {
        let aead = try ChaCha20Poly1305(key: hexBytes("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"))
        let nonce = hexBytes("070000004041424344454647")
        let aad = hexBytes("50515253c0c1c2c3c4c5c6c7")
        let expected = hexBytes("""
            d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b
            1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc
            3ff4def08e4b7a9de576d26586cec64b6116 1ae10b594f09e26a7e902ecbd0600691
            """)
        let sealed = try aead.seal(Self.sunscreen, nonce: nonce, authenticating: aad)
        #expect(sealed == expected)
        #expect(try aead.open(sealed, nonce: nonce, authenticating: aad) == Self.sunscreen)
        // The same through slices and a non-contiguous collection.
        #expect(try aead.open(sealed[...], nonce: nonce[...], authenticating: aad.reversed().reversed()) == Self.sunscreen)
    }

    @Test("Seeded: seal then open round-trips for lengths 0 to 300, and a flipped bit in the ciphertext, tag or AAD fails")
    func seededRoundTrips() throws {
        var stream = DeterministicStream(state: 0x8439)
        for length in 0...300 {
            let aead = try ChaCha20Poly1305(key: stream.bytes(32))
            let nonce = stream.bytes(12)
            let aad = stream.bytes(Int(stream.next() % 40))
            let plaintext = stream.bytes(length)
            let sealed = try aead.seal(plaintext, nonce: nonce, authenticating: aad)
            #expect(sealed.count == length + 16)
            #expect(try aead.open(sealed, nonce: nonce, authenticating: aad) == plaintext)

            var flipped = sealed
            let position = Int(stream.next() % UInt64(sealed.count))
            flipped[position] ^= 1 << UInt8(stream.next() % 8)
            #expect(throws: AEADError.authenticationFailed) { try aead.open(flipped, nonce: nonce, authenticating: aad) }
            if !aad.isEmpty {
                var wrongAAD = aad
                wrongAAD[Int(stream.next() % UInt64(aad.count))] ^= 0x80
                #expect(throws: AEADError.authenticationFailed) { try aead.open(sealed, nonce: nonce, authenticating: wrongAAD) }
            }
            var wrongNonce = nonce
            wrongNonce[11] ^= 1
            #expect(throws: AEADError.authenticationFailed) { try aead.open(sealed, nonce: wrongNonce, authenticating: aad) }
        }
    }

    @Test("Lengths are checked before any work, with typed errors")
    func lengthErrors() throws {
        #expect(throws: AEADError.invalidKeyLength(31)) { try ChaCha20Poly1305(key: [UInt8](repeating: 0, count: 31)) }
        let aead = try ChaCha20Poly1305(key: [UInt8](repeating: 0, count: 32))
        #expect(throws: AEADError.invalidNonceLength(8)) { try aead.seal([], nonce: [UInt8](repeating: 0, count: 8), authenticating: []) }
        #expect(throws: AEADError.invalidNonceLength(24)) { try aead.open([UInt8](repeating: 0, count: 16), nonce: [UInt8](repeating: 0, count: 24), authenticating: []) }
        #expect(throws: AEADError.ciphertextTooShort(15)) { try aead.open([UInt8](repeating: 0, count: 15), nonce: [UInt8](repeating: 0, count: 12), authenticating: []) }
        #expect(AEADError.authenticationFailed.code == "aead_authentication_failed")
        #expect(AEADError.ciphertextTooShort(3).code == "aead_ciphertext_too_short")
        #expect(String(describing: aead) == "ChaCha20Poly1305")
    }
}
