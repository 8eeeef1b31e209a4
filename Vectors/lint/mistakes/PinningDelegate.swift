// Each trust-evaluation mistake `tack lint` looks for, once, with the line of the
// expected finding marked `expect: RULE`. Decoys in comments and strings must not fire:
// SecTrustEvaluate(trust, &result) in a comment, SecPolicyCreateSSL(true, nil) too.
/* Block comments as well: SecTrustCopyPublicKey(trust) /* nested */ SecTrustGetCertificateAtIndex(trust, 0) */

import CommonCrypto
import CryptoKit
import Foundation
import Security

final class PinningDelegate: NSObject, URLSessionDelegate {
    let decoy = "SecTrustEvaluate(trust, &result) and completionHandler(.useCredential, nil)"
    let decoyMultiline = """
        SecPolicyCreateSSL(true, nil) inside a multi-line string
        SecTrustSetAnchorCertificates(trust, anchors as CFArray)
        """
    let decoyRaw = #"SecTrustCopyPublicKey(trust) in a "raw" string"#

    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let trust = challenge.protectionSpace.serverTrust else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        completionHandler(.useCredential, URLCredential(trust: trust))  // expect: credential-without-trust
    }

    func legacyCheck(_ trust: SecTrust, host: String) -> Bool {
        let policy = SecPolicyCreateSSL(true, nil)  // expect: ssl-policy-nil-host
        SecTrustSetPolicies(trust, policy)
        var result = SecTrustResultType.invalid
        SecTrustEvaluate(trust, &result)  // expect: deprecated-trust-api
        guard let leaf = SecTrustGetCertificateAtIndex(trust, 0) else { return false }  // expect: deprecated-trust-api
        let key = SecTrustCopyPublicKey(trust)  // expect: deprecated-trust-api
        _ = (leaf, key, "\(host)")
        return result == .unspecified || result == .proceed
    }

    func trustOurCA(_ trust: SecTrust, anchors: [SecCertificate]) {
        SecTrustSetAnchorCertificates(trust, anchors as CFArray)  // expect: system-anchors-disabled
    }

    func pin(of key: SecKey) -> String? {
        guard let raw = SecKeyCopyExternalRepresentation(key, nil) as Data? else { return nil }  // expect: spki-header-missing
        return Data(SHA256.hash(data: raw)).base64EncodedString()
    }

    func identity(from p12: Data) -> SecIdentity? {
        var items: CFArray?
        let status = SecPKCS12Import(p12 as CFData, [kSecImportExportPassphrase as String: "hunter2"] as CFDictionary, &items)  // expect: pkcs12-passphrase-literal
        guard status == errSecSuccess else { return nil }
        return nil
    }

    func reviewedLegacy(_ trust: SecTrust) {
        var result = SecTrustResultType.invalid
        // tack-lint:disable deprecated-trust-api (iOS 12 fallback, removed in the next release)
        SecTrustEvaluate(trust, &result)
    }
}
