// PKCS #12 (TackPKCS12): one small OpenSSL 3 default file of Vectors/pkcs12
// (PBES2 AES-256-CBC, HMAC-SHA-256 MAC) opened with its passphrase: one
// identity, its key ID, friendly name and chain, the file's certificates as
// Python's cryptography reads them; and the wrong passphrase refused as such.
// Not in CORE_ONLY builds, nor where TackPKCS12 is not built.

#if !CORE_ONLY && canImport(TackPKCS12)
import TackPKCS12
import TackDigest
import TackTrust
import TackX509

func checkPKCS12(_ tally: inout Tally) {
    let (passphrase, file, certificateDigests, keyID, friendlyName) = pkcs12Case
    let data = bytes(file)
    do {
        let opened = try PKCS12File(berEncoded: data, passphrase: String(decoding: utf8(passphrase), as: UTF8.self))
        tally.check(opened.identities.count == 1, "PKCS #12: \(opened.identities.count) identities, expected 1")
        tally.check(opened.certificates.count == certificateDigests.count,
                    "PKCS #12: \(opened.certificates.count) certificates, expected \(certificateDigests.count)")
        let digests = opened.certificates.map { Array(SHA256.hash($0.certificate.derEncoded)) }
        for (index, expected) in certificateDigests.enumerated() {
            tally.check(digests.contains(bytes(expected)), "PKCS #12: certificate \(index) of cryptography's not read")
        }
        tally.check(opened.keysWithoutCertificate.isEmpty, "PKCS #12: a key without its certificate")
        if let identity = opened.identities.first, identity.certificateIndex < digests.count {
            tally.check(digests[identity.certificateIndex] == bytes(certificateDigests[0]), "PKCS #12: the identity's certificate")
            tally.check(identity.keyID == bytes(keyID), "PKCS #12: key ID")
            tally.check(identity.match == .localKeyIDAndPublicKey, "PKCS #12: key not matched by localKeyID and public key")
            tally.check(identity.chain.indices.first == identity.certificateIndex, "PKCS #12: the chain does not start at the leaf")
            tally.check(opened.certificates[identity.certificateIndex].attributes.friendlyName
                            == String(decoding: utf8(friendlyName), as: UTF8.self),
                        "PKCS #12: friendly name")
        } else {
            tally.check(false, "PKCS #12: no identity")
        }
    } catch {
        tally.check(false, "PKCS #12: \(error)")
    }
    do {
        _ = try PKCS12File(berEncoded: data, passphrase: "wrong horse")
        tally.check(false, "PKCS #12 opened with the wrong passphrase")
    } catch {
        tally.check(error.reason == .wrongPassphrase, "PKCS #12 with the wrong passphrase: \(error)")
    }
}
#endif
