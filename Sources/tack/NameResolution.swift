// Name resolution under the connection's deadline: getaddrinfo(3) blocks for as long
// as the system's resolver likes (its own timeouts and retries, often 5 s × attempts ×
// servers), so it runs on a thread of its own and the caller waits for it only as long
// as `--timeout` has left. A resolver that overruns is left to finish on its thread;
// what it returns is copied out of the addrinfo list (freed there) into values that
// go away with the last reference, so nothing leaks and nothing waits for it.

import Foundation

/// One address getaddrinfo gave: what socket(2) and connect(2) need.
struct ResolvedAddress: Sendable {
    /// `AF_INET` or `AF_INET6`.
    let family: Int32
    /// `SOCK_STREAM`.
    let socketType: Int32
    /// `IPPROTO_TCP`.
    let socketProtocol: Int32
    /// The sockaddr's bytes (a `sockaddr_in` or `sockaddr_in6` with the port set).
    let socketAddress: [UInt8]
}

/// How the command line turns a ``ServerAddress`` into socket addresses: the system's
/// resolver (``system``), or a test's stand-in (the seam that lets tests make a slow or
/// failing resolver without the network).
struct NameResolver: Sendable {
    /// Resolves `address` (blocking, on a thread of its own): the addresses in the
    /// resolver's order, or `name_not_resolved`.
    let lookup: @Sendable (ServerAddress) -> Result<[ResolvedAddress], CLIError>

    /// getaddrinfo(3): IPv4 and IPv6 TCP addresses; an IP literal is taken as it is
    /// (`AI_NUMERICHOST`), never looked up.
    static let system = NameResolver { address in
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        if address.isIPAddress { hints.ai_flags = AI_NUMERICHOST }
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host.description, String(address.port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = status == EAI_SYSTEM ? CLIError.systemReason(errno) : String(cString: gai_strerror(status))
            return .failure(CLIError("\(address): name not resolved: \(reason.lowercased())", code: "name_not_resolved"))
        }
        defer { freeaddrinfo(list) }
        var found: [ResolvedAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            guard let socketAddress = current.pointee.ai_addr else { continue }
            let bytes = UnsafeRawBufferPointer(start: socketAddress, count: Int(current.pointee.ai_addrlen))
            found.append(ResolvedAddress(family: current.pointee.ai_family, socketType: current.pointee.ai_socktype,
                                         socketProtocol: current.pointee.ai_protocol, socketAddress: Array(bytes)))
        }
        return .success(found)
    }

    /// Resolves `address` before `deadline`: `timed_out` when the lookup has not
    /// answered by then (the lookup's thread is left to finish, its answer dropped).
    ///
    /// - Throws: The lookup's error (`name_not_resolved`), `name_not_resolved` for an
    ///   empty answer, or `timed_out`.
    func resolve(_ address: ServerAddress, deadline: Deadline) throws(CLIError) -> [ResolvedAddress] {
        let answer = PendingAnswer()
        let lookup = self.lookup
        let thread = Thread { answer.settle(lookup(address)) }
        thread.name = "tack name resolution"
        thread.start()
        guard let result = answer.wait(milliseconds: deadline.millisecondsLeft) else {
            throw TCPConnection.timedOut(address, deadline: deadline, phase: "resolving the name")
        }
        let addresses = try result.get()
        guard !addresses.isEmpty else { throw CLIError("\(address): no address to connect to", code: "name_not_resolved") }
        return addresses
    }
}

/// The lookup's answer, handed from its thread to the waiting one. Shared by the two
/// threads and kept alive by whichever holds it longer.
///
/// `@unchecked Sendable`: `result` is read and written only under `lock`.
private final class PendingAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    private var result: Result<[ResolvedAddress], CLIError>?

    /// Called once, by the lookup's thread.
    func settle(_ value: Result<[ResolvedAddress], CLIError>) {
        lock.lock()
        result = value
        lock.unlock()
        ready.signal()
    }

    /// The answer, or `nil` when `milliseconds` pass first (on the monotonic clock).
    func wait(milliseconds: Int32) -> Result<[ResolvedAddress], CLIError>? {
        guard ready.wait(timeout: .now() + .milliseconds(Int(milliseconds))) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return result
    }
}
