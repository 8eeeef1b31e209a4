// INTEGERs at the 32- and 64-bit boundaries (Vectors/extensions/int-widths): a value
// that fits this target's Int decodes to itself, one that does not is the typed
// error integerOverflow at the INTEGER's offset; 32-bit armv7 and 64-bit targets
// therefore answer differently for 2^31 ... 2^63 − 1, and both must be right.

#if !CORE_ONLY
import TackDER
import TackX509

func checkIntegerWidths(_ tally: inout Tally) {
    for (name, extensionName, hexValue, high, low, offset) in intWidthVectors {
        let der = bytes(hexValue)
        let range = 0..<der.count
        // The expected value, when it fits Int here.
        let fits = high == 0 && low <= UInt64(Int.max)
        var decoded: Int? = nil
        var failure: X509Error? = nil
        do throws(X509Error) {
            if same(extensionName, "basicConstraints") {
                decoded = try BasicConstraints(derEncoded: der, valueRange: range).pathLengthConstraint
            } else if same(extensionName, "inhibitAnyPolicy") {
                decoded = try InhibitAnyPolicy(derEncoded: der, valueRange: range).skipCerts
            } else if same(extensionName, "policyConstraints.inhibitPolicyMapping") {
                decoded = try PolicyConstraints(derEncoded: der, valueRange: range).inhibitPolicyMapping
            } else {
                tally.check(false, "\(name): unknown extension \(extensionName)")
                continue
            }
        } catch {
            failure = error
        }
        if fits {
            tally.check(decoded.map { UInt64($0) == low } == true,
                        "\(name): \(decoded.map { "\($0)" } ?? "\(failure.map { "\($0)" } ?? "nil")"), expected \(low)")
        } else {
            let derError = failure?.derError
            tally.check(derError?.reason == .integerOverflow && derError?.offset == offset,
                        "\(name): \(failure.map { "\($0)" } ?? "decoded \(decoded.map { "\($0)" } ?? "nil")"), expected integerOverflow at \(offset) (Int is \(Int.bitWidth) bits)")
        }
    }
}

#endif
