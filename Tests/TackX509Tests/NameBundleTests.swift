import Foundation
import Testing
import TackDER
import TackTestSupport
import TackX509

/// The `openssl` executable, or `nil` when it is not installed.
private let opensslPath: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

/// Whether the comparisons with OpenSSL run: when it is installed, and always in CI
/// (`.ci/run` installs it), where its absence fails them instead of skipping them.
private let comparesWithOpenSSL = VectorAvailability.runs(when: opensslPath != nil, requiredInCI: true)

/// Runs `openssl x509 -noout -subject -issuer -nameopt RFC2253` on a DER
/// certificate; `nil` when openssl is not installed or fails.
private func opensslNames(_ der: [UInt8]) -> (subject: String, issuer: String)? {
    guard let path = opensslPath else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["x509", "-inform", "DER", "-noout", "-subject", "-issuer", "-nameopt", "RFC2253"]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    input.fileHandleForWriting.write(Data(der))
    try? input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    guard let subject = lines.first(where: { $0.hasPrefix("subject=") }),
          let issuer = lines.first(where: { $0.hasPrefix("issuer=") }) else { return nil }
    return (String(subject.dropFirst("subject=".count)), String(issuer.dropFirst("issuer=".count)))
}

/// Divergences between Tack's RFC 4514 rendering and OpenSSL's
/// `-nameopt RFC2253`, each allowed by RFC 4514, and undone by the comparison:
///
/// 1. Non-ASCII characters: OpenSSL escapes every octet of their UTF-8 encoding
///    as `\XX` (ASN1_STRFLGS_ESC_MSB); Tack writes the UTF-8 itself, which
///    RFC 4514 §2.4 allows ("other characters ... may be escaped"). See
///    ``unescapingNonASCII(_:)``.
/// 2. Multi-valued RDNs: OpenSSL reverses the flat list of entries, so the
///    members of a multi-valued RDN come out in reverse encoding order; Tack keeps
///    the encoding order, as Go does. RFC 4514 §2.2 allows any order (the members
///    form a set). See ``sortingMultiValuedMembers(_:)``.
func openSSLComparable(_ text: String) -> String {
    sortingMultiValuedMembers(unescapingNonASCII(text))
}

/// Sorts the `+`-separated members of each RDN (split at unescaped `,` and `+`).
func sortingMultiValuedMembers(_ text: String) -> String {
    var rdns: [[String]] = [[]]
    var current = ""
    var escaped = false
    for character in text {
        if escaped {
            current.append(character)
            escaped = false
            continue
        }
        switch character {
        case "\\":
            current.append(character)
            escaped = true
        case ",":
            rdns[rdns.count - 1].append(current)
            rdns.append([])
            current = ""
        case "+":
            rdns[rdns.count - 1].append(current)
            current = ""
        default:
            current.append(character)
        }
    }
    rdns[rdns.count - 1].append(current)
    return rdns.map { $0.sorted().joined(separator: "+") }.joined(separator: ",")
}

/// Undoes the first documented difference between OpenSSL's RFC2253 output and
/// Tack's RFC 4514 rendering: OpenSSL escapes every octet of a non-ASCII
/// character's UTF-8 encoding as `\XX` (ASN1_STRFLGS_ESC_MSB); Tack writes the
/// UTF-8 itself, as RFC 4514 §2.4 allows. Escapes of ASCII octets (control
/// characters) are kept, since Tack writes those the same way.
func unescapingNonASCII(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    var index = 0
    func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
    while index < bytes.count {
        if bytes[index] == 0x5C, index + 1 < bytes.count {
            if index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]),
               high >= 8 {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            out.append(bytes[index])
            out.append(bytes[index + 1])
            index += 2
            continue
        }
        out.append(bytes[index])
        index += 1
    }
    return String(decoding: out, as: UTF8.self)
}

@Suite("Names and extensions over the system CA bundle")
struct NameBundleTests {
    @Test("Every certificate's names and extensions decode fully")
    func everythingDecodes() throws {
        let bundle = SystemCABundle.certificates
        try #require(!bundle.isEmpty, "no \(SystemCABundle.path) on this machine")
        var extensionCount = 0
        for (index, der) in bundle.enumerated() {
            do {
                let certificate = try Certificate(derEncoded: der)
                let subject = try certificate.subject
                let issuer = try certificate.issuer
                // Walk every attribute so lazy decoding is exercised too.
                for name in [subject, issuer] {
                    for rdn in name {
                        for attribute in rdn { #expect(attribute.stringValue != nil || attribute.stringKind == nil) }
                    }
                }
                let decoded = try certificate.decodeAllExtensions()
                extensionCount += certificate.extensions.count - decoded.unrecognized.count
                #expect(decoded.unrecognizedCritical.isEmpty, "certificate \(index): unknown critical extension")
                if let constraints = decoded.basicConstraints, constraints.isCertificateAuthority {
                    #expect(decoded.keyUsage?.contains(.keyCertSign) ?? true, "certificate \(index): CA without keyCertSign")
                }
                // Iterate every lazily decoded collection.
                _ = decoded.subjectAlternativeNames.map { Array($0) }
                _ = decoded.certificatePolicies.map { $0.map { ($0.policyIdentifier, $0.qualifiers.map { Array($0) }) } }
                _ = decoded.crlDistributionPoints.map { Array($0) }
                _ = decoded.authorityInformationAccess.map { Array($0) }
                _ = decoded.authorityKeyIdentifier?.authorityCertIssuer.map { Array($0) }
                // Self-signed roots: the subject matches the issuer.
                if subject == issuer { #expect(subject.matches(issuer)) }
            } catch {
                Issue.record("certificate \(index): \(error)")
            }
        }
        #expect(extensionCount > bundle.count)
    }

    @Test("RFC 4514 subjects and issuers equal OpenSSL's -nameopt RFC2253 output",
          .enabled(if: comparesWithOpenSSL, "openssl is not installed (a failure when CI=true)"))
    func matchesOpenSSL() throws {
        let bundle = SystemCABundle.certificates
        try #require(!bundle.isEmpty, "no \(SystemCABundle.path) on this machine")
        try #require(opensslPath != nil, "openssl is not installed")
        var compared = 0
        for (index, der) in bundle.enumerated() {
            guard let expected = opensslNames(der) else {
                Issue.record("certificate \(index): openssl failed")
                continue
            }
            let certificate = try Certificate(derEncoded: der)
            #expect(try openSSLComparable(certificate.subject.rfc4514String) == openSSLComparable(expected.subject),
                    "certificate \(index) subject")
            #expect(try openSSLComparable(certificate.issuer.rfc4514String) == openSSLComparable(expected.issuer),
                    "certificate \(index) issuer")
            compared += 1
        }
        #expect(compared == bundle.count)
    }

    @Test("The extension vectors' names equal OpenSSL's, up to the documented divergences",
          .enabled(if: comparesWithOpenSSL, "openssl is not installed (a failure when CI=true)"))
    func vectorsMatchOpenSSL() throws {
        for file in ["all-extensions.der", "minimal-leaf.der"] {
            let der = try RepositoryPaths.vectorBytes("extensions/" + file)
            let expected = try #require(opensslNames(der), "openssl failed on \(file)")
            let certificate = try Certificate(derEncoded: der)
            #expect(try openSSLComparable(certificate.subject.rfc4514String) == openSSLComparable(expected.subject))
            #expect(try openSSLComparable(certificate.issuer.rfc4514String) == openSSLComparable(expected.issuer))
        }
    }
}
