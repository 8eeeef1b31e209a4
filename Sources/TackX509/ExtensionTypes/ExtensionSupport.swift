import TackDER

extension DERReader {
    /// Reads a non-negative INTEGER that fits `Int` (`SkipCerts`, `BaseDistance`,
    /// `pathLenConstraint`: `INTEGER (0..MAX)`).
    ///
    /// - Throws: `DERError.Reason.negativeInteger` or
    ///   `DERError.Reason.integerOverflow` at the INTEGER's offset.
    mutating func readNonNegativeInt(tag: DERTag = .integer) throws(DERError) -> Int {
        let start = offset
        let value = try readInteger(Int.self, tag: tag)
        guard value >= 0 else { throw DERError(.negativeInteger, at: start) }
        return value
    }

    /// Reads a named-bit-list BIT STRING (KeyUsage, ReasonFlags) whose named bits
    /// are 0 through `highestNamedBit` (at most 15), as a mask with bit *n* of the
    /// ASN.1 value in `1 << n`.
    ///
    /// DER requires trailing zero bits to be removed from a named bit list
    /// (X.690 §11.2.2). Tack accepts them: some deployed CAs encode KeyUsage with
    /// a whole octet (`03 02 00 86` rather than `03 02 01 86`), and the value is
    /// unambiguous; Go and OpenSSL accept them too. Set bits beyond
    /// `highestNamedBit` have no meaning and are rejected.
    ///
    /// - Returns: The mask.
    /// - Throws: A DER error for a malformed BIT STRING, or a recorded
    ///   `.invalidExtension(oid, …)` for an undefined bit, at the BIT STRING's offset.
    mutating func readNamedBits(
        highestNamedBit: Int, oid: OID, tag: DERTag = .bitString
    ) throws(X509Error) -> UInt16 {
        let offset = self.offset
        let bits = try der(readBitString(tag: tag))
        var mask: UInt16 = 0
        let undefined = withBytes(in: bits.bytesRange) { (octets) -> Int? in
            for (octetIndex, octet) in octets.enumerated() where octet != 0 {
                for bitInOctet in 0..<8 where octet & (0x80 >> bitInOctet) != 0 {
                    let bit = octetIndex * 8 + bitInOctet
                    if bit > highestNamedBit { return bit }
                    mask |= 1 << UInt16(bit)
                }
            }
            return nil
        }
        if let undefined {
            throw X509Error(.invalidExtension(oid, .undefinedBit(undefined)), at: offset)
        }
        return mask
    }
}

/// Hashes the bytes of `storage` in `range`, for types whose equality is that of
/// their encoding.
internal func encodedHash(_ storage: [UInt8], _ range: Range<Int>, into hasher: inout Hasher) {
    hasher.combine(range.count)
    for byte in storage[range] { hasher.combine(byte) }
}
