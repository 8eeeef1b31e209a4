import TackDER

// Keys for names that match (RFC 5280 §7.1, as NameMatching.swift implements it):
// `matchKey`, a byte string equal exactly for matching names, and `matchHash`, a hash
// equal for them, both built from the string preparation of NameMatching.swift
// (PreparedScalars, PreparedOctets), so that a lookup by key or hash agrees with
// `DistinguishedName.matches(_:)`.

extension DistinguishedName {
    /// A byte string that is equal for two names exactly when they match under
    /// ``matches(_:)``: a hashable key for indexing certificates by subject
    /// during chain building (look up an issuer's key in a dictionary of subject
    /// keys, instead of comparing names pairwise).
    ///
    /// The key lists the RDNs in order; each RDN lists its attributes sorted (so
    /// member order does not matter), each attribute being its type and either
    /// the prepared UTF-8 text of a string value (the string preparation of
    /// ``matches(_:)``) or the raw encoding of any other value. Every part is
    /// length-prefixed, so distinct names cannot collide. The key is not a
    /// stable serialization: compare keys only within one version of Tack.
    public var matchKey: [UInt8] {
        // Built in one buffer: the chain builder keys every certificate's subject
        // and issuer on every evaluation (`e2e-*-preparsed`), and an RDN of one
        // attribute, nearly every RDN there is, needs no sorting.
        var key: [UInt8] = []
        key.reserveCapacity(128)
        appendLength(count, to: &key)
        for rdn in self {
            var attributes = rdn.makeIterator()
            guard let first = attributes.next() else {
                appendLength(0, to: &key)  // unreachable: a checked RDN has an attribute
                continue
            }
            guard let second = attributes.next() else {
                appendLength(1, to: &key)
                first.appendMatchKey(to: &key)
                continue
            }
            var members: [[UInt8]] = []
            for attribute in [first, second] + IteratorSequence(attributes) {
                var member: [UInt8] = []
                attribute.appendMatchKey(to: &member)
                members.append(member)
            }
            members.sort { $0.lexicographicallyPrecedes($1) }
            appendLength(members.count, to: &key)
            for member in members { key.append(contentsOf: member) }
        }
        return key
    }
}

extension DistinguishedName {
    /// A hash of ``matchKey`` computed in place, without building the key: equal for
    /// two names that match under ``matches(_:)``; two names that do not match may
    /// still share it, so a lookup by it confirms with ``matches(_:)``. For finding an
    /// issuer's name among many without an allocation (the chain builder's anchor
    /// lookup, issue 35). It is FNV-1a, unkeyed, the same in every process: a value an
    /// attacker aims at another name's costs that lookup one comparison, never a wrong
    /// match, and an image that hashes nothing else links no `Hasher` (issue 36).
    ///
    /// The RDNs are hashed in order; the attributes of an RDN are combined by a sum of
    /// their own hashes, so their order does not matter (as ``matchKey`` sorts them);
    /// an attribute hashes its type and the prepared text of a string value (the
    /// string preparation of ``matches(_:)``) or the encoding of any other value.
    public var matchHash: Int {
        var hasher = NameHasher()
        hasher.combine(count)
        for rdn in self {
            var members = 0
            var sum = 0
            for attribute in rdn {
                members += 1
                sum &+= attribute.matchHash
            }
            hasher.combine(members)
            hasher.combine(sum)
        }
        return hasher.value
    }
}

/// FNV-1a over 64 bits (the FNV specification's offset basis and prime), for
/// ``DistinguishedName/matchHash``: a lookup key that ``DistinguishedName/matches(_:)``
/// always confirms, so it needs spread, not secrecy.
private struct NameHasher {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of what was combined.
    var value: Int { Int(truncatingIfNeeded: state) }

    mutating func combine(byte: UInt8) {
        state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3  // modulo 2⁶⁴, as FNV defines it
    }

    mutating func combine(bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { combine(byte: byte) }
    }

    /// The value's eight octets, least significant first.
    mutating func combine(_ value: Int) {
        let bits = UInt64(truncatingIfNeeded: value)
        for shift in stride(from: 0, to: 64, by: 8) { combine(byte: UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    /// The value's four octets, least significant first (a Unicode scalar).
    mutating func combine(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { combine(byte: UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// `combine(UInt32(octet))` in one step: the scalar's three zero octets only
    /// multiply by the prime, so the four steps are one multiplication by the prime's
    /// fourth power (modulo 2⁶⁴).
    private mutating func combine(scalarOctet octet: UInt8) {
        state = (state ^ UInt64(octet)) &* 0x9ffa_ac08_5635_bc91  // 0x100000001b3⁴ modulo 2⁶⁴
    }

    /// Combines the prepared scalars of a string whose octets are its scalars (the
    /// string preparation of ``PreparedScalars``, to the same state as combining each
    /// of its scalars), or returns `false` at an octet above 0x7F when `asciiOnly`
    /// (UTF-8: such an octet starts a multi-octet scalar), the state then unspecified.
    mutating func combinePrepared(octets: UnsafeBufferPointer<UInt8>, asciiOnly: Bool) -> Bool {
        var started = false
        var pendingSpace = false
        for octet in octets {
            switch octet {
            case 0x20, 0x09...0x0D:
                if started { pendingSpace = true }
                continue
            case 0x80...:
                if asciiOnly { return false }
            default:
                break
            }
            if pendingSpace {
                combine(scalarOctet: 0x20)
                pendingSpace = false
            }
            started = true
            combine(scalarOctet: octet &- 0x41 < 26 ? octet &+ 0x20 : octet)
        }
        return true
    }
}

extension RelativeDistinguishedName.Attribute {
    /// One attribute's part of ``DistinguishedName/matchHash``: the same bytes as
    /// ``appendMatchKey(to:)`` appends, hashed (no length prefixes: a collision
    /// costs a name comparison, never a wrong match).
    internal var matchHash: Int { matchHash(octetwise: true) }

    /// ``matchHash``; `octetwise: false` takes the scalar iterator for every string
    /// (the general path, for testing the octet-by-octet one against it).
    internal func matchHash(octetwise: Bool) -> Int {
        var hasher = NameHasher()
        type.withContents { contents in hasher.combine(bytes: contents) }
        storage.withUnsafeBufferPointer { buffer in
            if let kind = stringKind {
                hasher.combine(byte: 1)
                let contents = UnsafeBufferPointer(rebasing: buffer[valueElement.contentRange])
                // Octet strings (and UTF-8 that is all ASCII) are prepared octet by octet,
                // to the same hash; other text takes the scalar iterator.
                var octetHasher = hasher
                if octetwise, kind != .bmp, kind != .universal, octetHasher.combinePrepared(octets: contents, asciiOnly: kind == .utf8) {
                    hasher = octetHasher
                } else {
                    var scalars = PreparedScalars(contents, kind: kind)
                    while let scalar = scalars.next() { hasher.combine(scalar.value) }
                }
            } else {
                hasher.combine(byte: 2)
                hasher.combine(bytes: UnsafeBufferPointer(rebasing: buffer[valueElement.encodedRange]))
            }
        }
        return hasher.value
    }

    /// Appends the self-delimiting key of one attribute; see ``DistinguishedName/matchKey``.
    internal func appendMatchKey(to key: inout [UInt8]) {
        type.withContents { contents in
            appendLength(contents.count, to: &key)
            key.append(contentsOf: contents)
        }
        if let kind = stringKind {
            key.append(1)
            // The prepared text's length is known once it is written: reserve its
            // four octets, then fill them in.
            let lengthAt = key.count
            appendLength(0, to: &key)
            storage.withUnsafeBufferPointer { buffer in
                var scalars = PreparedScalars(UnsafeBufferPointer(rebasing: buffer[valueElement.contentRange]), kind: kind)
                while let scalar = scalars.next() { UTF8.encode(scalar) { key.append($0) } }
            }
            let length = key.count - lengthAt - 4
            for offset in 0..<4 {
                key[lengthAt + offset] = UInt8(truncatingIfNeeded: length >> (24 - 8 * offset))
            }
        } else {
            key.append(2)
            appendLength(valueElement.encodedRange.count, to: &key)
            key.append(contentsOf: storage[valueElement.encodedRange])
        }
    }
}

/// Appends `length` as four big-endian octets (lengths here are below 2^32: they
/// come from DER elements of at most four length octets).
private func appendLength(_ length: Int, to key: inout [UInt8]) {
    key.append(UInt8(truncatingIfNeeded: length >> 24))
    key.append(UInt8(truncatingIfNeeded: length >> 16))
    key.append(UInt8(truncatingIfNeeded: length >> 8))
    key.append(UInt8(truncatingIfNeeded: length))
}
