import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TackTLS
import TackTestSupport

/// KeyUpdate both ways against an interactive `openssl s_server` (its `K` command
/// sends a KeyUpdate with update_requested): the client reads the server's data under
/// the new key, answers, and the server reads the client's data under the client's new key.
@Suite("TLS 1.3 KeyUpdate against openssl s_server", .serialized,
       .enabled(if: loopbackTestsRun, "openssl is not installed (a failure when CI=true)"))
struct KeyUpdateTests {
    @Test("update_requested from the server is honoured in both directions")
    func keyUpdate() throws {
        let input = Pipe()
        let output = Pipe()
        let server = try LoopbackServer.start(identity: "p256", arguments: ["-tls1_3"], www: false, input: input, output: output)
        defer { server.stop() }
        let fd = try LoopbackServer.connectSocket(port: server.port)
        defer { close(fd) }
        var client = TLSClient(configuration: TLSClientConfiguration(serverName: "localhost", verification: .signaturesOnly))
        var random = SystemRandomNumberGenerator()
        func write(_ bytes: [UInt8]) {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count <= 0 { return }
                sent += count
            }
        }
        func read() -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 16_384)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return count > 0 ? Array(buffer[0..<count]) : []
        }
        write(try client.start(random: &random))
        var rounds = 0
        while !client.isHandshakeComplete && rounds < 50 {
            rounds += 1
            let bytes = read()
            try #require(!bytes.isEmpty)
            write(try client.receive(bytes).bytesToSend)
        }
        try #require(client.isHandshakeComplete)
        // The server: a KeyUpdate asking for ours, then a line under its new key.
        input.fileHandleForWriting.write(Data("K\n".utf8))
        usleep(200_000)
        input.fileHandleForWriting.write(Data("after-update\n".utf8))
        var received: [UInt8] = []
        rounds = 0
        while !String(decoding: received, as: UTF8.self).contains("after-update") && rounds < 50 {
            rounds += 1
            let bytes = read()
            if bytes.isEmpty { break }
            let out = try client.receive(bytes)
            write(out.bytesToSend)  // our KeyUpdate(update_not_requested)
            received += out.applicationData
        }
        #expect(String(decoding: received, as: UTF8.self).contains("after-update"))
        // "K" was a command, not data: the server did send its KeyUpdate.
        #expect(!String(decoding: received, as: UTF8.self).contains("K\n"))
        // Our data under our new key: the server prints it.
        write(try client.seal(Array("from-client\n".utf8)))
        var printed = Data()
        let deadline = Date().addingTimeInterval(5)
        let handle = output.fileHandleForReading
        let flags = fcntl(handle.fileDescriptor, F_GETFL)
        _ = fcntl(handle.fileDescriptor, F_SETFL, flags | O_NONBLOCK)
        while Date() < deadline && !String(decoding: printed, as: UTF8.self).contains("from-client") {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 { printed.append(contentsOf: chunk[0..<count]) } else { usleep(50_000) }
        }
        #expect(String(decoding: printed, as: UTF8.self).contains("from-client"))
        write(try client.close())
    }
}
