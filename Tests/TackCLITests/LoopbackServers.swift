import Foundation
import TackTestSupport

/// Servers on 127.0.0.1 for the `fetch` / `--connect` tests: `openssl s_server` with a
/// configuration, a plain TCP listener that answers HTTP, one that accepts and stays
/// silent, and a port where nothing listens. Each listens on a port the system picks
/// (no race for a "free" port), is bounded in time, and is stopped by its PID.
enum LoopbackServers {
    /// The `openssl` found on PATH, or nil (the tests then skip, except under CI=true).
    static let openssl: String? = {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = String(directory) + "/openssl"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }()

    /// The test PKI (Vectors/tls/pki/generate.py), relative to the repository root.
    static let pki = "Vectors/tls/pki"
}

/// A running `openssl s_server`, killed (by PID) by `stop()` or when the value goes away.
/// A test calls `defer { server.stop() }` right after starting one: in an optimized build
/// a value may be released after its last use, which for a server is the read of its port,
/// before the client under test has connected (found when CI's release tests saw
/// `connection_closed` where a silent server should have made the client time out).
final class OpenSSLServer {
    let process: Process
    let port: UInt16
    private let output: Pipe

    /// Starts `openssl s_server -accept 127.0.0.1:0 -www` with the leaf `leaf` (rsa,
    /// p256, p384, ed25519, big) of Vectors/tls/pki and `arguments` (-tls1_3,
    /// -ciphersuites …, -groups …, -status_file …), serving at most `connections`
    /// connections and living at most `lifetime` seconds.
    init(leaf: String, arguments: [String], connections: Int = 8, lifetime: Int = 60) throws {
        guard let openssl = LoopbackServers.openssl else { throw LoopbackError.noOpenSSL }
        let pki = CLI.root + "/" + LoopbackServers.pki
        process = Process()
        // `timeout` bounds the server even if the test process dies before deinit.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--signal=KILL", String(lifetime), openssl, "s_server", "-accept", "127.0.0.1:0", "-www", "-naccept", String(connections),
                             "-cert", "\(pki)/leaf-\(leaf).pem", "-key", "\(pki)/leaf-\(leaf).key",
                             "-cert_chain", "\(pki)/intermediate.pem"] + arguments
        output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        port = try Self.acceptedPort(output.fileHandleForReading, process: process)
    }

    deinit { Self.stop(process) }

    /// Stops the server now (by PID); also keeps it alive until this call.
    func stop() { Self.stop(process) }

    /// Stops `timeout` and the server under it by their PIDs, with SIGKILL: a child
    /// Foundation spawns from a test's thread inherits its blocked signals, so SIGTERM
    /// may never arrive.
    static func stop(_ process: Process) {
        let pid = process.processIdentifier
        if process.isRunning {
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGKILL) }
            kill(pid, SIGKILL)
        }
        process.waitUntilExit()
    }

    /// Reads the server's output until its `ACCEPT 127.0.0.1:PORT` line (at most 10 s).
    private static func acceptedPort(_ handle: FileHandle, process: Process) throws -> UInt16 {
        let descriptor = handle.fileDescriptor
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) > 0 else {
                if !process.isRunning { break }
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            text += String(decoding: buffer.prefix(count), as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
               let portText = line.split(separator: ":").last, let port = UInt16(portText) {
                return port
            }
        }
        stop(process)
        throw LoopbackError.serverDidNotStart(text)
    }
}

/// A TCP listener on 127.0.0.1 (port picked by the system) that, for each connection,
/// either writes `reply` and closes, or (reply nil) accepts and stays silent until
/// stopped. Runs on its own thread; stopped by `stop()` or when the value goes away (see
/// `OpenSSLServer` for why a test calls `defer { server.stop() }`).
final class PlainServer: @unchecked Sendable {
    let port: UInt16
    private let descriptor: Int32
    private let thread: Thread
    private var stopped = false

    init(reply: [UInt8]?) throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw LoopbackError.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketDescriptor, 8) == 0 else {
            close(socketDescriptor)
            throw LoopbackError.socket(errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        descriptor = socketDescriptor
        thread = Thread {
            var held: [Int32] = []
            while true {
                let client = accept(socketDescriptor, nil, nil)
                if client < 0 {
                    // A signal (another test's child exiting) interrupts accept: wait on.
                    // Leaving the loop would close the held connections, and the silent
                    // test's client would read an end of stream (`connection_closed`)
                    // instead of timing out (seen once in a clean-clone CI run).
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    break  // the listener was shut down (EINVAL) or closed (EBADF)
                }
                if let reply {
                    _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    close(client)
                } else {
                    held.append(client)
                }
            }
            for client in held { close(client) }
            // The thread closes the listener, not stop(): closed there, its number could
            // be reused (by another test's listener) before this thread first calls
            // accept, which would then take that test's connections and close them
            // (a clean-clone CI run saw the silent test's client get connection_reset).
            close(socketDescriptor)
        }
        thread.start()
    }

    deinit { stop() }

    /// Shuts the listener down, which ends the thread (its accept fails), and the thread
    /// closes the connections it holds and the listener; also keeps the server alive
    /// until this call.
    func stop() {
        guard !stopped else { return }
        stopped = true
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// A port where nothing listens: bound, then closed again (a connect is refused).
    static func refusedPort() throws -> UInt16 {
        let server = try PlainServer(reply: [])
        server.stop()
        return server.port
    }
}

enum LoopbackError: Error, CustomStringConvertible {
    case noOpenSSL
    case serverDidNotStart(String)
    case socket(Int32)

    var description: String {
        switch self {
        case .noOpenSSL: "openssl is not on PATH"
        case .serverDidNotStart(let output): "openssl s_server did not start: \(output)"
        case .socket(let code): "socket: \(String(cString: strerror(code)))"
        }
    }
}
