// Signatures, valid and invalid, per algorithm: certificate signatures of
// Vectors/certs (RSA PKCS #1 v1.5 and PSS, ECDSA P-256/384/521, Ed25519), and the
// ECDSA, Ed25519 and RSA-2048 vectors of Vectors/signatures.

#if !CORE_ONLY
import TackDER
import TackDigest
import TackSignature
import TackX509

func checkSignatures(_ tally: inout Tally) {
    // Certificate signatures, and each with its last signature octet flipped.
    for (subjectIndex, issuerIndex, valid) in certificateSignatures {
        let (subjectName, subjectDER, _, _, _) = certificates[subjectIndex]
        let (issuerName, issuerDER, _, _, _) = certificates[issuerIndex]
        var mutated = bytes(subjectDER)
        do throws(X509Error) {
            let subject = try Certificate(derEncoded: mutated)
            let issuer = try Certificate(derEncoded: bytes(issuerDER))
            let verdict = verifies { () throws(SignatureError) in try subject.verifySignature(issuedBy: issuer) }
            tally.check(verdict == valid, "\(subjectName) under \(issuerName): \(verdict), expected \(valid)")
            // The signature BIT STRING ends the certificate.
            mutated[mutated.count - 1] ^= 0x01
            let tampered = try Certificate(derEncoded: mutated)
            let tamperedVerdict = verifies { () throws(SignatureError) in try tampered.verifySignature(issuedBy: issuer) }
            tally.check(!tamperedVerdict, "\(subjectName) with a flipped signature bit verifies under \(issuerName)")
        } catch {
            tally.check(false, "\(subjectName) / \(issuerName): \(error)")
        }
    }

    for (curve, key, message, hash, signature, valid) in ecdsaVectors {
        let verdict = verifies { () throws(SignatureError) in
            let publicKey = try ECDSAPublicKey(curve: curve, x962Representation: bytes(key))
            try publicKey.verifySignature(bytes(signature), forDigest: hash.digest(bytes(message)))
        }
        tally.check(verdict == valid, "ECDSA \(curve.name) \(hex(bytes(signature).prefix(8)))…: \(verdict), expected \(valid)")
    }

    for (key, message, signature, valid) in ed25519Vectors {
        let verdict = verifies { () throws(SignatureError) in
            try Ed25519PublicKey(rawRepresentation: bytes(key)).verifySignature(bytes(signature), for: bytes(message))
        }
        tally.check(verdict == valid, "Ed25519 \(hex(bytes(signature).prefix(8)))…: \(verdict), expected \(valid)")
    }

    var keys: [RSAPublicKey?] = []
    for der in rsaKeys {
        keys.append(try? RSAPublicKey(pkcs1DER: bytes(der)))
        tally.check(keys.last.flatMap { $0 } != nil, "RSA key \(keys.count - 1) does not parse")
    }
    for (keyIndex, isPSS, hash, mgf1Hash, saltLength, message, signature, valid) in rsaVectors {
        guard let key = keys[keyIndex] else { continue }
        let verdict = verifies { () throws(SignatureError) in
            if isPSS {
                let parameters = try PSSParameters(hash: hash, mgf1Hash: mgf1Hash, saltLength: saltLength)
                try key.verifyPSSSignature(bytes(signature), for: bytes(message), parameters: parameters)
            } else {
                try key.verifyPKCS1v15Signature(bytes(signature), for: bytes(message), hash: hash)
            }
        }
        tally.check(verdict == valid,
                    "RSA-\(key.modulusBitCount) \(isPSS ? "PSS" : "PKCS1v15") \(hex(bytes(signature).prefix(8)))…: \(verdict), expected \(valid)")
    }
}

/// Whether `body` returns without throwing.
func verifies(_ body: () throws(SignatureError) -> Void) -> Bool {
    do throws(SignatureError) {
        try body()
        return true
    } catch {
        return false
    }
}

#endif
