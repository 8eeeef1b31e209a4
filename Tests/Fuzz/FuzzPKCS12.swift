// libFuzzer harness for the PKCS #12 reader (TackPKCS12): the bounded BER layers,
// the bag structure and the strict DER of the certificates and keys inside. Built
// and run by scripts/fuzz.sh (target `pkcs12`), not by SwiftPM.
//
// Every input is read without a MAC allowed and with none; either it reads or it
// throws a PKCS12Error whose offset lies inside the layer it names (for the file
// layer, inside the input). An identity's chain starts at its certificate and
// indexes only the file's certificates. The iteration cap is lowered to 10,000 (the
// most any seed uses: keytool's) so that a mutated count costs milliseconds, not
// seconds, per execution (the cap itself is checked before any derivation).

import TackPKCS12

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPKCS12(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var options = PKCS12Options()
    options.readsFilesWithoutMAC = true
    options.maximumIterations = 10_000
    do {
        let file = try PKCS12File(berEncoded: bytes, passphrase: nil, options: options)
        for identity in file.identities {
            guard file.certificates.indices.contains(identity.certificateIndex),
                  file.keys.indices.contains(identity.keyIndex) else { fatalError("identity indexes nothing") }
            guard identity.chain.indices.first == identity.certificateIndex,
                  identity.chain.indices.allSatisfy(file.certificates.indices.contains) else {
                fatalError("chain indexes outside the file's certificates")
            }
        }
    } catch {
        guard error.offset >= 0, error.layer != .file || error.offset <= size else {
            fatalError("PKCS12Error offset \(error.offset) outside the input of \(size) bytes")
        }
    }
    return 0
}
