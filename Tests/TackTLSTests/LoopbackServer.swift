import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackSignature
import TackTLS
import TackTestSupport

/// An `openssl s_server -www` on 127.0.0.1 for one test, started and stopped by PID,
/// and a blocking socket transport with timeouts that drives a TLSClient against it.
/// (Tests only: the library itself has no sockets.)
struct LoopbackServer {
    let process: Process
    let port: UInt16

    static var opensslPath: String? {
        for path in ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        where FileManager.default.isExecutableFile(atPath: path) { return path }
        return nil
    }

    /// A free port: bind port 0, read it back, close (a small race other tests accept).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoopbackError.socket("socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else { throw LoopbackError.socket("bind") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Starts the server with `arguments` after the common ones; waits (≤ 5 s) until it accepts.
    static func start(identity: String, arguments: [String], www: Bool = true, input: Pipe? = nil, output: Pipe? = nil) throws -> LoopbackServer {
        guard let openssl = opensslPath else { throw LoopbackError.noOpenSSL }
        let port = try freePort()
        let directory = RepositoryPaths.vectors("tls/pki").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = [
            "s_server", "-accept", "127.0.0.1:" + String(port),
            "-cert", directory + "/leaf-" + identity + ".pem", "-key", directory + "/leaf-" + identity + ".key",
            "-cert_chain", directory + "/intermediate.pem",
        // s_server reads its stdin commands (K: KeyUpdate) only when not -quiet.
        ] + (www ? ["-www", "-quiet"] : []) + arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        let server = LoopbackServer(process: process, port: port)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            // An interactive server serves one connection at a time: wait on its port
            // without connecting (the first connection is the test's).
            if !www, (try? connectSocket(port: port, probeOnly: true)) != nil { return server }
            if www, let fd = try? connectSocket(port: port) { close(fd); return server }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        server.stop()
        throw LoopbackError.socket("s_server did not start")
    }

    /// Stops the server by its PID: SIGTERM, then SIGKILL after 3 s.
    func stop() {
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    static func connectSocket(port: UInt16, probeOnly: Bool = false) throws -> Int32 {
        if probeOnly {
            // Is something listening? /proc/net/tcp lists the port in state 0A (LISTEN).
            let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
            let needle = ":" + String(format: "%04X", port) + " 00000000:0000 0A"
            guard table.contains(needle) else { throw LoopbackError.socket("not listening") }
            return -1
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoopbackError.socket("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw LoopbackError.socket("connect") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Runs one handshake, a GET, and close; returns the session and the HTTP response.
    func exchange(_ configuration: TLSClientConfiguration) throws -> (TLSSession?, String, TLSError?) {
        let fd = try Self.connectSocket(port: port)
        defer { close(fd) }
        var client = TLSClient(configuration: configuration)
        var random = SystemRandomNumberGenerator()
        func write(_ bytes: [UInt8]) throws {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { throw LoopbackError.socket("send") }
                sent += count
            }
        }
        func read() throws -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 16_384)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else { throw LoopbackError.socket("recv (timeout)") }
            return Array(buffer[0..<count])
        }
        var response: [UInt8] = []
        do {
            try write(try client.start(random: &random))
            var rounds = 0
            while !client.isHandshakeComplete {
                rounds += 1
                guard rounds < 200 else { throw LoopbackError.socket("handshake does not finish") }
                let bytes = try read()
                guard !bytes.isEmpty else { throw LoopbackError.socket("server closed during the handshake") }
                let output = try client.receive(bytes)
                try write(output.bytesToSend)
            }
            try write(try client.seal(Array("GET / HTTP/1.0\r\n\r\n".utf8)))
            var closed = false
            while !closed {
                rounds += 1
                guard rounds < 400 else { break }
                let bytes = try read()
                if bytes.isEmpty { break }
                let output = try client.receive(bytes)
                try write(output.bytesToSend)
                response += output.applicationData
                closed = output.peerClosed
            }
            try? write(try client.close())
        } catch let error as TLSError {
            if let alert = client.alertRecord { try? write(alert) }
            return (nil, "", error)
        }
        return (client.session, String(decoding: response, as: UTF8.self), nil)
    }
}

enum LoopbackError: Error {
    case noOpenSSL
    case socket(String)
}
