// The fixed form of every mistake in ../mistakes/PinningDelegate.swift: `tack lint`
// reports nothing here.

import CommonCrypto
import CryptoKit
import Foundation
import Security

final class PinningDelegate: NSObject, URLSessionDelegate {
    /// The SPKI header of an EC P-256 key (what `tack pin --raw-key … --key-type p256` prints).
    static let p256SPKIHeader: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
        0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]
    let pins: Set<String> = []

    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let trust = challenge.protectionSpace.serverTrust else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        let policy = SecPolicyCreateSSL(true, challenge.protectionSpace.host as CFString)
        SecTrustSetPolicies(trust, policy)
        var error: CFError?
        guard SecTrustEvaluateWithError(trust, &error), let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate],
              chain.contains(where: { certificate in
                  SecCertificateCopyKey(certificate).flatMap { pin(of: $0) }.map(pins.contains) ?? false
              })
        else {
            completionHandler(.cancelAuthenticationChallenge, nil)
            return
        }
        completionHandler(.useCredential, URLCredential(trust: trust))
    }

    func trustOurCA(_ trust: SecTrust, anchors: [SecCertificate]) {
        SecTrustSetAnchorCertificates(trust, anchors as CFArray)
        SecTrustSetAnchorCertificatesOnly(trust, false)  // keep the system anchors too
    }

    func pin(of key: SecKey) -> String? {
        guard let raw = SecKeyCopyExternalRepresentation(key, nil) as Data? else { return nil }
        let spki = Data(PinningDelegate.p256SPKIHeader) + raw
        return Data(SHA256.hash(data: spki)).base64EncodedString()
    }

    func identity(from p12: Data, passphrase: String) -> SecIdentity? {
        var items: CFArray?
        let status = SecPKCS12Import(p12 as CFData, [kSecImportExportPassphrase as String: passphrase] as CFDictionary, &items)
        guard status == errSecSuccess else { return nil }
        return nil
    }
}
