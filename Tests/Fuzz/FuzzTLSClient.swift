// libFuzzer harness for TackTLS's client receive path. Built and run by
// scripts/fuzz.sh (target `tls`), not by SwiftPM; DeterministicStream and its
// RandomSource conformance are compiled in from Sources/TackTestSupport.
//
// The input is a seed (its first 8 bytes, little-endian) and server bytes (the rest):
// a client whose randomness is DeterministicStream(state: seed) sends its ClientHello
// and receives the server bytes in chunks of 1 + (seed >> 56) % 64 bytes (so that
// record and handshake reassembly is fuzzed too). The seeds in Vectors/tls/fuzz-seeds
// are the recorded flights with their recording's seed (Vectors/tls/generate.sh), so
// mutations start from handshakes that decrypt and verify. Every refusal is a typed
// TLSError; a handshake that completes must have its session.

import TackSignature
import TackTLS

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLSClient(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var seed: UInt64 = 0
    for (index, byte) in bytes.prefix(8).enumerated() { seed |= UInt64(byte) << (8 * UInt64(index)) }
    if seed == 0 { seed = 1 }  // zero is the stream's fixed point
    let server = bytes.dropFirst(8)
    var client = TLSClient(configuration: TLSClientConfiguration(serverName: "localhost", verification: .signaturesOnly))
    var random = DeterministicStream(state: seed)
    let chunk = 1 + Int((seed >> 56) % 64)
    do throws(TLSError) {
        _ = try client.start(random: &random)
        var offset = server.startIndex
        while offset < server.endIndex {
            let end = server.endIndex - offset > chunk ? offset + chunk : server.endIndex
            let output = try client.receive(server[offset..<end])
            if output.handshakeCompleted {
                guard client.isHandshakeComplete, client.session != nil else { fatalError("completed without a session") }
                _ = try client.seal([0x47, 0x45, 0x54])
                _ = try client.close()
                break
            }
            offset = end
        }
    } catch {
        guard error.code.hasPrefix("tls.") else { fatalError("an error without its tls. code: \(error.code)") }
    }
    return 0
}
