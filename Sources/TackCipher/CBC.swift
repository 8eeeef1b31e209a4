// Cipher block chaining (NIST SP 800-38A §6.2) with PKCS #7 padding
// (RFC 5652 §6.3; RFC 8018 §6.1.1 for PBES), written once for every block
// cipher of the module.

/// A block cipher with its key schedule, as CBC drives it.
protocol CBCBlockCipher {
    /// The block size in bytes.
    var blockByteCount: Int { get }
    /// Encrypts one block in place.
    func encryptBlock(_ block: UnsafeMutablePointer<UInt8>)
    /// Decrypts `count` consecutive blocks in place (independently: CBC's
    /// chaining is applied afterwards), so that a cipher can work on several
    /// blocks at once.
    func decryptBlocks(_ blocks: UnsafeMutablePointer<UInt8>, count: Int)
}

/// CBC encryption with PKCS #7 padding: 1 to `blockByteCount` bytes of padding
/// are always added.
func cbcEncrypt(
    _ cipher: some CBCBlockCipher, plaintext: some Collection<UInt8>, iv: [UInt8]
) -> [UInt8] {
    let size = cipher.blockByteCount
    var buffer = contiguousBytes(plaintext)
    let padding = size - buffer.count % size
    buffer.append(contentsOf: repeatElement(UInt8(truncatingIfNeeded: padding), count: padding))
    buffer.withUnsafeMutableBufferPointer { out in
        guard let base = out.baseAddress else { return }
        var offset = 0
        while offset < out.count {
            for j in 0..<size {
                // The first block chains to the IV, the others to the previous ciphertext.
                base[offset + j] ^= offset == 0 ? iv[j] : base[offset - size + j]
            }
            cipher.encryptBlock(base + offset)
            offset += size
        }
    }
    return buffer
}

/// CBC decryption then a strict PKCS #7 padding check.
///
/// The check reads the whole last block whatever the padding byte says and
/// folds every comparison into one mask, so its running time and memory
/// accesses do not depend on the plaintext; only the final accept or reject
/// (and, once accepted, the output length) do.
func cbcDecrypt(
    _ cipher: some CBCBlockCipher, ciphertext: some Collection<UInt8>, iv: [UInt8]
) throws(CipherError) -> [UInt8] {
    let size = cipher.blockByteCount
    let input = contiguousBytes(ciphertext)
    guard !input.isEmpty, input.count % size == 0 else {
        throw .ciphertextLengthNotBlockMultiple(byteCount: input.count, blockByteCount: size)
    }
    var output = input
    let padding: Int = output.withUnsafeMutableBufferPointer { out in
        input.withUnsafeBufferPointer { previous in
            guard let base = out.baseAddress, let previous = previous.baseAddress else { return 0 }
            cipher.decryptBlocks(base, count: out.count / size)
            for j in 0..<size { base[j] ^= iv[j] }
            // Every block after the first chains to the ciphertext block before it,
            // eight bytes at a time (blocks are 8 or 16 bytes).
            let raw = UnsafeMutableRawPointer(base)
            let chain = UnsafeRawPointer(previous)
            var offset = size
            while offset < out.count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    ^ chain.loadUnaligned(fromByteOffset: offset - size, as: UInt64.self)
                raw.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            return checkedPaddingLength(lastBlock: base + (out.count - size), blockByteCount: size)
        }
    }
    guard padding != 0 else {
        zeroize(&output)
        throw .badPadding
    }
    output.removeLast(padding)
    return output
}

/// The PKCS #7 padding length of a decrypted last block, or 0 when the padding
/// is invalid; computed without a branch or an index that depends on the data.
func checkedPaddingLength(lastBlock: UnsafePointer<UInt8>, blockByteCount size: Int) -> Int {
    let count = UInt32(truncatingIfNeeded: size)
    let n = UInt32(lastBlock[size - 1])
    // All ones when n is in 1...size: (n − 1) and (size − n) both non-negative.
    var good = ~(((n &- 1) | (count &- n)) >> 31) & 1
    for i in 0..<size {
        let position = UInt32(truncatingIfNeeded: i)
        // 1 when byte size−1−i is inside the padding (i < n).
        let inside = (position &- n) >> 31
        let difference = UInt32(lastBlock[size - 1 - i]) ^ n
        // 1 when the byte differs from n.
        let differs = (difference | (0 &- difference)) >> 31
        good &= ~(inside & differs) & 1
    }
    return Int(n & (0 &- good))
}

/// The bytes of a collection as an array: one copy of contiguous storage when
/// the collection has it. The public entry points are generic and not
/// inlinable, so a caller in another module reaches them unspecialised, where
/// `[UInt8](collection)` would go element by element through the protocol.
func contiguousBytes(_ bytes: some Collection<UInt8>) -> [UInt8] {
    bytes.withContiguousStorageIfAvailable { [UInt8]($0) } ?? [UInt8](bytes)
}

/// Overwrites an array's elements with zeros (key schedules, scratch plaintext).
/// Kept out of line so that the stores are not optimised away before the
/// array is released.
@inline(never)
func zeroize<T: FixedWidthInteger>(_ array: inout [T]) {
    for index in array.indices { array[index] = 0 }
}
