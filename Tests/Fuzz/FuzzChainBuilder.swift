// libFuzzer harness for the chain builder (TackTrust). Built and run by
// scripts/fuzz.sh (target `chain`), not by SwiftPM; see README.md here.
//
// The input is a bag of certificates, each framed as a 2-byte big-endian length
// and that many bytes of DER (the first is the leaf; what is left over at the end
// is one more element); an input whose framing does not hold is one certificate.
// The bag is evaluated against a fixed anchor store, the roots of
// Vectors/chains (read once), at the chains' validation time. Beyond "never
// crash": the budget is never overrun, a trusted verdict has a path from the
// leaf to an anchor of the store, and a failure names a certificate that exists.

import Foundation
import TackTrust
import TackX509

private let anchors: AnchorStore = {
    let chains = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Vectors/chains")
    var store = AnchorStore()
    for file in ["rsa/root.der", "ecdsa/root.der", "nc/root.der", "topology/old-root.der", "decoys/root.der"] {
        if let data = FileManager.default.contents(atPath: chains.appendingPathComponent(file).path),
           let certificate = try? Certificate(derEncoded: [UInt8](data)) {
            store.add(certificate)
        }
    }
    return store
}()

/// Splits the framed bag; `nil` when the framing does not hold.
private func split(_ bytes: [UInt8]) -> [[UInt8]]? {
    var parts: [[UInt8]] = []
    var index = 0
    while index + 2 <= bytes.count {
        let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
        index += 2
        guard length <= bytes.count - index else { return nil }
        parts.append(Array(bytes[index..<(index + length)]))
        index += length
    }
    if index < bytes.count { parts.append(Array(bytes[index...])) }
    return parts.isEmpty ? nil : parts
}

/// The host every bag is checked for.
let host = try? PeerHost("example.com")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChainBuilder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let served = split(bytes) ?? [bytes]
    let options = TrustOptions()
    let result = TrustEvaluator(anchors: anchors, options: options).evaluate(servedChain: served, host: host, at: 1_748_736_000)
    let details = result.details
    guard details.signatureChecks <= options.budget.signatureChecks,
          details.buildSteps <= options.budget.buildSteps else {
        fatalError("budget overrun: \(details.signatureChecks) signatures, \(details.buildSteps) steps")
    }
    switch result {
    case .trusted(let path, _), .pinMismatch(let path, _):
        guard let anchor = path.anchor, anchors.contains(anchor),
              path.references.first == .served(index: 0) else { fatalError("trusted without a leaf-to-anchor path") }
    case .untrusted(let failure, _):
        switch failure.certificate {
        case .served(let index)?: guard index >= 0, index < served.count else { fatalError("failure names served #\(index)") }
        case .anchor(let index)?: guard index >= 0, index < anchors.count else { fatalError("failure names anchor #\(index)") }
        case nil: break
        }
    }
    return 0
}
