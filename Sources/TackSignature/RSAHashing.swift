// Interim: message hashing arrives with TackSHA2 (branch sha2).
extension RSAPublicKey {
    func withDigest<Result>(
        of message: some Collection<UInt8>, hash: RSAHash,
        _ body: ([UInt8]) throws(SignatureError) -> Result
    ) throws(SignatureError) -> Result {
        throw .unsupported(reason: "message hashing is not available yet")
    }
}
