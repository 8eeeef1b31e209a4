// What an input file holds: its certificates and public keys (PEM blocks of every
// kind the commands take, DER, PKCS #7 bundles, signing requests, private keys),
// read one object at a time so that one bad block is a failure of its own, and the
// one-line subject and issuer of a certificate.

import Foundation
import TackDER
import TackTrust
import TackX509

/// One object found in an input file: a certificate, or a public key (bare, or the
/// public half of a private key or of a signing request).
enum InputObject {
    case certificate(Certificate)
    case publicKey(SubjectPublicKeyInfo, from: KeySource)
}

/// Where a public key came from.
enum KeySource: String {
    case publicKey = "public_key"
    case privateKey = "private_key"
    case certificateRequest = "certificate_request"
}

/// What ``readObjects(_:name:)`` found: the objects that parsed, in file order, and a
/// failure for each that did not. One bad PEM block does not hide the good ones.
struct InputObjects {
    var objects: [InputObject] = []
    var failures: [CLIError] = []

    /// Every object, or the first failure: for inputs where one bad block makes the
    /// whole input unusable (a chain to verify, a set of roots).
    func strictly() throws(CLIError) -> [InputObject] {
        if let failure = failures.first { throw failure }
        return objects
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes contain `marker`'s UTF-8 (a PEM boundary such as
    /// `-----BEGIN `).
    func contains(text marker: String) -> Bool {
        let marker = Array(marker.utf8)
        guard let first = marker.first, count >= marker.count else { return false }
        for start in 0...(count - marker.count) where self[start] == first {
            if self[start..<(start + marker.count)].elementsEqual(marker) { return true }
        }
        return false
    }
}

/// Whether `bytes` is text: valid UTF-8 with no control characters other than tab,
/// CR and LF. DER is not (a certificate starts 0x30 0x82, and 0x82 cannot follow an
/// ASCII byte in UTF-8).
func isPlainText(_ bytes: some Sequence<UInt8>) -> Bool {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var sawAny = false
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar):
            sawAny = true
            if scalar.value < 0x20 && scalar != "\n" && scalar != "\r" && scalar != "\t" { return false }
            if scalar.value == 0x7F { return false }
        case .emptyInput:
            return sawAny
        case .error:
            return false
        }
    }
}

/// Every certificate and public key in `bytes`: PEM with any number of blocks and
/// any surrounding text (`openssl s_client -showcerts` output included), or one DER
/// certificate or SubjectPublicKeyInfo.
///
/// Errors name the file, the object's index (1-based, in file order) and the byte
/// offset: within the file for PEM framing errors, within the object's DER otherwise.
/// A block that fails is reported and the others are still returned.
func readObjects(_ bytes: [UInt8], name: String) -> InputObjects {
    var result = InputObjects()
    // PEM if any encapsulation boundary appears; a DER certificate cannot contain
    // "-----BEGIN " or "-----END " before its first byte fails to parse anyway.
    let isPEM = bytes.contains(text: "-----BEGIN ") || bytes.contains(text: "-----END ")
    if !isPEM {
        guard !bytes.isEmpty else {
            result.failures.append(CLIError("\(name): empty input", code: "empty_input"))
            return result
        }
        let certificateError: X509Error
        switch decodeCertificate(bytes) {
        case .success(let certificate):
            result.objects.append(.certificate(certificate))
            return result
        case .failure(.undecodableName(let error)):
            result.failures.append(CLIError("\(name): certificate #1 is malformed: \(error)", code: "malformed_certificate"))
            return result
        case .failure(.notACertificate(let error)):
            certificateError = error
        }
        if let kind = InputKind.recognise(bytes) {
            result.failures.append(kind.failure(name, expected: "a certificate or key"))
        } else if let key = try? SubjectPublicKeyInfo(derEncoded: bytes) {
            result.objects.append(.publicKey(key, from: .publicKey))
        } else if let certificates = try? PinSources.certificates(pkcs7: bytes) {
            result.objects += certificates.map(InputObject.certificate)
        } else if let request = derCertificationRequest(bytes) {
            switch request {
            case .success(let key): result.objects.append(.publicKey(key, from: .certificateRequest))
            case .failure(let error): result.failures.append(CLIError("\(name): \(error.message)", code: error.code))
            }
        } else if let key = PinSources.publicKey(derPrivateKey: bytes) {
            switch key {
            case .success(let key): result.objects.append(.publicKey(key, from: .privateKey))
            case .failure(let error): result.failures.append(CLIError("\(name): private key: \(error.message)", code: error.code))
            }
        } else if isPlainText(bytes) {
            result.failures.append(CLIError("\(name): neither PEM nor DER: the file is plain text with no -----BEGIN line", code: "not_pem_or_der"))
        } else {
            result.failures.append(CLIError("\(name): certificate #1: \(certificateError)", code: "malformed_certificate"))
        }
        return result
    }
    let blocks: [PEMBlock]
    do {
        blocks = try PEM.parse(bytes)
    } catch {
        result.failures.append(CLIError("\(name): \(error)"))
        return result
    }
    var index = 0
    for block in blocks {
        switch block.label {
        case "CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE":
            index += 1
            switch decodeCertificate(block.bytes) {
            case .success(let certificate):
                result.objects.append(.certificate(certificate))
            case .failure(.undecodableName(let error)), .failure(.notACertificate(let error)):
                result.failures.append(CLIError("\(name): certificate #\(index) (PEM block at byte \(block.offset)) is malformed: \(error)",
                                                code: "malformed_certificate"))
            }
        case "PUBLIC KEY":
            index += 1
            do {
                result.objects.append(.publicKey(try SubjectPublicKeyInfo(derEncoded: block.bytes), from: .publicKey))
            } catch {
                result.failures.append(CLIError("\(name): public key #\(index) (PEM block at byte \(block.offset)): \(error)", code: "malformed_public_key"))
            }
        case "RSA PUBLIC KEY":
            index += 1
            do throws(PinSourceError) {
                result.objects.append(.publicKey(try PinSources.publicKey(pkcs1: block.bytes), from: .publicKey))
            } catch {
                result.failures.append(CLIError("\(name): public key #\(index) (PEM block at byte \(block.offset)): \(error.message)", code: error.code))
            }
        case "PKCS7", "CERTIFICATE CHAIN":
            index += 1
            do throws(PinSourceError) {
                result.objects += try PinSources.certificates(pkcs7: block.bytes).map(InputObject.certificate)
            } catch {
                result.failures.append(CLIError("\(name): PKCS #7 bundle #\(index) (PEM block at byte \(block.offset)): \(error.message)", code: error.code))
            }
        case "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST":
            index += 1
            do throws(PinSourceError) {
                result.objects.append(.publicKey(try PinSources.publicKey(certificationRequest: block.bytes), from: .certificateRequest))
            } catch {
                result.failures.append(CLIError("\(name): request #\(index) (PEM block at byte \(block.offset)): \(error.message)", code: error.code))
            }
        case "PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY":
            index += 1
            do throws(PinSourceError) {
                result.objects.append(.publicKey(try PinSources.publicKey(privateKey: block), from: .privateKey))
            } catch {
                result.failures.append(CLIError("\(name): private key #\(index) (PEM block at byte \(block.offset)): \(error.message)", code: error.code))
            }
        case "ENCRYPTED PRIVATE KEY":
            index += 1
            result.failures.append(CLIError("\(name): private key #\(index) is encrypted: decrypt it first (openssl pkey -in KEY -pubout | tack pin -)",
                                            code: "encrypted_private_key"))
        case "X509 CRL":
            index += 1
            result.failures.append(InputKind.crl.failure("\(name): object #\(index) (PEM block at byte \(block.offset))", expected: "a certificate or key"))
        case "OCSP RESPONSE":
            index += 1
            result.failures.append(InputKind.ocspResponse.failure("\(name): object #\(index) (PEM block at byte \(block.offset))",
                                                                  expected: "a certificate or key"))
        default:
            continue  // parameters and the like: not ours to pin
        }
    }
    if result.objects.isEmpty && result.failures.isEmpty {
        result.failures.append(CLIError("\(name): no CERTIFICATE, PUBLIC KEY, PKCS7, CERTIFICATE REQUEST or PRIVATE KEY block found", code: "nothing_found"))
    }
    return result
}

/// Reads every certificate of every input, for the commands that take certificate
/// files: the certificates with their input names, and a failure for each input or
/// block that could not be read (a public key is one: not a certificate). The caller
/// reports the failures.
func readCertificates(_ sources: [InputSource], io: Console) -> (certificates: [(file: String, certificate: Certificate)], failures: [CLIError]) {
    var certificates: [(file: String, certificate: Certificate)] = []
    var failures: [CLIError] = []
    InputSource.readEach(sources, io: io, failed: { failures.append($0) }) { name, bytes in
        let found = certificateObjects(bytes, name: name)
        certificates += found.certificates
        failures += found.failures
    }
    return (certificates, failures)
}

/// The certificates in the bytes of one input named `name`, and a failure for each
/// object that did not parse or is not a certificate.
func certificateObjects(_ bytes: [UInt8], name: String) -> (certificates: [(file: String, certificate: Certificate)], failures: [CLIError]) {
    var certificates: [(file: String, certificate: Certificate)] = []
    var failures: [CLIError] = []
    let found = readObjects(bytes, name: name)
    for object in found.objects {
        switch object {
        case .certificate(let certificate): certificates.append((name, certificate))
        case .publicKey(_, let source): failures.append(CLIError("\(name): a \(source.rawValue.replacingOccurrences(of: "_", with: " ")), not a certificate", code: "not_a_certificate"))
        }
    }
    failures += found.failures
    return (certificates, failures)
}

/// Why ``decodeCertificate(_:)`` refused some bytes.
enum CertificateDecodingFailure: Error {
    /// The bytes are no certificate (or a certificate broken in its structure).
    case notACertificate(X509Error)
    /// A certificate whose subject or issuer does not decode (a byte outside a
    /// PrintableString's alphabet): malformed, since every command names it.
    case undecodableName(X509Error)
}

/// A certificate whose subject and issuer decode: what every command reads, so that
/// a name is never shown as a placeholder. TackX509 decodes names lazily; here both
/// are decoded once, and a failure is the certificate's (with its offset and reason).
func decodeCertificate(_ der: [UInt8]) -> Result<Certificate, CertificateDecodingFailure> {
    let certificate: Certificate
    do {
        certificate = try Certificate(derEncoded: der)
    } catch {
        return .failure(.notACertificate(error))
    }
    do {
        _ = try DistinguishedName(derEncoded: certificate.derEncoded, range: certificate.subjectRange)
        _ = try DistinguishedName(derEncoded: certificate.derEncoded, range: certificate.issuerRange)
    } catch {
        return .failure(.undecodableName(error))
    }
    return .success(certificate)
}

/// The subject of a certificate as one line of text (RFC 4514), the way every command
/// names a certificate.
func subjectLine(_ certificate: Certificate) -> String {
    nameLine(certificate, certificate.subjectRange, empty: "(empty subject)")
}

/// The issuer of a certificate as one line of text (RFC 4514).
func issuerLine(_ certificate: Certificate) -> String {
    nameLine(certificate, certificate.issuerRange, empty: "(empty issuer)")
}

/// A name of `certificate` in RFC 4514. The certificates of input files are read by
/// ``decodeCertificate(_:)``, whose names decode; one that arrived otherwise (inside
/// an OCSP response or a PKCS #12 file) and does not decode is shown as `#` and the
/// hex of the Name's DER (RFC 4514 §2.4's form for a value without a string form),
/// its bytes rather than a placeholder.
private func nameLine(_ certificate: Certificate, _ range: Range<Int>, empty: String) -> String {
    guard let name = try? DistinguishedName(derEncoded: certificate.derEncoded, range: range) else {
        return "#" + Hex.encode(certificate.derEncoded[range])
    }
    return name.isEmpty ? empty : name.rfc4514String
}

/// A DER PKCS #10 request's key, or why it gives none once it is recognised as one
/// (a bad signature, malformed fields); `nil` when `bytes` is no request at all.
private func derCertificationRequest(_ bytes: [UInt8]) -> Result<SubjectPublicKeyInfo, PinSourceError>? {
    do throws(PinSourceError) {
        return .success(try PinSources.publicKey(certificationRequest: bytes))
    } catch {
        return error.code == "not_csr" || error.code == "malformed_der" ? nil : .failure(error)
    }
}
