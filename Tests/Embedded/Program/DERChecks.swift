// Strict DER: every malformed vector of Vectors/der fails with its exact
// (reason, offset); every valid vector parses and re-encodes byte for byte.

import TackDER

func checkDER(_ tally: inout Tally) {
    for (name, hexBytes, reason, offset) in malformedDER {
        do throws(DERError) {
            _ = try DERTree.parse(bytes(hexBytes))
            tally.check(false, "\(name) parsed; expected \(DERError(reason, at: offset))")
        } catch {
            tally.check(error.reason == reason && error.offset == offset,
                        "\(name): \(error), expected \(DERError(reason, at: offset))")
        }
    }
    for (name, hexBytes) in validDER {
        let input = bytes(hexBytes)
        do throws(DERError) {
            let tree = try DERTree.parse(input)
            tally.check(tree.encoded() == input, "\(name) re-encodes differently")
        } catch {
            tally.check(false, "\(name): \(error)")
        }
    }
}
