// The Merkle–Damgård machinery every hash function of this module shares
// (FIPS 180-4 §5.1 padding, §6 "the hash computation" around the compression
// function): the chaining value, a one-block buffer, the message length, the
// padding of the final block(s), and the big-endian digest. Written once,
// generic over the compression function; the module is compiled whole, so
// each use is specialised and runs as a hand-written copy would.

/// A compression function and the sizes around it: what ``BlockHashCore``
/// needs to know about SHA-1 (FIPS 180-4 §6.1), SHA-256 (§6.2) or SHA-512
/// (§6.4) to drive it.
protocol BlockCompression {
    /// The chaining value H0, H1, ... as a tuple of words.
    associatedtype State: Sendable
    /// The word type of `State` (FIPS 180-4 §2.1: 32 or 64 bits).
    associatedtype Word: FixedWidthInteger
    /// Inline storage of exactly ``blockByteCount`` bytes.
    associatedtype Block: Sendable

    /// A block of zeros, the initial buffer.
    static var zeroBlock: Block { get }
    /// The input block size in bytes: 64 or 128 (FIPS 180-4 §1, Figure 1).
    static var blockByteCount: Int { get }
    /// The size of the length field that ends the padding in bytes: 8 (a
    /// 64-bit bit count, §5.1.1) or 16 (a 128-bit bit count, §5.1.2).
    static var lengthFieldByteCount: Int { get }

    /// Whether ``SHA2Implementation/hardware`` can run this function on this
    /// CPU and build.
    static var hardwareIsAvailable: Bool { get }

    /// Compresses `blockCount` consecutive blocks at `blocks` into `state`
    /// with `implementation`; the caller guarantees the bytes are readable
    /// and that `implementation` is available.
    static func compress(
        _ state: inout State, _ blocks: UnsafeRawPointer, _ blockCount: Int, _ implementation: SHA2Implementation)
}

/// A hasher whose whole state is one ``BlockHashCore``: SHA-1 and every SHA-2
/// function. The members of ``HashFunction`` are written once here; a
/// conforming type declares its sizes, its initial value H(0) and its `core`.
protocol BlockHasher: HashFunction {
    /// The compression function the hasher drives.
    associatedtype Compression: BlockCompression
    /// The initial hash value H(0) (FIPS 180-4 §5.3).
    static var initialState: Compression.State { get }
    /// The streaming state.
    var core: BlockHashCore<Compression> { get set }
    /// A hasher in the given state (the memberwise initialiser).
    init(core: BlockHashCore<Compression>)
}

extension BlockHasher {
    /// Creates a hasher in the function's initial state (FIPS 180-4 §5.3) that
    /// uses the fastest implementation the CPU supports for it.
    public init() {
        self.init(core: BlockHashCore(state: Self.initialState, implementation: .bestAvailable))
    }

    /// Creates a hasher in the initial state on `implementation`, or on the
    /// portable one where the CPU or build lacks it.
    init(selecting implementation: SHA2Implementation) {
        self.init(core: BlockHashCore(state: Self.initialState, implementation: implementation))
    }

    /// Absorbs more message bytes.
    ///
    /// - Parameter bytes: The next bytes of the message; may be empty.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        core.update(bytes)
    }

    /// Returns the digest of every byte absorbed so far, leaving the hasher
    /// unchanged: the final state's first ``HashFunction/digestByteCount``
    /// bytes, big-endian.
    ///
    /// - Returns: The digest.
    public func finalize() -> HashDigest<Self> {
        core.digest()
    }
}

/// The streaming state of one hash computation over a ``BlockCompression``.
struct BlockHashCore<Compression: BlockCompression>: Sendable {
    /// The chaining value.
    var state: Compression.State
    /// Up to `blockByteCount - 1` bytes of a partial block.
    var buffer: Compression.Block = Compression.zeroBlock
    /// How many bytes of `buffer` hold message bytes; always below a block.
    var bufferedByteCount: Int = 0
    /// The message length so far, in bytes, modulo 2^64. SHA-1 and SHA-256
    /// allow messages below 2^64 bits, SHA-512 below 2^128 bits (FIPS 180-4
    /// §1); 2^64 bytes is beyond any input this code sees, and the padding
    /// writes the bit count this counter implies.
    var messageByteCount: UInt64 = 0
    /// The compression function in use: the one asked for when this CPU has
    /// it, otherwise the portable one.
    let implementation: SHA2Implementation

    init(state: Compression.State, implementation: SHA2Implementation = .portable) {
        self.state = state
        self.implementation = implementation == .hardware && Compression.hardwareIsAvailable ? .hardware : .portable
    }

    mutating func update(_ input: UnsafeRawBufferPointer) {
        guard var source = input.baseAddress, input.count > 0 else { return }
        let blockSize = Compression.blockByteCount
        var remaining = input.count
        // The count is kept modulo 2^64 bytes (see `messageByteCount`): the
        // wrap is the defined result, and would need 16 EiB of input.
        messageByteCount &+= UInt64(truncatingIfNeeded: remaining)

        if bufferedByteCount > 0 {
            // Top up the partial block first. bufferedByteCount is in 1..<blockSize.
            let take = min(blockSize - bufferedByteCount, remaining)
            Swift.withUnsafeMutableBytes(of: &buffer) { block in
                UnsafeMutableRawBufferPointer(rebasing: block[bufferedByteCount..<(bufferedByteCount + take)])
                    .copyMemory(from: UnsafeRawBufferPointer(start: source, count: take))
            }
            bufferedByteCount += take
            source += take
            remaining -= take
            guard bufferedByteCount == blockSize else { return }
            let implementation = self.implementation
            Swift.withUnsafeBytes(of: buffer) { block in
                if let base = block.baseAddress { Compression.compress(&state, base, 1, implementation) }
            }
            bufferedByteCount = 0
        }

        // Whole blocks straight from the caller's memory, without copying.
        let blockCount = remaining / blockSize
        if blockCount > 0 {
            Compression.compress(&state, source, blockCount, implementation)
            source += blockCount * blockSize
            remaining -= blockCount * blockSize
        }

        // Keep the tail (less than a block) for later.
        if remaining > 0 {
            Swift.withUnsafeMutableBytes(of: &buffer) { block in
                UnsafeMutableRawBufferPointer(rebasing: block[0..<remaining])
                    .copyMemory(from: UnsafeRawBufferPointer(start: source, count: remaining))
            }
            bufferedByteCount = remaining
        }
    }

    /// Pads a copy of the message (FIPS 180-4 §5.1: a 1 bit, zeros, and the
    /// big-endian bit length in the last 8 or 16 bytes of the block),
    /// compresses it, and returns the final state. The core is unchanged.
    func finalState() -> Compression.State {
        var state = self.state
        var block = buffer
        let used = bufferedByteCount
        let blockSize = Compression.blockByteCount
        let lengthStart = blockSize - Compression.lengthFieldByteCount
        // The bit length: the byte count times 8, the low word wrapping by
        // design (the high word, for a 16-byte field, keeps the 3 bits it
        // loses; for an 8-byte field they are the modulo-2^64 reduction of
        // §5.1.1).
        let bitLengthHigh = messageByteCount >> 61
        let bitLengthLow = messageByteCount &<< 3
        let implementation = self.implementation
        Swift.withUnsafeMutableBytes(of: &block) { bytes in
            guard let base = bytes.baseAddress else { return }
            bytes[used] = 0x80
            if used >= lengthStart {
                // No room for the length: finish this block, then a block of
                // zeros and the length.
                for index in (used + 1)..<blockSize { bytes[index] = 0 }
                Compression.compress(&state, base, 1, implementation)
                for index in 0..<lengthStart { bytes[index] = 0 }
            } else {
                for index in (used + 1)..<lengthStart { bytes[index] = 0 }
            }
            if Compression.lengthFieldByteCount == 16 {
                bytes.storeBytes(of: bitLengthHigh.bigEndian, toByteOffset: blockSize - 16, as: UInt64.self)
            }
            bytes.storeBytes(of: bitLengthLow.bigEndian, toByteOffset: blockSize - 8, as: UInt64.self)
            Compression.compress(&state, base, 1, implementation)
        }
        return state
    }

    /// The digest of every byte absorbed so far, leaving the core unchanged.
    func digest<Function: HashFunction>() -> HashDigest<Function> {
        Self.digest(of: finalState())
    }

    /// The digest a final state gives: its words big-endian (FIPS 180-4
    /// §6.1.2, §6.2.2, §6.4.2: H0 ‖ H1 ‖ ...), truncated to the function's
    /// digest size (§6.3, §6.5, §6.6, §6.7: the leftmost bits).
    static func digest<Function: HashFunction>(of state: Compression.State) -> HashDigest<Function> {
        HashDigest { storeBigEndian(state, into: $0) }
    }

    /// Writes the first `output.count` bytes of the state's big-endian
    /// encoding (never more than the state holds: every digest is at most the
    /// state's size).
    @inline(__always)
    static func storeBigEndian(_ state: Compression.State, into output: UnsafeMutableRawBufferPointer) {
        let wordSize = MemoryLayout<Compression.Word>.size
        Swift.withUnsafeBytes(of: state) { raw in
            let wholeWords = output.count / wordSize
            for index in 0..<wholeWords {
                let word = raw.load(fromByteOffset: index * wordSize, as: Compression.Word.self)
                output.storeBytes(of: word.bigEndian, toByteOffset: index * wordSize, as: Compression.Word.self)
            }
            // SHA-512/224 ends in half a word: its leftmost bytes.
            let rest = output.count - wholeWords * wordSize
            if rest > 0 {
                let word = raw.load(fromByteOffset: wholeWords * wordSize, as: Compression.Word.self)
                for byte in 0..<rest {
                    output[wholeWords * wordSize + byte] = UInt8(truncatingIfNeeded: word >> ((wordSize - 1 - byte) * 8))
                }
            }
        }
    }
}

// MARK: - Reading a block

/// The sixteen words of one block, W0...W15 (FIPS 180-4 §6.1.2, §6.2.2 and
/// §6.4.2 step 1: the first sixteen words of the message schedule).
typealias SixteenWords<Word> = (Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word)

/// The sixteen big-endian 32-bit words of the 64-byte block at `block` (FIPS
/// 180-4 §3.1: words are big-endian), for the SHA-1 and SHA-256 compression
/// functions; the caller guarantees 64 readable bytes. Written per word size,
/// not generic over it: the Embedded compile of a generic round and schedule
/// took minutes instead of seconds (issue 30).
@inline(__always)
func bigEndianWords32(_ block: UnsafeRawPointer) -> SixteenWords<UInt32> {
    @inline(__always) func word(_ index: Int) -> UInt32 {
        UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
    }
    return (
        word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7),
        word(8), word(9), word(10), word(11), word(12), word(13), word(14), word(15)
    )
}

/// The sixteen big-endian 64-bit words of the 128-byte block at `block`, for
/// the SHA-512 compression function; the caller guarantees 128 readable bytes.
@inline(__always)
func bigEndianWords64(_ block: UnsafeRawPointer) -> SixteenWords<UInt64> {
    @inline(__always) func word(_ index: Int) -> UInt64 {
        UInt64(bigEndian: block.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self))
    }
    return (
        word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7),
        word(8), word(9), word(10), word(11), word(12), word(13), word(14), word(15)
    )
}
