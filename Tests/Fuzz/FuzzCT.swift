// libFuzzer harness for Certificate Transparency input (TackX509, TackTrust): the
// TLS-encoded SCT list parser and the v3 log list reader. Built and run by
// scripts/fuzz.sh (target `ct`).
//
// Properties, each trapping on violation:
// 1. SignedCertificateTimestampList.decodeEntries returns at least one entry; every
//    decoded SCT is a slice of the input with a 32-octet log ID, and every error's
//    offset lies inside the input.
// 2. CTLogList(json:) either reads a list whose every log ID is the SHA-256 of its key
//    (32 octets, unique), or throws with a location inside the input.

import TackTrust
import TackX509

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    let entries = SignedCertificateTimestampList.decodeEntries(bytes[...])
    if entries.isEmpty { fatalError("no entry for \(size) octets") }
    for entry in entries {
        switch entry {
        case .success(let sct):
            guard sct.serialized.startIndex >= 0, sct.serialized.endIndex <= size, sct.logID.count == 32 else {
                fatalError("SCT outside the input or with a short log ID")
            }
        case .failure(let error):
            guard error.offset >= 0, error.offset <= size else { fatalError("SCTError offset \(error.offset) outside 0...\(size)") }
        }
    }

    do {
        let list = try CTLogList(json: bytes)
        for (index, log) in list.logs.enumerated() {
            guard log.logID.count == 32 else { fatalError("log ID of \(log.logID.count) octets") }
            if list.logs[..<index].contains(where: { $0.logID == log.logID }) { fatalError("duplicate log ID accepted") }
        }
    } catch {
        if let location = error.location, location.offset < 0 || location.offset > size {
            fatalError("CTLogListError offset \(location.offset) outside 0...\(size)")
        }
    }
    return 0
}
