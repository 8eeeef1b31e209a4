// libFuzzer harness for SubjectPublicKeyInfo reconstruction from raw key bytes
// (TackX509). Built and run by scripts/fuzz.sh (target `spki`), not by SwiftPM.
//
// The first input byte chooses the mode and key type; the rest is the payload.
//
// - Bit 7 clear: the payload is a raw key of type `PublicKeyType.allCases[b % 8]`.
//   If `SubjectPublicKeyInfo.encode(rawKey:type:)` accepts it, the result must
//   parse back as an SPKI of that type whose raw key is the payload, whose pin
//   is `SPKIPin(rawKey:type:)`, and whose bytes before the key are
//   `SPKIHeader.forKey(type, rawKeyByteCount:)`. If it rejects it, the error
//   offset lies inside the payload.
// - Bit 7 set: the payload is parsed as a DER SubjectPublicKeyInfo; if it parses
//   with a rebuildable type (uncompressed EC points only), rebuilding from its raw
//   key gives the payload back byte for byte.

import TackDER
import TackDigest
import TackX509

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSPKI(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let payload = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if selector & 0x80 == 0 {
        rebuild(payload, type: PublicKeyType.allCases[Int(selector) % PublicKeyType.allCases.count])
    } else {
        parseAndRebuild(payload)
    }
    return 0
}

private func rebuild(_ raw: [UInt8], type: PublicKeyType) {
    let der: [UInt8]
    do {
        der = try SubjectPublicKeyInfo.encode(rawKey: raw, type: type)
    } catch {
        guard error.offset >= 0, error.offset <= raw.count else {
            fatalError("X509Error offset \(error.offset) outside 0...\(raw.count)")
        }
        return
    }
    let info: SubjectPublicKeyInfo
    do {
        info = try SubjectPublicKeyInfo(derEncoded: der)
    } catch {
        fatalError("a rebuilt SPKI does not parse: \(error)")
    }
    guard info.keyType == type, info.rawKey.elementsEqual(raw) else { fatalError("rebuilt SPKI has another key") }
    guard let header = SPKIHeader.forKey(type, rawKeyByteCount: raw.count), header.bytes + raw == der else {
        fatalError("SPKIHeader is not the rebuilt SPKI's prefix")
    }
    guard let pin = try? SPKIPin(rawKey: raw, type: type), pin.digest == SHA256.hash(der) else {
        fatalError("SPKIPin(rawKey:) is not SHA-256 of the rebuilt SPKI")
    }
}

private func parseAndRebuild(_ der: [UInt8]) {
    let info: SubjectPublicKeyInfo
    do {
        info = try SubjectPublicKeyInfo(derEncoded: der)
    } catch {
        guard error.offset >= 0, error.offset <= der.count else {
            fatalError("X509Error offset \(error.offset) outside 0...\(der.count)")
        }
        return
    }
    guard let type = info.keyType, info.ecPointFormat != .compressed else { return }
    guard let rebuilt = try? SubjectPublicKeyInfo.encode(rawKey: Array(info.rawKey), type: type) else {
        fatalError("the raw key of a parsed SPKI does not rebuild")
    }
    guard rebuilt == der else { fatalError("rebuilt SPKI differs from the parsed one") }
}
