// libFuzzer harness for the property-list reader, XML and binary (TackFormats) that `tack lint`
// and `PinPolicy.load(infoPlist:)` read Info.plist with. Built and run by
// scripts/fuzz.sh (target `plist`), not by SwiftPM; see README.md here.
//
// Properties, each trapping on violation:
// 1. PropertyList.parse either returns a value or throws a PropertyListError
//    whose location lies inside the input (offset in 0...count; in XML, line and
//    column at least 1, column no further than the offset allows; in a binary
//    property list, line and column 0).
// 2. An accepted document's value, written back by PropertyList.xmlDocument,
//    parses again to an equal value (the writer emits only what the reader
//    accepts, and the reader loses nothing the writer keeps).

import TackFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPropertyList(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let value: PropertyListValue
    do {
        value = try PropertyList.parse(bytes)
    } catch {
        let at = error.location
        let placed = at.isBinary
            ? at.line == 0 && at.column == 0
            : at.line >= 1 && at.column >= 1 && at.column <= at.offset + 1
        guard at.offset >= 0, at.offset <= size, placed else {
            fatalError("error location \(at) (offset \(at.offset)) outside the \(size)-byte input")
        }
        return 0
    }
    let written = PropertyList.xmlDocument(value)
    let again: PropertyListValue
    do {
        again = try PropertyList.parse(written)
    } catch {
        fatalError("the written document does not parse (\(error)):\n\(written)")
    }
    guard again == value else { fatalError("round trip changed the value:\n\(written)") }
    return 0
}
