// libFuzzer harness for pin-policy loading (TackTrust): Tack's JSON policy, the
// JSON reader under it, and Info.plist NSPinnedDomains through the core's
// PropertyList reader. Built and run by scripts/fuzz.sh (target `policy`).
//
// Properties, each trapping on violation:
// 1. JSONReader.parse either returns a value or throws with an offset inside
//    0...count; the same holds for PropertyList parsing via the plist loader.
// 2. A policy that loads has no error-severity issue left in validate(at:) with
//    the same time and single-pin severity, every rule's domain is normalised
//    (lowercase, no trailing dot), and every rule has at least one pin.
// 3. Rule lookup is total and consistent: the rule found for each rule's own
//    domain covers that domain (or is nil only for OkHttp *. rules), and the
//    upper-cased domain finds the same rule.

import TackFormats
import TackTrust

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPinPolicy(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let time: Int64 = 1_796_126_400

    do {
        _ = try JSONReader.parse(bytes)
    } catch {
        guard error.offset >= 0, error.offset <= bytes.count else {
            fatalError("JSONError offset \(error.offset) outside 0...\(bytes.count)")
        }
    }

    let json = try? PinPolicy.load(json: bytes, at: time)
    let plist = try? PinPolicy.load(infoPlist: bytes, at: time)
    if let json { check(json.policy, time: time, singlePin: .error) }
    if let plist { check(plist.policy, time: time, singlePin: .warning) }
    return 0
}

private func check(_ policy: PinPolicy, time: Int64, singlePin: PinPolicyIssue.Severity) {
    let issues = policy.validate(at: time, singlePin: singlePin)
    if issues.contains(where: { $0.severity == .error }) {
        fatalError("a loaded policy has validation errors: \(issues)")
    }
    for rule in policy.rules {
        guard rule.hasCAPins || rule.hasLeafPins else { fatalError("a loaded rule has no pins") }
        guard !rule.domain.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }), rule.domain.utf8.last != UInt8(ascii: ".") else {
            fatalError("rule domain not normalised: \(rule.domain)")
        }
        let found = policy.ruleIndex(for: rule.domain)
        if rule.scope != .subdomainsOneLabel, found == nil { fatalError("no rule for a rule's own domain \(rule.domain)") }
        if policy.ruleIndex(for: rule.domain.uppercased()) != found { fatalError("lookup is case-sensitive for \(rule.domain)") }
        if let found, policy.rules[found].domain != rule.domain { fatalError("\(rule.domain) resolved to \(policy.rules[found].domain)") }
    }
}
