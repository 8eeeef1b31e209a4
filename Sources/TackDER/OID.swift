/// An ASN.1 OBJECT IDENTIFIER (X.680 §32, encoded per X.690 §8.19).
///
/// The value is kept in its DER contents form (the base-128 subidentifiers), inline:
/// up to ``maximumLength`` (56) octets in seven words, with no heap storage and no
/// reference counting. `OID` is a trivial value type, so the records that hold one
/// (algorithm identifiers, extensions, name attributes) copy as plain memory, and two
/// identifiers compare with a few word compares.
///
/// The 56-octet bound is a resource limit of Tack's, not of X.690: the identifiers of
/// the Web PKI are at most about 10 octets, UUID identifiers under `2.25` 20, and the
/// longest family seen in certificates, Microsoft's certificate-template identifiers
/// under `1.3.6.1.4.1.311.21.8` (eight arcs of up to 28 bits), about 40. Longer
/// identifiers are refused with ``DERError/Reason/objectIdentifierTooLong``.
///
/// `OID` is the ASN.1 term of art; the name also avoids the standard library's
/// `ObjectIdentifier`.
public struct OID: Sendable, Hashable, CustomStringConvertible {
    /// The contents octets in memory order; octets past `count` are zero, so equal
    /// identifiers have equal words.
    @usableFromInline internal var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
    /// The number of contents octets, at most ``maximumLength``.
    @usableFromInline internal var count: UInt8 = 0

    /// The longest identifier accepted, in contents octets: 56 (see the type's
    /// discussion for why this is enough).
    public static let maximumLength = 56

    /// Creates an identifier from contents octets that are already known to be valid
    /// (``validate(_:)`` returned `nil`, so there are at most ``maximumLength``).
    @inlinable
    internal init(uncheckedContents contents: UnsafeBufferPointer<UInt8>) {
        // Internal invariant: every caller validated the length first.
        precondition(contents.count <= OID.maximumLength, "OID longer than maximumLength")
        count = UInt8(truncatingIfNeeded: contents.count)
        guard let source = contents.baseAddress else { return }
        let length = contents.count
        withUnsafeMutableBytes(of: &words) { target in
            // Whole words while eight octets remain, then single octets; every read is
            // below `length` and every write below 56 bytes.
            let raw = UnsafeRawPointer(source)
            var index = 0
            while length &- index >= 8 {
                target.storeBytes(of: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self),
                                  toByteOffset: index, as: UInt64.self)
                index &+= 8
            }
            while index < length {
                target[index] = source[index]
                index &+= 1
            }
        }
    }

    /// An identifier of `count` zero octets, for initializers that fill `words` in place.
    @inlinable
    internal init(zeroedCount count: Int) {
        self.count = UInt8(truncatingIfNeeded: count)
    }

    /// Two identifiers are equal when their contents octets are.
    @inlinable
    public static func == (lhs: OID, rhs: OID) -> Bool {
        // Octets past `count` are zero in both, so whole words compare.
        guard lhs.count == rhs.count, lhs.words.0 == rhs.words.0, lhs.words.1 == rhs.words.1 else { return false }
        if lhs.count <= 16 { return true }
        return lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4
            && lhs.words.5 == rhs.words.5 && lhs.words.6 == rhs.words.6
    }

    /// Hashes the contents octets.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
        hasher.combine(words.4)
        hasher.combine(words.5)
        hasher.combine(words.6)
    }

    /// Creates an identifier from its DER contents octets, checking them.
    ///
    /// - Parameter contents: The contents octets (no tag or length).
    /// - Throws: ``DERError`` (offset 0) if the octets are not a valid identifier.
    public init(contents: some Collection<UInt8>) throws(DERError) {
        let bytes = Array(contents)
        let result = bytes.withUnsafeBufferPointer { (buffer) -> Result<OID, DERError> in
            if let reason = OID.validate(buffer) { return .failure(DERError(reason, at: 0)) }
            return .success(OID(uncheckedContents: buffer))
        }
        self = try result.get()
    }

    /// Creates an identifier from its arcs, for constants written in source code.
    ///
    /// The arcs must form a valid identifier (at least two arcs, the first 0, 1 or 2,
    /// the second below 40 when the first is 0 or 1); anything else is a programming
    /// error and stops the program. To parse untrusted text use ``init(dotted:)``.
    ///
    /// - Parameter arcs: The arcs, for example `1, 2, 840, 113549, 1, 1, 1`.
    public init(_ arcs: UInt64...) {
        // Encoded straight into the inline words: no array of octets (an identifier
        // built in a function body, such as a digest's, costs no allocation for it).
        guard let count = OID.encode(arcs: arcs, into: &words) else { preconditionFailure("invalid OID constant") }
        self.count = UInt8(truncatingIfNeeded: count)
    }

    /// Parses a dotted-decimal identifier such as `"2.5.4.3"`.
    ///
    /// Each arc is a decimal number without leading zeros, of any size (so UUID arcs
    /// under `2.25` parse); the first arc is 0, 1 or 2, and the second is below 40
    /// unless the first is 2.
    ///
    /// - Parameter dotted: The dotted string.
    /// - Throws: ``DERError/Reason/invalidObjectIdentifierString`` (offset: the index
    ///   of the character where parsing failed).
    public init(dotted: String) throws(DERError) {
        // An identifier of at most maximumLength (56) octets has at most 4 characters
        // per octet in dotted form (a one-octet arc: up to 3 digits and a dot; longer
        // arcs have fewer per octet), so 256 characters bound every valid string and
        // keep the base conversion below from doing quadratic work on long input.
        guard dotted.utf8.count <= 256 else { throw DERError(.objectIdentifierTooLong, at: 0) }
        // Split into arcs of decimal digits, checking the characters.
        var arcs: [[UInt8]] = [[]]
        var position = 0
        for byte in dotted.utf8 {
            if byte == UInt8(ascii: ".") {
                guard let last = arcs.last, !last.isEmpty else { throw DERError(.invalidObjectIdentifierString, at: position) }
                arcs.append([])
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if let last = arcs.last, last == [0] { throw DERError(.invalidObjectIdentifierString, at: position) }
                arcs[arcs.count - 1].append(byte - UInt8(ascii: "0"))
            } else {
                throw DERError(.invalidObjectIdentifierString, at: position)
            }
            position += 1
        }
        guard arcs.count >= 2, let last = arcs.last, !last.isEmpty else {
            throw DERError(.invalidObjectIdentifierString, at: position)
        }
        guard arcs[0].count == 1, arcs[0][0] <= 2 else { throw DERError(.invalidObjectIdentifierString, at: 0) }
        let first = Int(arcs[0][0])
        if first < 2 && (arcs[1].count > 2 || (arcs[1].count == 2 && arcs[1][0] * 10 + arcs[1][1] >= 40)) {
            throw DERError(.invalidObjectIdentifierString, at: 2)
        }
        var out: [UInt8] = []
        OID.appendBase128(decimalDigits: arcs[1], adding: UInt32(first * 40), to: &out)
        for arc in arcs.dropFirst(2) { OID.appendBase128(decimalDigits: arc, adding: 0, to: &out) }
        // The arcs are well formed; the encoding must also respect Tack's limits
        // (arcs of at most maximumArcOctets, at most maximumLength octets in all).
        let reason = out.withUnsafeBufferPointer { OID.validate($0) }
        if let reason { throw DERError(reason, at: 0) }
        self = out.withUnsafeBufferPointer { OID(uncheckedContents: $0) }
    }

    /// Appends the base-128 subidentifier of a decimal number (given as digits, most
    /// significant first) plus `addend`, for arcs of any size.
    internal static func appendBase128(decimalDigits digits: [UInt8], adding addend: UInt32, to out: inout [UInt8]) {
        // Big-endian limbs in base 10^9 would be simpler to print; here we need
        // repeated division by 128, so keep little-endian limbs of 2^28.
        var limbs: [UInt32] = [0]  // little-endian, base 2^28
        func multiplyAdd(_ factor: UInt64, _ carryIn: UInt64) {
            var carry = carryIn
            for i in 0..<limbs.count {
                // limb < 2^28, factor <= 10, carry < 2^32: the product fits in 64 bits.
                let value = UInt64(limbs[i]) * factor + carry
                limbs[i] = UInt32(value & 0x0FFF_FFFF)
                carry = value >> 28
            }
            while carry != 0 {
                limbs.append(UInt32(carry & 0x0FFF_FFFF))
                carry >>= 28
            }
        }
        for digit in digits { multiplyAdd(10, UInt64(digit)) }
        multiplyAdd(1, UInt64(addend))
        // Peel off septets, least significant first.
        var septets: [UInt8] = []
        repeat {
            septets.append(UInt8(truncatingIfNeeded: limbs[0] & 0x7F))
            var carry: UInt32 = 0
            for i in stride(from: limbs.count - 1, through: 0, by: -1) {
                let value = (UInt64(carry) << 28) | UInt64(limbs[i])
                limbs[i] = UInt32(truncatingIfNeeded: value >> 7)
                carry = UInt32(truncatingIfNeeded: value & 0x7F)
            }
            while limbs.count > 1 && limbs[limbs.count - 1] == 0 { limbs.removeLast() }
        } while !(limbs.count == 1 && limbs[0] == 0)
        for (index, septet) in septets.enumerated().reversed() {
            out.append(index == 0 ? septet : septet | 0x80)
        }
    }

    /// Encodes arcs into contents octets in `words` (zero beyond them), returning their
    /// number, or `nil` if the arcs are not a valid identifier or take more than
    /// ``maximumLength`` octets.
    internal static func encode(
        arcs: [UInt64], into words: inout (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    ) -> Int? {
        guard arcs.count >= 2, arcs[0] <= 2 else { return nil }
        if arcs[0] < 2 && arcs[1] >= 40 { return nil }
        let (first, overflow) = (arcs[0] * 40).addingReportingOverflow(arcs[1])
        guard !overflow else { return nil }
        return withUnsafeMutableBytes(of: &words) { target -> Int? in
            var length = 0
            /// Writes `value` as a minimal base-128 subidentifier (X.690 §8.19.2).
            func put(_ value: UInt64) -> Bool {
                var septets = 1
                var probe = value >> 7
                while probe != 0 { septets += 1; probe >>= 7 }
                guard septets <= target.count - length else { return false }
                for index in stride(from: septets - 1, through: 0, by: -1) {
                    let septet = UInt8(truncatingIfNeeded: value >> UInt64(index * 7)) & 0x7F
                    target[length] = index == 0 ? septet : septet | 0x80
                    length += 1
                }
                return true
            }
            guard put(first) else { return nil }
            for arc in arcs.dropFirst(2) { guard put(arc) else { return nil } }
            return length
        }
    }

    /// Appends `value` as a minimal base-128 subidentifier (X.690 §8.19.2).
    internal static func appendBase128(_ value: UInt64, to out: inout [UInt8]) {
        var septets = 1
        var probe = value >> 7
        while probe != 0 { septets += 1; probe >>= 7 }
        for index in stride(from: septets - 1, through: 0, by: -1) {
            let septet = UInt8(truncatingIfNeeded: value >> UInt64(index * 7)) & 0x7F
            out.append(index == 0 ? septet : septet | 0x80)
        }
    }

    /// The longest arc accepted, in contents octets (224 bits).
    ///
    /// X.690 sets no limit, but turning an arc into decimal costs the square of its
    /// length, so a hostile 64 KiB arc would cost about a second to render. The
    /// largest arcs in real use are UUIDs under `2.25` (128 bits, 19 octets).
    public static let maximumArcOctets = 32

    /// Checks contents octets (X.690 §8.19.2); returns the broken rule or `nil`.
    internal static func validate(_ contents: UnsafeBufferPointer<UInt8>) -> DERError.Reason? {
        guard let last = contents.last else { return .emptyObjectIdentifier }
        guard last & 0x80 == 0 else { return .truncatedObjectIdentifier }
        guard contents.count <= maximumLength else { return .objectIdentifierTooLong }
        var arcLength = 0
        for byte in contents {
            if arcLength == 0 && byte == 0x80 { return .nonMinimalObjectIdentifierArc }
            arcLength += 1
            if arcLength > maximumArcOctets { return .objectIdentifierArcTooLong }
            if byte & 0x80 == 0 { arcLength = 0 }
        }
        return nil
    }

    /// The DER contents octets (the encoding without tag and length).
    public var contents: [UInt8] { withContents { Array($0) } }

    /// The arcs, or `nil` if an arc does not fit 64 bits (for example a UUID under
    /// `2.25`); ``dottedString`` renders those too.
    public var arcs: [UInt64]? {
        withContents { buffer -> [UInt64]? in
            var result: [UInt64] = []
            var value: UInt64 = 0
            var septets = 0
            for byte in buffer {
                guard septets < 9 else { return nil }  // 9 septets = 63 bits: safe shift
                value = (value << 7) | UInt64(byte & 0x7F)
                septets += 1
                if byte & 0x80 == 0 {
                    if result.isEmpty {
                        let first: UInt64 = value < 40 ? 0 : (value < 80 ? 1 : 2)
                        result.append(first)
                        result.append(value - first * 40)
                    } else {
                        result.append(value)
                    }
                    value = 0
                    septets = 0
                }
            }
            return result
        }
    }

    /// The dotted-decimal form, for example `"1.2.840.113549.1.1.11"`.
    ///
    /// Arcs of any size are rendered exactly.
    public var dottedString: String {
        // Written as ASCII bytes and made a String once: no `String` appends or
        // `String(repeating:)`, whose generic index code a firmware image would link
        // for this.
        withContents { buffer in
            var text: [UInt8] = []
            var arcStart = 0
            for index in 0..<buffer.count where buffer[index] & 0x80 == 0 {
                let digits = OID.decimalDigits(ofSeptets: UnsafeBufferPointer(rebasing: buffer[arcStart...index]))
                if arcStart == 0 {
                    // X.690 §8.19.4: the first subidentifier is 40 × the first arc plus
                    // the second, and the first arc is 2 for every value from 80.
                    var value = 80
                    if digits.count <= 2 { value = digits.reduce(0) { $0 * 10 + Int($1 &- UInt8(ascii: "0")) } }
                    let firstArc = min(value / 40, 2)
                    text.append(UInt8(ascii: "0") + UInt8(firstArc))
                    text.append(UInt8(ascii: "."))
                    text.append(contentsOf: OID.subtractSmall(UInt32(firstArc * 40), fromDecimal: digits))
                } else {
                    text.append(UInt8(ascii: "."))
                    text.append(contentsOf: digits)
                }
                arcStart = index + 1
            }
            // Decimal digits and dots.
            return TextBytes.string(writtenUTF8: text)
        }
    }

    /// The dotted-decimal form.
    public var description: String { dottedString }

    /// The ASCII decimal digits of a base-128 subidentifier of any length.
    internal static func decimalDigits(ofSeptets septets: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        // Little-endian limbs in base 10^9; value = value * 128 + septet.
        var limbs: [UInt32] = [0]
        for byte in septets {
            var carry = UInt64(byte & 0x7F)
            for i in 0..<limbs.count {
                // limb < 10^9, so limb * 128 + carry < 2^38: no overflow in UInt64.
                let value = UInt64(limbs[i]) * 128 + carry
                limbs[i] = UInt32(value % 1_000_000_000)
                carry = value / 1_000_000_000
            }
            if carry != 0 { limbs.append(UInt32(carry)) }
        }
        var digits: [UInt8] = []
        // The most significant limb without leading zeros, every other one as nine digits.
        for position in limbs.indices.reversed() {
            var limb = limbs[position]
            var limbDigits: [UInt8] = []
            repeat {
                limbDigits.append(UInt8(ascii: "0") + UInt8(limb % 10))
                limb /= 10
            } while limb != 0
            if position != limbs.count - 1 {
                digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 9 - limbDigits.count))
            }
            digits.append(contentsOf: limbDigits.reversed())
        }
        return digits
    }

    /// Subtracts a small value from a non-negative number in ASCII decimal digits
    /// known to be at least as large.
    internal static func subtractSmall(_ value: UInt32, fromDecimal decimal: [UInt8]) -> [UInt8] {
        var digits = decimal.map { Int($0) - 48 }
        var borrow = Int(value)
        var index = digits.count - 1
        while borrow != 0 && index >= 0 {
            let current = digits[index] - borrow % 10
            borrow /= 10
            if current < 0 {
                digits[index] = current + 10
                borrow += 1
            } else {
                digits[index] = current
            }
            index -= 1
        }
        let trimmed = digits.drop(while: { $0 == 0 })
        if trimmed.isEmpty { return [UInt8(ascii: "0")] }
        return trimmed.map { UInt8($0 + 48) }
    }
}

extension OID {
    /// The fast path of ``DERReader/readObjectIdentifier(tag:)``: checks and copies
    /// `count` contents octets at `base` in one pass, reading whole words.
    ///
    /// - Parameters:
    ///   - base: The first contents octet. The caller guarantees that 32 octets from
    ///     `base` are readable (they may run past the contents: octets beyond `count`
    ///     are masked off, never used). Whole-word reads end at most 32 octets on.
    ///   - count: The contents length, 1 through 32 (so no arc can exceed
    ///     ``maximumArcOctets``).
    /// - Returns: The identifier, or `nil` if the octets break a rule (the caller then
    ///   takes the general path, which names the rule).
    @inlinable
    internal static func readFast(_ base: UnsafePointer<UInt8>, count: Int) -> OID? {
        // X.690 §8.19.2: the last octet ends an arc, and no arc starts with 0x80.
        guard base[count &- 1] & 0x80 == 0 else { return nil }
        var oid = OID(zeroedCount: count)
        let raw = UnsafeRawPointer(base)
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        // Bit 7 of octet 0 of the next word: whether the octet before it ended an arc
        // (the first octet starts the first arc).
        var endedCarry: UInt64 = 0x80
        var badStarts: UInt64 = 0
        withUnsafeMutableBytes(of: &oid.words) { target in
            var offset = 0
            while offset < count {
                // Octets are numbered little-endian in the word (octet i at bits 8i...),
                // so the shifts below mean the same on any host.
                let remaining = count &- offset
                let loaded = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let word = remaining >= 8 ? loaded : loaded & ((1 &<< UInt64(remaining &* 8)) &- 1)
                // Bit 7 of each octet that is exactly 0x80 (an exact zero-octet test of word ^ 0x80...).
                let flipped = word ^ highBits
                let is80 = ~(((flipped & lowBits) &+ lowBits) | flipped) & highBits
                // Bit 7 of each octet whose predecessor ended an arc (had bit 7 clear).
                let ended = ~word & highBits
                let previousEnded = (ended &<< 8) | endedCarry
                endedCarry = ended &>> 56
                // Octets past `count` are zero, never 0x80: they cannot be flagged.
                badStarts |= is80 & previousEnded
                target.storeBytes(of: word.littleEndian, toByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
        }
        guard badStarts == 0 else { return nil }
        return oid
    }
}
