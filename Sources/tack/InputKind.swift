// What a file is when it is not what a command expects: a photo, a PKCS #12 file, an
// OCSP response where a certificate was expected, a certificate where a CRL was. Each
// reader asks here before it blames the DER, so the message names the kind of file
// ("this is a PKCS #12 file: use tack identity") rather than the first DER rule the
// bytes break.

import TackDER
import TackX509

/// The kinds of file that commands are handed by mistake, recognised by their first
/// bytes (images, documents, archives) or by their structure (the PKI files).
enum InputKind: Equatable {
    case jpeg
    case png
    case pdf
    case zip
    case pkcs12
    case ocspResponse
    case crl
    case certificate

    /// The kind of `bytes` (DER, or PEM for the PKI files), or `nil` when it is none
    /// of these. Certificates, CRLs and OCSP responses are recognised by parsing;
    /// PKCS #12 by its first fields; the others by their magic numbers.
    static func recognise(_ bytes: [UInt8]) -> InputKind? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: Array("%PDF-".utf8)) { return .pdf }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if bytes.contains(text: "-----BEGIN ") {
            guard let label = (try? PEM.parse(bytes))?.first?.label else { return nil }
            switch label {
            case "CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE": return .certificate
            case "X509 CRL": return .crl
            case "OCSP RESPONSE": return .ocspResponse
            default: return nil
            }
        }
        if isPKCS12(bytes) { return .pkcs12 }
        if OCSPShow.isResponse(bytes) { return .ocspResponse }
        if (try? Certificate(derEncoded: bytes)) != nil { return .certificate }
        if (try? CertificateRevocationList(derEncoded: bytes)) != nil { return .crl }
        return nil
    }

    /// PFX ::= SEQUENCE { version INTEGER {v3(3)}, authSafe ContentInfo, … } (RFC 7292
    /// §4), in DER or BER (an indefinite length is allowed here): the outer SEQUENCE,
    /// version 3, then a SEQUENCE.
    private static func isPKCS12(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 8, bytes[0] == 0x30 else { return false }
        let lengthOctets = bytes[1] <= 0x80 ? 0 : Int(bytes[1] & 0x7F)
        let version = 2 + lengthOctets
        guard lengthOctets <= 4, version + 4 <= bytes.count else { return false }
        return bytes[version..<(version + 4)].elementsEqual([0x02, 0x01, 0x03, 0x30])
    }

    /// The kind in a sentence: `a JPEG image`, `a PKCS #12 file`, `an OCSP response`.
    var name: String {
        switch self {
        case .jpeg: "a JPEG image"
        case .png: "a PNG image"
        case .pdf: "a PDF document"
        case .zip: "a ZIP archive"
        case .pkcs12: "a PKCS #12 file"
        case .ocspResponse: "an OCSP response"
        case .crl: "a CRL"
        case .certificate: "a certificate"
        }
    }

    /// The error code of a file of this kind where another was expected.
    var code: String {
        switch self {
        case .jpeg: "input_is_jpeg"
        case .png: "input_is_png"
        case .pdf: "input_is_pdf"
        case .zip: "input_is_zip"
        case .pkcs12: "input_is_pkcs12"
        case .ocspResponse: "input_is_ocsp_response"
        case .crl: "input_is_crl"
        case .certificate: "input_is_certificate"
        }
    }

    /// What to do with a file of this kind instead, where Tack has a command for it.
    private var advice: String {
        switch self {
        case .pkcs12: ": use tack identity"
        case .ocspResponse: ": tack show prints it, tack verify takes it with --ocsp"
        case .crl: ": tack show prints it, tack verify takes it with --crl"
        case .certificate, .jpeg, .png, .pdf, .zip: ""
        }
    }

    /// The failure for a file `name` of this kind where `expected` was wanted:
    /// `NAME: this is a PKCS #12 file, not a certificate or key: use tack identity`.
    func failure(_ name: String, expected: String) -> CLIError {
        CLIError("\(name): this is \(self.name), not \(expected)\(advice)", code: code)
    }
}
