// libFuzzer harness for Base64 and PEM (TackDER). Built and run by
// scripts/fuzz.sh (target `pem`), not by SwiftPM; see README.md here.
//
// Beyond "never crash", it checks the round-trip properties the decoders
// promise, trapping on any violation so that libFuzzer reports it:
//
// 1. Strict Base64 is canonical: text that decodes re-encodes to itself.
// 2. Lenient Base64 (whitespace skipped) decodes like the strict decoder on
//    the same text without its whitespace, and agrees with strict decoding
//    whenever that succeeds.
// 3. Any bytes encode to text that strictly decodes back to them.
// 4. Every parsed PEM block re-encodes (PEM.encode) to text that parses to
//    exactly that block, and all blocks together parse back in order.
// 5. Every error's offset lies inside the input (0...count).

import TackDER

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPEM(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    checkBase64(input)
    checkPEM(input)
    return 0
}

private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
}

private func checkBase64(_ input: UnsafeBufferPointer<UInt8>) {
    // Property 1: strict decoding is canonical.
    var strictBytes: [UInt8]?
    do {
        let decoded = try Base64.decode(input)
        guard Base64.encodedBytes(decoded).elementsEqual(input) else {
            fatalError("strict Base64 accepted a text that does not re-encode to itself")
        }
        strictBytes = decoded
    } catch {
        guard error.offset >= 0, error.offset <= input.count else {
            fatalError("Base64Error offset \(error.offset) outside 0...\(input.count)")
        }
    }

    // Property 2: lenient decoding is strict decoding minus whitespace.
    let compact = input.filter { !isWhitespace($0) }
    do {
        let decoded = try Base64.decode(input, options: .ignoringWhitespace)
        guard Base64.encodedBytes(decoded) == compact else {
            fatalError("lenient Base64 accepted a text that does not re-encode to itself minus whitespace")
        }
        if let strictBytes, strictBytes != decoded {
            fatalError("strict and lenient Base64 disagree")
        }
        guard (try? Base64.decode(compact)) == decoded else {
            fatalError("lenient Base64 accepted a text whose compact form strict decoding rejects")
        }
    } catch {
        guard error.offset >= 0, error.offset <= input.count else {
            fatalError("Base64Error offset \(error.offset) outside 0...\(input.count)")
        }
        if strictBytes != nil {
            fatalError("lenient Base64 rejected a text that strict decoding accepts")
        }
    }

    // Property 3: arbitrary bytes round-trip through the encoder, in both
    // output forms.
    let text = Base64.encode(input)
    guard Array(text.utf8) == Base64.encodedBytes(input) else {
        fatalError("Base64.encode and Base64.encodedBytes disagree")
    }
    guard let back = try? Base64.decode(text), back.elementsEqual(input) else {
        fatalError("Base64 round trip of arbitrary bytes failed")
    }
}

private func checkPEM(_ input: UnsafeBufferPointer<UInt8>) {
    let blocks: [PEMBlock]
    do {
        blocks = try PEM.parse(input)
    } catch {
        if let offset = error.offset, offset < 0 || offset > input.count {
            fatalError("PEMError offset \(offset) outside 0...\(input.count)")
        }
        return
    }
    // Property 4: each block, and all of them together, round-trip.
    var all = ""
    var previousOffset = -1
    for block in blocks {
        guard block.offset > previousOffset, block.offset < input.count else {
            fatalError("PEM block offsets not increasing inside the input")
        }
        previousOffset = block.offset
        let text = PEM.encode(label: block.label, bytes: block.bytes)
        guard let again = try? PEM.parse(text, requiresBlock: true),
            again == [PEMBlock(label: block.label, bytes: block.bytes, offset: 0)]
        else {
            fatalError("PEM block does not round-trip through PEM.encode")
        }
        all += text
    }
    guard let again = try? PEM.parse(all),
        again.count == blocks.count,
        zip(again, blocks).allSatisfy({ $0.label == $1.label && $0.bytes == $1.bytes })
    else {
        fatalError("concatenated PEM blocks do not round-trip")
    }
}
