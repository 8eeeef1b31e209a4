import TackDER
import TackTestSupport
import TackX509

/// The system CA bundle's certificates, parsed by TackX509, for the suites that
/// check TackSignature's key types directly on real roots (the certificate-level
/// dispatch, `Certificate.verifySignature`, has its own suite).
let bundleRoots: [Certificate] = SystemCABundle.certificates.compactMap { try? Certificate(derEncoded: $0) }

extension Certificate {
    /// Whether the issuer and subject names are the same octets (a self-issued
    /// certificate, whose signature its own key should verify).
    var isSelfIssued: Bool { issuerBytes == subjectBytes }

    /// The outer signatureAlgorithm's parameters element (its whole TLV), or
    /// `nil` when the AlgorithmIdentifier holds only the OID.
    func signatureParameters() throws(DERError) -> [UInt8]? {
        try DER.read(derEncoded, range: signatureAlgorithmRange) { (reader) throws(DERError) -> [UInt8]? in
            var algorithm = try reader.enterSequence()
            _ = try algorithm.readObjectIdentifier()
            guard !algorithm.isAtEnd else { return nil }
            let parameters = try algorithm.readElement()
            try algorithm.expectEnd()
            return algorithm.bytes(in: parameters.encodedRange)
        }
    }
}
