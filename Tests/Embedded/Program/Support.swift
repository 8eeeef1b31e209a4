// What every build of the known-answer program shares: the tally and the
// helpers that decode the generated vectors. The platform's part (`report`, the
// architecture name, `@main`) is in Main.swift for the hosted builds of
// scripts/embedded-check.sh and in Tests/BareMetal/KnownAnswers for the
// bare-metal Cortex-M4 image of scripts/baremetal-check.sh, which builds this
// file, the check files and Generated/ without Main.swift.

/// One line of the program's output, built from static text, decimal integers and
/// the descriptions of values, as UTF-8 bytes. The labels and reports are written as
/// string literals with interpolations, as before, but they build this, not a
/// `String`: the firmware image (issue 36) then links none of the standard
/// library's `String` growth, index and integer-printing code, which only this
/// output needed. A value shown through its `description` still makes a `String`;
/// the use case's lines show only integers, flags and static names.
struct Line: ExpressibleByStringInterpolation {
    private(set) var bytes: [UInt8] = []

    init(stringLiteral text: StaticString) {
        append(text)
    }

    init(stringInterpolation: Interpolation) {
        bytes = stringInterpolation.line.bytes
    }

    init() {}

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// The decimal digits of `value`, with a minus sign when it is negative.
    mutating func append(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        append(value.magnitude)
    }

    /// The decimal digits of `value`, written least significant first, then
    /// turned around in place.
    mutating func append(_ value: UInt) {
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest != 0
        bytes[start...].reverse()
    }

    /// The UTF-8 of `text`. Every native Swift string is contiguous; one that is
    /// not (bridged, on a platform with Objective-C) is said to be, not dropped.
    mutating func append(describing text: String) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if copied == nil { append("<text not contiguous in memory>") }
    }

    mutating func append(contentsOf line: Line) {
        bytes.append(contentsOf: line.bytes)
    }

    struct Interpolation: StringInterpolationProtocol {
        var line = Line()

        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ text: StaticString) { line.append(text) }
        mutating func appendInterpolation(_ text: StaticString) { line.append(text) }
        mutating func appendInterpolation(_ value: Int) { line.append(value) }
        mutating func appendInterpolation(_ value: UInt32) { line.append(UInt(value)) }
        mutating func appendInterpolation(_ value: UInt) { line.append(value) }
        mutating func appendInterpolation(_ flag: Bool) { line.append(flag ? "true" : "false") }
        mutating func appendInterpolation(_ text: String) { line.append(describing: text) }
        mutating func appendInterpolation(_ other: Line) { line.append(contentsOf: other) }
        mutating func appendInterpolation(_ value: some CustomStringConvertible) { line.append(describing: value.description) }
    }
}

/// Counts checks, per group and in total; prints each failure with its label.
struct Tally {
    var passed = 0
    var failed = 0
    var groupPassed = 0
    var groupFailed = 0

    mutating func check(_ condition: Bool, _ label: @autoclosure () -> Line) {
        if condition {
            passed += 1
            groupPassed += 1
        } else {
            failed += 1
            groupFailed += 1
            report("FAIL \(label())")
        }
    }

    /// Ends a group with one line `  <group>: N passed, N failed`.
    mutating func endGroup(_ name: StaticString) {
        report("  \(name): \(groupPassed) passed, \(groupFailed) failed")
        groupPassed = 0
        groupFailed = 0
    }
}

// MARK: Helpers

/// Decodes a hex StaticString (the generated vectors); an odd or non-hex string
/// gives the bytes decoded so far, which then fail the check they feed.
func bytes(_ hex: StaticString) -> [UInt8] {
    hex.withUTF8Buffer { text in
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 2)
        var index = 0
        while index + 1 < text.count {
            guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { break }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}

func nibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}

/// The UTF-8 bytes of a StaticString.
func utf8(_ text: StaticString) -> [UInt8] {
    text.withUTF8Buffer { Array($0) }
}

func hex(_ bytes: some Collection<UInt8>) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
    var out = ""
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
    return out
}
