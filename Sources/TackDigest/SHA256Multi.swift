// SHA-256 of several independent messages at once (a chain's certificates,
// their SubjectPublicKeyInfos): on the x86-64 SHA extensions two messages
// are compressed in one loop, their rounds alternating, because one
// message's rounds form a single dependency chain through SHA256RNDS2, whose
// latency a lone message cannot hide. Elsewhere, and for a message left
// without a partner, each message is hashed exactly as `SHA256.hash` does.
//
// Measured by tack-bench `sha256-hw-x2-1024` and `sha256-hw-x4-294` (the same
// messages hashed one by one by OpenSSL); the digests are held to the
// single-message path by TackDigestTests' seeded differential test.

extension SHA256 {
    /// Hashes each of several complete messages, returning their digests in
    /// the same order.
    ///
    /// The result is exactly `messages.map { SHA256.hash($0) }`; on CPUs with
    /// the SHA extensions the messages are hashed two at a time in one
    /// interleaved loop, which is faster than one after the other.
    ///
    /// ```swift
    /// let digests = SHA256.hashes(of: chain.map(\.tbsCertificateBytes))
    /// ```
    ///
    /// - Parameter messages: The messages, each held in an array slice.
    /// - Returns: One digest per message.
    public static func hashes(of messages: [ArraySlice<UInt8>]) -> [SHA256Digest] {
        pairwiseHashes(messages)
    }

    /// Hashes each of several complete messages, returning their digests in
    /// the same order; as ``hashes(of:)-([ArraySlice<UInt8>])`` for messages
    /// held in arrays.
    ///
    /// (Both take arrays rather than any collection: called from another module,
    /// a generic signature ran unspecialised, looking up generic metadata for
    /// every message, which cost more than the interleaving saves on messages of
    /// a few hundred bytes: `sha256-hw-x4-294`.)
    ///
    /// - Parameter messages: The messages.
    /// - Returns: One digest per message.
    public static func hashes(of messages: [[UInt8]]) -> [SHA256Digest] {
        pairwiseHashes(messages)
    }

    /// Hashes two complete messages held in contiguous memory, interleaved
    /// on the SHA extensions where the CPU has them.
    ///
    /// - Parameters:
    ///   - first: The first message.
    ///   - second: The second message.
    /// - Returns: The digests of `first` and `second`.
    public static func hash(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> (SHA256Digest, SHA256Digest) {
        #if TACK_HARDWARE_SHA && arch(x86_64)
            if hardwareSHA256IsAvailable {
                let (stateA, stateB) = sha256HardwarePairFinalStates(first, second)
                return (
                    BlockHashCore<SHA256Compression>.digest(of: stateA),
                    BlockHashCore<SHA256Compression>.digest(of: stateB)
                )
            }
        #endif
        return (hash(first), hash(second))
    }

    /// Pairs the messages up in order and hashes each pair together (the
    /// last one alone when the count is odd). `Message` is `[UInt8]` or
    /// `ArraySlice<UInt8>`, whose storage is always contiguous.
    @inline(__always)
    private static func pairwiseHashes<Message: Collection<UInt8>>(_ messages: [Message]) -> [SHA256Digest] {
        var digests: [SHA256Digest] = []
        digests.reserveCapacity(messages.count)
        var index = 0
        while index < messages.count {
            guard index + 1 < messages.count else {
                withBytes(messages[index]) { digests.append(hash($0)) }
                break
            }
            withBytes(messages[index]) { a in
                withBytes(messages[index + 1]) { b in
                    let (digestA, digestB) = hash(a, b)
                    digests.append(digestA)
                    digests.append(digestB)
                }
            }
            index += 2
        }
        return digests
    }

    /// Runs `body` on the bytes of `message`, in place when its storage is
    /// contiguous (always, for arrays and their slices), else on a copy.
    @inline(__always)
    private static func withBytes<Message: Collection<UInt8>>(
        _ message: Message, _ body: (UnsafeRawBufferPointer) -> Void
    ) {
        if message.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) == nil {
            Array(message).withUnsafeBytes(body)
        }
    }
}

#if TACK_HARDWARE_SHA && arch(x86_64)

    /// A message laid out as the blocks SHA-256 compresses (FIPS 180-4
    /// §5.1.1, §5.2.1): its whole 64-byte blocks read in place, then one or
    /// two padded tail blocks written into `tail` (the last 0–63 bytes, the
    /// 1 bit, zeros, and the 64-bit big-endian bit length).
    struct SHA256PaddedBlocks {
        let base: UnsafeRawPointer?
        let wholeBlockCount: Int
        let tail: UnsafeMutableRawPointer
        let blockCount: Int

        /// - Parameter tail: 128 writable bytes that outlive this value.
        @inline(__always)
        init(_ message: UnsafeRawBufferPointer, tail: UnsafeMutableRawPointer) {
            base = message.baseAddress
            wholeBlockCount = message.count / 64
            let used = message.count % 64
            self.tail = tail
            // The 1 bit and 8 length bytes must fit after the tail: one block
            // when used ≤ 55, else two.
            let tailBlockCount = used < 56 ? 1 : 2
            blockCount = wholeBlockCount + tailBlockCount
            let tailBytes = UnsafeMutableRawBufferPointer(start: tail, count: 64 * tailBlockCount)
            if used > 0, let base {
                tailBytes.baseAddress?.copyMemory(from: base + 64 * wholeBlockCount, byteCount: used)
            }
            tailBytes[used] = 0x80
            for index in (used + 1)..<(64 * tailBlockCount - 8) { tailBytes[index] = 0 }
            // The bit length modulo 2^64 (§5.1.1); the shift wraps by definition.
            let bitLength = UInt64(truncatingIfNeeded: message.count) &<< 3
            tailBytes.storeBytes(of: bitLength.bigEndian, toByteOffset: 64 * tailBlockCount - 8, as: UInt64.self)
        }

        /// Block `index`, in 0..<blockCount.
        @inline(__always)
        func block(_ index: Int) -> UnsafeRawPointer {
            if index < wholeBlockCount, let base { return base + 64 * index }
            return UnsafeRawPointer(tail + 64 * (index - wholeBlockCount))
        }

        /// Compresses blocks `start..<blockCount` alone, into `state`.
        @inline(__always)
        func compressRemaining(from start: Int, into state: inout SHA256Compression.State) {
            if start < wholeBlockCount, let base {
                sha256CompressHardware(&state, base + 64 * start, wholeBlockCount - start)
            }
            let tailStart = max(start, wholeBlockCount)
            if tailStart < blockCount {
                sha256CompressHardware(&state, UnsafeRawPointer(tail + 64 * (tailStart - wholeBlockCount)), blockCount - tailStart)
            }
        }
    }

    /// The final SHA-256 states of two messages, compressed together for as
    /// many blocks as both have, then the longer one's rest alone.
    private func sha256HardwarePairFinalStates(
        _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer
    ) -> (SHA256Compression.State, SHA256Compression.State) {
        // Two 128-byte padded tails, inline on the stack.
        var tails: (SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>) = (.zero, .zero, .zero, .zero)
        return withUnsafeMutableBytes(of: &tails) { tailBytes in
            // A 256-byte tuple always has a base address.
            let tailBase = tailBytes.baseAddress.unsafelyUnwrapped
            let a = SHA256PaddedBlocks(first, tail: tailBase)
            let b = SHA256PaddedBlocks(second, tail: tailBase + 128)
            var stateA = SHA256.initialState
            var stateB = SHA256.initialState
            let common = min(a.blockCount, b.blockCount)
            sha256CompressHardwarePair(&stateA, &stateB, a, b, blockCount: common)
            a.compressRemaining(from: common, into: &stateA)
            b.compressRemaining(from: common, into: &stateB)
            return (stateA, stateB)
        }
    }

#endif
