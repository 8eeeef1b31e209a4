import Foundation

// Not a mistake: the helper's verdict guards the credential.
final class HelperDelegate: NSObject, URLSessionDelegate {
    let pins: Set<Data> = []

    func verifyServerTrust(_ trust: SecTrust, host: String) -> Bool {
        SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, host as CFString))
        return SecTrustEvaluateWithError(trust, nil)
    }

    func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        guard let trust = challenge.protectionSpace.serverTrust,
              verifyServerTrust(trust, host: challenge.protectionSpace.host) else {
            return completionHandler(.cancelAuthenticationChallenge, nil)
        }
        completionHandler(.useCredential, URLCredential(trust: trust))
    }
}
