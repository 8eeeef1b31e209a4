// The certificate corpus shared by the DER and X.509 benchmarks: the system CA
// bundle, loaded once, outside every timed region.

import Foundation
import TackDER

/// Where the system CA bundle lives on Debian and Ubuntu.
let systemBundlePath = "/etc/ssl/certs/ca-certificates.crt"

/// The DER certificates of the system CA bundle (empty when it is absent).
let systemBundle: [[UInt8]] = {
    guard let data = FileManager.default.contents(atPath: systemBundlePath) else {
        FileHandle.standardError.write(Data("tack-bench: no \(systemBundlePath); corpus benchmarks skipped\n".utf8))
        return []
    }
    let blocks = (try? PEM.parse([UInt8](data))) ?? []
    return blocks.filter { $0.label == "CERTIFICATE" }.map(\.bytes)
}()
