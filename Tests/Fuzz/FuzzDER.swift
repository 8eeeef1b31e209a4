// libFuzzer target: a generic strict walk of any input, then a re-encode check.
// Built by scripts/fuzz.sh (target `der`); not part of the SwiftPM package.
import TackDER

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDER(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let tree = try? DERTree.parse(bytes) else { return 0 }
    // Whatever the strict reader accepts, the writer must reproduce byte for byte.
    precondition(tree.encoded() == bytes, "DER round trip mismatch")
    return 0
}
