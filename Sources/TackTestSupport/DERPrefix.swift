// The exact error a strict DER decoder owes a cut-short input (drip-feed tests).

public import TackDER

/// The error for the first `length` bytes of one complete DER element `encoded`,
/// as Tack's reader reports it: the outer element, at `origin`, is cut short inside
/// its header (``DERError/Reason/truncated``) or inside its contents
/// (``DERError/Reason/lengthExceedsInput``); no byte at all is `ifEmpty` (a reader
/// that expects a SEQUENCE says ``DERError/Reason/missingElement(expected:)``, the
/// tree walker ``DERError/Reason/truncated``). Decoders that wrap DER errors (X.509,
/// signatures) wrap this one.
///
/// Test-only: `encoded` is the test's own valid element with a low tag number
/// (one identifier octet); the function traps otherwise.
///
/// - Parameters:
///   - encoded: A complete DER element.
///   - length: The prefix length, below `encoded.count`.
///   - origin: The offset of `encoded` in the buffer the decoder reads.
///   - ifEmpty: The reason for the empty prefix.
/// - Returns: The error for `encoded.prefix(length)`.
public func derPrefixError(
    _ encoded: [UInt8], length: Int, origin: Int = 0, ifEmpty: DERError.Reason = .truncated
) -> DERError {
    precondition(encoded.count >= 2 && encoded[0] & 0x1F != 0x1F && length < encoded.count, "not a complete low-tag element")
    if length == 0 { return DERError(ifEmpty, at: origin) }
    let headerLength = encoded[1] < 0x80 ? 2 : 2 + Int(encoded[1] & 0x7F)
    return DERError(length < headerLength ? .truncated : .lengthExceedsInput, at: origin)
}
