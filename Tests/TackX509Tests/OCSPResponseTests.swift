import Foundation
import Testing

import TackDER
import TackDigest
import TackTestSupport
import TackX509

/// OCSP response parsing (RFC 6960) over `Vectors/ocsp/` (generate.py: Python's
/// `cryptography` and `openssl ocsp`), hostile edits, and the TLS Feature extension.
@Suite("OCSP responses")
struct OCSPResponseTests {
    static func bytes(_ file: String) throws -> [UInt8] { try RepositoryPaths.vectorBytes("ocsp/" + file) }

    static func responseFiles() -> [String] {
        let folder = RepositoryPaths.vectors("ocsp/responses")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".der") && $0 != "bad-signature.der" }.sorted()
    }

    @Test("The generated responses are present")
    func present() {
        #expect(Self.responseFiles().count >= 30)
    }

    @Test("Every generated response parses, and its CertIDs have computed hashes", arguments: responseFiles())
    func parses(_ file: String) throws {
        let response = try OCSPResponse(derEncoded: try Self.bytes("responses/" + file))
        guard response.status == .successful else {
            #expect(response.basicResponse == nil)
            return
        }
        let basic = try #require(response.basicResponse)
        #expect(!basic.responses.isEmpty)
        for single in basic.responses {
            #expect(single.certID.hashAlgorithm == .sha1 || single.certID.hashAlgorithm == .sha256)
        }
    }

    @Test("A response signed by the issuer names it, by name or by key hash, and its CertID names the leaf")
    func responderAndCertID() throws {
        let leaf = try Certificate(derEncoded: try Self.bytes("certs/leaf.der"))
        let issuer = try Certificate(derEncoded: try Self.bytes("certs/intermediate.der"))
        let root = try Certificate(derEncoded: try Self.bytes("certs/root.der"))
        for (file, digest) in [("good-by-name-sha1", DigestAlgorithm.sha1), ("good-by-key-sha256", .sha256)] {
            let basic = try #require(try OCSPResponse(derEncoded: try Self.bytes("responses/\(file).der")).basicResponse)
            #expect(basic.responderIDMatches(issuer))
            #expect(!basic.responderIDMatches(root))
            #expect(basic.responses.count == 1)
            #expect(basic.responses[0].certID.hashAlgorithm == digest)
            #expect(basic.responses(for: leaf, issuedBy: issuer).count == 1)
            #expect(basic.responses(for: leaf, issuedBy: root).isEmpty)
            #expect(basic.responses(for: issuer, issuedBy: root).isEmpty)
            #expect(basic.responses[0].status == .good)
            #expect(basic.certificates.isEmpty)
            #expect(basic.nonce == nil)
        }
        let byName = try #require(try OCSPResponse(derEncoded: try Self.bytes("responses/good-by-name-sha1.der")).basicResponse)
        #expect(try byName.responderName?.rfc4514String == (try issuer.subject.rfc4514String))
        #expect(byName.responderKeyHash == nil)
    }

    @Test("Revoked responses carry the time and each RFC 5280 reason")
    func revokedReasons() throws {
        for reason in CRLReason.allCases {
            let basic = try #require(try OCSPResponse(derEncoded: try Self.bytes("responses/revoked-\(reason).der")).basicResponse)
            guard case .revoked(let time, let given) = basic.responses[0].status else {
                Issue.record("\(reason): not revoked")
                continue
            }
            #expect(given == reason)
            #expect(time == 1_748_736_000 - 10 * 86_400)
        }
        let none = try #require(try OCSPResponse(derEncoded: try Self.bytes("responses/revoked-no-reason.der")).basicResponse)
        #expect(none.responses[0].status == .revoked(revocationTime: 1_748_736_000 - 10 * 86_400, reason: nil))
        let unknown = try #require(try OCSPResponse(derEncoded: try Self.bytes("responses/unknown-soft.der")).basicResponse)
        #expect(unknown.responses[0].status == .unknown)
    }

    @Test("Nonce, delegated certificates and openssl's three single responses")
    func fields() throws {
        let nonce = try #require(try OCSPResponse(derEncoded: try Self.bytes("responses/good-nonce.der")).basicResponse)
        #expect(nonce.nonce.map(Array.init) == Array(0..<16))
        let delegated = try #require(try OCSPResponse(derEncoded: try Self.bytes("responses/delegated-with-eku.der")).basicResponse)
        let responder = try Certificate(derEncoded: try Self.bytes("certs/responder.der"))
        #expect(delegated.certificates == [responder])
        #expect(delegated.responderIDMatches(responder))
        let multi = try #require(try OCSPResponse(derEncoded: try Self.bytes("responses/openssl-multi.der")).basicResponse)
        #expect(multi.responses.map(\.status.description) == ["good", "revoked", "unknown"])
        if case .revoked(_, let reason) = multi.responses[1].status { #expect(reason == .keyCompromise) }
        #expect(multi.nonce != nil)
    }

    @Test("An unsuccessful response has its typed status and no body")
    func unsuccessful() throws {
        let response = try OCSPResponse(derEncoded: try Self.bytes("responses/must-staple-try-later.der"))
        #expect(response.status == .tryLater)
        #expect(response.basicResponse == nil)
        for status in OCSPResponse.Status.allCases where status != .successful {
            let encoded: [UInt8] = [0x30, 0x03, 0x0A, 0x01, UInt8(status.rawValue)]
            #expect(try OCSPResponse(derEncoded: encoded).status == status)
        }
        #expect(throws: X509Error(.invalidOCSPResponse(.unknownResponseStatus(4)), at: 2)) {
            try OCSPResponse(derEncoded: [0x30, 0x03, 0x0A, 0x01, 0x04])
        }
        #expect(throws: X509Error(.invalidOCSPResponse(.missingResponseBytes), at: 5)) {
            try OCSPResponse(derEncoded: [0x30, 0x03, 0x0A, 0x01, 0x00])
        }
        // tryLater with responseBytes.
        let withBody: [UInt8] = [0x30, 0x0C, 0x0A, 0x01, 0x03, 0xA0, 0x07, 0x30, 0x05, 0x06, 0x01, 0x00, 0x04, 0x00]
        #expect(throws: X509Error(.invalidOCSPResponse(.unexpectedResponseBytes), at: 5)) { try OCSPResponse(derEncoded: withBody) }
        // successful with another responseType (OID 0.0).
        var otherType = withBody
        otherType[4] = 0x00
        #expect(throws: X509Error(.invalidOCSPResponse(.unsupportedResponseType(OID(0, 0))), at: 5)) {
            try OCSPResponse(derEncoded: otherType)
        }
    }

    @Test("Every prefix of a response is a typed error, never a trap")
    func truncation() throws {
        for file in ["openssl-multi.der", "delegated-with-eku.der"] {
            let der = try Self.bytes("responses/" + file)
            for length in 0..<der.count {
                #expect(throws: X509Error.self) { try OCSPResponse(derEncoded: Array(der.prefix(length))) }
            }
            // The outer SEQUENCE cut short: exactly the DER reader's error.
            #expect(throws: X509Error(derPrefixError(der, length: 1))) { try OCSPResponse(derEncoded: Array(der.prefix(1))) }
            #expect(throws: X509Error(derPrefixError(der, length: der.count - 1))) {
                try OCSPResponse(derEncoded: Array(der.prefix(der.count - 1)))
            }
        }
    }

    @Test("Seeded single-byte mutations give a response or a typed error")
    func mutations() throws {
        let der = try Self.bytes("responses/openssl-multi.der")
        var stream = DeterministicStream(state: 22)
        for _ in 0..<2_000 {
            var mutated = der
            let index = Int(stream.next() % UInt64(mutated.count))
            mutated[index] ^= UInt8(truncatingIfNeeded: stream.next() | 1)
            do {
                _ = try OCSPResponse(derEncoded: mutated)
            } catch {
                #expect(!error.code.isEmpty)
            }
        }
    }

    @Test("nextUpdate before thisUpdate is refused at the nextUpdate field")
    func semanticRules() throws {
        // A GeneralizedTime thisUpdate > nextUpdate is refused; made by hand from the
        // good response by swapping the two times (same lengths).
        let der = try Self.bytes("responses/good-by-name-sha1.der")
        let basic = try #require(try OCSPResponse(derEncoded: der).basicResponse)
        let single = basic.responses[0]
        let this = try #require(Self.find(Array(Self.generalized(single.thisUpdate).utf8), in: der))
        let nextUpdate = try #require(single.nextUpdate)
        let next = try #require(Self.find(Array(Self.generalized(nextUpdate).utf8), in: der))
        var swapped = der
        let thisBytes = Array(der[this..<(this + 15)])
        swapped.replaceSubrange(this..<(this + 15), with: der[next..<(next + 15)])
        swapped.replaceSubrange(next..<(next + 15), with: thisBytes)
        #expect(throws: X509Error.self) { try OCSPResponse(derEncoded: swapped) }
        do {
            _ = try OCSPResponse(derEncoded: swapped)
        } catch {
            #expect(error.reason == .invalidOCSPResponse(.nextUpdateBeforeThisUpdate))
        }
    }

    static func generalized(_ time: DERTime) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(time.year)" + two(time.month) + two(time.day) + two(time.hour) + two(time.minute) + two(time.second) + "Z"
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    @Test("TLS Feature: Must-Staple on the generated leaf, absent on the plain one")
    func tlsFeature() throws {
        let staple = try Certificate(derEncoded: try Self.bytes("certs/leaf-must-staple.der"))
        let plain = try Certificate(derEncoded: try Self.bytes("certs/leaf.der"))
        #expect(try staple.tlsFeature?.features == [TLSFeature.statusRequest])
        #expect(try staple.tlsFeature?.requiresStapledResponse == true)
        #expect(try staple.decodeAllExtensions().tlsFeature?.requiresStapledResponse == true)
        #expect(try plain.tlsFeature == nil)
        // SEQUENCE { INTEGER 17 }: status_request_v2 only is not Must-Staple.
        let v2 = try TLSFeature(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x11], valueRange: 0..<5)
        #expect(v2.features == [17] && !v2.requiresStapledResponse)
        #expect(throws: X509Error(.der(.integerOverflow), at: 2)) {
            try TLSFeature(derEncoded: [0x30, 0x05, 0x02, 0x03, 0x01, 0x00, 0x00], valueRange: 0..<7)
        }
        #expect(throws: X509Error(.der(.negativeInteger), at: 2)) {
            try TLSFeature(derEncoded: [0x30, 0x03, 0x02, 0x01, 0xFF], valueRange: 0..<5)
        }
    }

    @Test("Currency: bounds inclusive with the allowance, maximum age without nextUpdate, no overflow at the extremes")
    func currency() throws {
        let bounded = try #require(try OCSPResponse(derEncoded: try Self.bytes("responses/good-by-name-sha1.der")).basicResponse).responses[0]
        let start = bounded.thisUpdate.secondsSince1970
        let end = try #require(bounded.nextUpdate).secondsSince1970
        #expect(bounded.currency(at: start - 300, clockSkew: 300, maximumAge: 0) == .current)
        #expect(bounded.currency(at: start - 301, clockSkew: 300, maximumAge: 0) == .notYetValid(thisUpdate: start))
        #expect(bounded.currency(at: end + 300, clockSkew: 300, maximumAge: 0) == .current)
        #expect(bounded.currency(at: end + 301, clockSkew: 300, maximumAge: 0) == .stale(validUntil: end))
        let open = try #require(try OCSPResponse(derEncoded: try Self.bytes("responses/good-no-next-update.der")).basicResponse).responses[0]
        #expect(open.nextUpdate == nil)
        let openStart = open.thisUpdate.secondsSince1970
        #expect(open.currency(at: openStart + 100, clockSkew: 0, maximumAge: 100) == .current)
        #expect(open.currency(at: openStart + 101, clockSkew: 0, maximumAge: 100) == .stale(validUntil: openStart + 100))
        #expect(open.currency(at: Int64.max, clockSkew: Int64.max, maximumAge: Int64.max) == .current)
        #expect(open.currency(at: Int64.min, clockSkew: Int64.max, maximumAge: 0) == .notYetValid(thisUpdate: openStart))
    }
}
