import Foundation
import Testing

@testable import tack

/// `--timeout` bounds name resolution too: the resolver is a seam (Connection.resolver),
/// so these tests stand in for a slow, failing or answering resolver with no DNS at all.
@Suite("--timeout bounds name resolution: stand-in resolvers, no network", .serialized)
struct NameResolutionTests {
    private func connection(_ text: String, timeout: String) throws -> Connection {
        try Connection(text, option: "HOST", args: Arguments(["--timeout", timeout], valued: Set(Connection.valued)))
    }

    private func failure(_ connection: Connection) -> CLIError? {
        do {
            _ = try connection.fetch()
            return nil
        } catch {
            return error
        }
    }

    @Test("a resolver that does not answer within --timeout: timed_out while resolving; its thread is left to finish")
    func resolverOverruns() throws {
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        var slow = try connection("slow.tack.invalid:443", timeout: "0.2")
        slow.resolver = NameResolver { address in
            // Held until the test has its answer: the connection cannot have waited for it.
            release.wait()
            defer { finished.signal() }
            return .failure(CLIError("\(address): stand-in resolver", code: "name_not_resolved"))
        }
        let error = try #require(failure(slow), "a handshake without an address")
        #expect(error.code == "timed_out")
        #expect(error.description.contains("resolving the name"), "\(error.description)")
        release.signal()
        #expect(finished.wait(timeout: .now() + 10) == .success, "the abandoned lookup ran to its end")
    }

    @Test("the resolver's answer is what is connected to: a stand-in name to a port where nothing listens is refused")
    func resolverAnswerIsUsed() throws {
        let port = try PlainServer.refusedPort()
        // A numeric host: getaddrinfo with AI_NUMERICHOST, no lookup.
        let loopback = try NameResolver.system.lookup(ServerAddress("127.0.0.1:\(port)", option: "HOST")).get()
        try #require(!loopback.isEmpty)
        var standIn = try connection("stand-in.tack.invalid:\(port)", timeout: "5")
        standIn.resolver = NameResolver { _ in .success(loopback) }
        let error = try #require(failure(standIn))
        #expect(error.code == "connection_refused", "\(error.description)")
    }

    @Test("a resolver's failure, or an empty answer, is name_not_resolved")
    func resolverFails() throws {
        var failing = try connection("fails.tack.invalid", timeout: "5")
        failing.resolver = NameResolver { address in .failure(CLIError("\(address): name not resolved: stand-in", code: "name_not_resolved")) }
        #expect(failure(failing)?.code == "name_not_resolved")
        var empty = try connection("empty.tack.invalid", timeout: "5")
        empty.resolver = NameResolver { _ in .success([]) }
        #expect(failure(empty)?.code == "name_not_resolved")
    }
}
