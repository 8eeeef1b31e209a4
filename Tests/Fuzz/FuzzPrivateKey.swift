// libFuzzer harness for private keys (TackSignature's PrivateKey): PKCS #8,
// PKCS #1 and SEC 1, chosen by the first input byte. Built and run by
// scripts/fuzz.sh (target `privatekey`), not by SwiftPM.
//
// A key that reads must have a checked public key or say it has none; an error's
// offset lies inside the input.

import TackSignature

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPrivateKey(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let formats: [PrivateKeyFormat] = [.pkcs8, .pkcs1, .sec1]
    let format = formats[Int(data[0]) % formats.count]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    do {
        let key = try PrivateKey(derEncoded: bytes, format: format)
        if key.isChecked && key.publicKeyInfo == nil { fatalError("a checked key without its public key") }
        guard !key.description.isEmpty else { fatalError("empty description") }
    } catch {
        guard error.offset >= 0, error.offset <= bytes.count else {
            fatalError("PrivateKeyError offset \(error.offset) outside 0...\(bytes.count)")
        }
    }
    return 0
}
