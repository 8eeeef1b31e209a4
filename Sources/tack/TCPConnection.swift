// The command line's one socket: a TCP connection to a server, opened and used under
// one deadline (`--timeout` bounds name resolution, connect and handshake together).
// Non-blocking descriptors and poll(2), so that a server that accepts and stays silent
// costs at most the time left (a resolver that stays silent too: NameResolution.swift).
// The TLS library never sees a socket (it is sans-I/O); this is the transport `tack
// fetch` and `--connect` drive it over.

import Foundation

/// A point in time after which the connection gives up, on the monotonic clock.
struct Deadline {
    private let end: ContinuousClock.Instant
    /// The bound as given, for messages.
    let seconds: Double

    init(seconds: Double) {
        self.seconds = seconds
        end = ContinuousClock.now.advanced(by: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }

    /// Milliseconds left, for poll(2): 0 once passed.
    var millisecondsLeft: Int32 {
        let left = ContinuousClock.now.duration(to: end)
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: milliseconds)
    }
}

/// A connected TCP socket, closed when the value goes away.
final class TCPConnection {
    private let descriptor: Int32
    /// The server, for messages.
    let address: ServerAddress
    private let deadline: Deadline

    private init(descriptor: Int32, address: ServerAddress, deadline: Deadline) {
        self.descriptor = descriptor
        self.address = address
        self.deadline = deadline
    }

    deinit { close(descriptor) }

    /// Resolves the host (``NameResolver``: by default getaddrinfo, IPv4 and IPv6
    /// addresses in the resolver's order) and connects to the first address that
    /// accepts, all before the deadline.
    ///
    /// - Throws: `name_not_resolved`, `connection_refused` (every address refused),
    ///   `timed_out` (resolving or connecting), or `connection_failed` with the
    ///   system's reason.
    static func open(_ address: ServerAddress, deadline: Deadline, resolver: NameResolver = .system) throws(CLIError) -> TCPConnection {
        var lastError: CLIError?
        for candidate in try resolver.resolve(address, deadline: deadline) {
            do {
                let descriptor = try connect(candidate, address: address, deadline: deadline)
                return TCPConnection(descriptor: descriptor, address: address, deadline: deadline)
            } catch {
                if error.code == "timed_out" { throw error }
                lastError = error
            }
        }
        throw lastError ?? CLIError("\(address): no address to connect to", code: "name_not_resolved")
    }

    /// One non-blocking connect, waited for with poll(2) until the deadline.
    private static func connect(_ candidate: ResolvedAddress, address: ServerAddress, deadline: Deadline) throws(CLIError) -> Int32 {
        guard deadline.millisecondsLeft > 0 else { throw timedOut(address, deadline: deadline, phase: "connecting") }
        let descriptor = socket(candidate.family, candidate.socketType, candidate.socketProtocol)
        guard descriptor >= 0 else { throw failure(address, errno) }
        var keep = false
        defer { if !keep { close(descriptor) } }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { throw failure(address, errno) }
        let started = candidate.socketAddress.withUnsafeBytes { bytes in
            Foundation.connect(descriptor, bytes.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
        if started != 0 {
            guard errno == EINPROGRESS else { throw failure(address, errno) }
            try wait(descriptor, for: Int16(POLLOUT), address: address, deadline: deadline, phase: "connecting")
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &socketError, &length) == 0 else { throw failure(address, errno) }
            guard socketError == 0 else { throw failure(address, socketError) }
        }
        keep = true
        return descriptor
    }

    /// Waits until `descriptor` is ready for `events`, or throws `timed_out`.
    private static func wait(_ descriptor: Int32, for events: Int16, address: ServerAddress, deadline: Deadline, phase: String) throws(CLIError) {
        while true {
            let left = deadline.millisecondsLeft
            guard left > 0 else { throw timedOut(address, deadline: deadline, phase: phase) }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, left)
            if ready < 0 {
                if errno == EINTR { continue }
                throw failure(address, errno)
            }
            if ready == 0 { throw timedOut(address, deadline: deadline, phase: phase) }
            return
        }
    }

    static func timedOut(_ address: ServerAddress, deadline: Deadline, phase: String) -> CLIError {
        let bound = deadline.seconds == deadline.seconds.rounded() ? String(Int(deadline.seconds)) : String(deadline.seconds)
        return CLIError("\(address): timed out after \(bound) s \(phase) (--timeout)", code: "timed_out")
    }

    private static func failure(_ address: ServerAddress, _ code: Int32) -> CLIError {
        if code == ECONNREFUSED { return CLIError("\(address): connection refused", code: "connection_refused") }
        if code == ETIMEDOUT { return CLIError("\(address): timed out connecting", code: "timed_out") }
        return CLIError("\(address): \(CLIError.systemReason(code))", code: "connection_failed")
    }

    /// Sends every byte before the deadline.
    func send(_ bytes: [UInt8], phase: String = "sending") throws(CLIError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                // MSG_NOSIGNAL: a peer that closed is an error here, not SIGPIPE.
                Foundation.send(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    try Self.wait(descriptor, for: Int16(POLLOUT), address: address, deadline: deadline, phase: phase)
                    continue
                }
                throw Self.failure(address, errno)
            }
            offset += written
        }
    }

    /// The next bytes the server sends (at most `count`), waiting until the deadline;
    /// empty when the server closed the connection.
    func receive(upTo count: Int = 1 << 16, phase: String = "waiting for the server") throws(CLIError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if read > 0 { return Array(buffer.prefix(read)) }
            if read == 0 { return [] }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                try Self.wait(descriptor, for: Int16(POLLIN), address: address, deadline: deadline, phase: phase)
                continue
            }
            if errno == ECONNRESET { throw CLIError("\(address): the server reset the connection", code: "connection_reset") }
            throw Self.failure(address, errno)
        }
    }
}
