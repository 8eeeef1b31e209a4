import Testing
import TackDER

@Suite("Hex")
struct HexTests {
    @Test("Digits of either case decode; encoding is lowercase and round-trips")
    func roundTrip() throws {
        #expect(try Hex.decode("00ff7Fa0") == [0x00, 0xFF, 0x7F, 0xA0])
        #expect(try Hex.decode("") == [])
        #expect(Hex.encode([0x00, 0xFF, 0x7F, 0xA0]) == "00ff7fa0")
        let all = (0...255).map { UInt8($0) }
        #expect(try Hex.decode(Hex.encode(all)) == all)
    }

    @Test("Separators go between bytes only; uppercase changes only the letters")
    func separatorsAndCase() {
        #expect(Hex.encode([0x00, 0xAB, 0x0F], separator: ":") == "00:ab:0f")
        #expect(Hex.encode([0x00, 0xAB], separator: " ", uppercase: true) == "00 AB")
        #expect(Hex.encode([0x9C], separator: ":") == "9c")
        #expect(Hex.encode([], separator: ":") == "")
        let all = (0...255).map { UInt8($0) }
        #expect(Hex.encode(all, uppercase: true) == Hex.encode(all).uppercased())
        #expect(Hex.encode(all, separator: "::").count == 256 * 2 + 255 * 2)
    }

    @Test("A non-digit fails at its offset; an odd count fails at the end", arguments: [
        ("0g", 1), ("x0", 0), ("00 11", 2), ("abc", 3), ("0", 1),
    ])
    func rejected(text: String, offset: Int) {
        #expect(throws: HexError(offset: offset)) { try Hex.decode(text) }
    }
}
