// Running code over the bytes of any collection of bytes: in place when they are
// contiguous, on one copy otherwise. Every entry point of this module that accepts
// `some Collection<UInt8>` (RSA and ECDSA keys, signatures, digests, messages) goes
// through this one helper.

/// Runs `body` on the bytes of `collection`: in place when they are contiguous (an
/// array, an array slice, a digest), else on a copy.
///
/// - Parameters:
///   - collection: The bytes.
///   - body: The work; its typed error passes through.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
func withContiguousBytes<Result, Failure: Error>(
    of collection: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
) throws(Failure) -> Result {
    // `withContiguousStorageIfAvailable` rethrows untyped errors, so the body's typed
    // error comes out through a Swift.Result.
    let direct: Swift.Result<Result, Failure>? = collection.withContiguousStorageIfAvailable { buffer in
        do throws(Failure) {
            return .success(try body(buffer))
        } catch {
            return .failure(error)
        }
    }
    if let direct { return try direct.get() }
    // Not contiguous (a lazy view, a reversed collection): one copy.
    return try Array(collection).withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in try body(buffer) }
}
