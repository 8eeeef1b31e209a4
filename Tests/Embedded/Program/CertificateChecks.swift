// Certificates of Vectors/certs: each parses, its SPKI pin equals the pin the
// OpenSSL pipeline printed, its fingerprint and notAfter match.

#if !CORE_ONLY
import TackDER
import TackDigest
import TackX509

func checkCertificates(_ tally: inout Tally) {
    for (name, der, pin, fingerprint, notAfter) in certificates {
        do throws(X509Error) {
            let certificate = try Certificate(derEncoded: bytes(der))
            let spkiPin = SPKIPin(certificate)
            tally.check(Array(spkiPin.base64.utf8) == utf8(pin), "\(name): pin \(spkiPin.base64), expected \(pin)")
            tally.check((try? SPKIPin(pin.description)) == spkiPin, "\(name): the expected pin does not parse to the same digest")
            tally.check(Array(CertificateFingerprint(certificate).digest) == bytes(fingerprint), "\(name): fingerprint")
            let seconds = certificate.validity.notAfter.secondsSince1970
            tally.check(seconds == notAfter, "\(name): notAfter \(seconds) s, expected \(notAfter)")
            tally.check(certificate.validity.contains(secondsSince1970: notAfter)
                        && !certificate.validity.contains(secondsSince1970: notAfter + 1),
                        "\(name): validity does not end at notAfter")
        } catch {
            tally.check(false, "\(name): \(error)")
        }
    }
}

#endif
