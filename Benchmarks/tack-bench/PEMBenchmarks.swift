// Base64 and PEM benchmarks (TackDER). `openssl speed` has no Base64 figure,
// so there is no OpenSSL reference; timing the `openssl base64` command would
// mostly measure process start-up and file I/O.

import Foundation
import TackDER

func pemBenchmarks() -> [Benchmark] {
    // 4 KiB of fixed pseudo-random bytes (a large certificate's size).
    var state: UInt32 = 0x7ACC
    let raw: [UInt8] = (0..<4096).map { _ in
        state = state &* 1_103_515_245 &+ 12_345  // LCG step; wrapping is the algorithm
        return UInt8(truncatingIfNeeded: state >> 16)
    }
    let text = Base64.encodedBytes(raw)
    // The same text as a PEM body: 64-character lines ending in CRLF.
    var lines: [UInt8] = []
    var start = 0
    while start < text.count {
        let end = min(start + 64, text.count)
        lines += text[start..<end]
        lines += [0x0D, 0x0A]
        start = end
    }

    var benchmarks = [
        Benchmark(name: "base64-encode-4096", unit: .megabytesPerSecond(bytesPerOperation: raw.count), openssl: nil) {
            iterations in
            for _ in 0..<iterations { blackHole(Base64.encodedBytes(raw)) }
        },
        // Decoding figures count decoded bytes, so they compare with encoding.
        Benchmark(name: "base64-decode-4096", unit: .megabytesPerSecond(bytesPerOperation: raw.count), openssl: nil) {
            iterations in
            for _ in 0..<iterations { blackHole(try? Base64.decode(text)) }
        },
        Benchmark(
            name: "base64-decode-lines-4096", unit: .megabytesPerSecond(bytesPerOperation: raw.count), openssl: nil
        ) { iterations in
            for _ in 0..<iterations { blackHole(try? Base64.decode(lines, options: .ignoringWhitespace)) }
        },
    ]

    // The whole system CA bundle as one PEM input.
    if let data = FileManager.default.contents(atPath: systemBundlePath) {
        let bundle = [UInt8](data)
        let count = ((try? PEM.parse(bundle)) ?? []).count
        if count > 0 {
            benchmarks.append(
                Benchmark(
                    name: "pem-parse-ca-bundle", unit: .itemsPerSecond(itemsPerOperation: count, label: "block"),
                    openssl: nil
                ) { iterations in
                    for _ in 0..<iterations { blackHole(try? PEM.parse(bundle)) }
                })
        }
    }
    return benchmarks
}
