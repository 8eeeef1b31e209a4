import TackDER
import TackX509
import TackTestSupport

/// Extension values are decoded from inside a larger buffer, as from a certificate,
/// so that tests check that offsets are absolute: the value starts at `valuePad`.
let valuePad = 3

/// Decodes `value` placed at offset ``valuePad`` of a larger buffer.
func decodeValue<T>(_ value: [UInt8], _ make: ([UInt8], Range<Int>) throws -> T) throws -> T {
    let buffer = Array(repeating: 0xEE, count: valuePad) + value + [0xEE, 0xEE]
    return try make(buffer, valuePad..<(valuePad + value.count))
}

/// Bytes from a hex string.
func bytes(_ text: String, file: StaticString = #file, line: UInt = #line) -> [UInt8] {
    hexBytes(text, file: file, line: line)
}

/// The absolute offset (including ``valuePad``) of the first occurrence of
/// `pattern` in `value`.
func offset(of pattern: [UInt8], in value: [UInt8]) -> Int {
    for start in 0...(value.count - pattern.count) where Array(value[start..<(start + pattern.count)]) == pattern {
        return valuePad + start
    }
    return -1
}

/// Builds DER with a writer.
func build(_ body: (inout DERWriter) -> Void) -> [UInt8] {
    var writer = DERWriter()
    body(&writer)
    return writer.bytes
}

/// A context-specific primitive tag.
func implicitTag(_ number: UInt32) -> DERTag { .contextSpecific(number, isConstructed: false) }

/// A context-specific constructed tag.
func constructedTag(_ number: UInt32) -> DERTag { .contextSpecific(number, isConstructed: true) }
