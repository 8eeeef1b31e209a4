// DER walking speed (issue 2): every node of every certificate of the system CA
// bundle, strictly checked, reported in nodes per second and nanoseconds per node.
// There is no OpenSSL figure: OpenSSL has no public generic DER walker
// (`openssl asn1parse` is a printing tool); the x509-parse benchmarks compare
// whole-certificate parsing instead.

import TackDER

func derBenchmarks() -> [Benchmark] {
    let corpus = systemBundle
    guard !corpus.isEmpty else { return [] }
    var nodeCount = 0
    for certificate in corpus {
        nodeCount += (try? DER.walk(certificate) { _, _ in }) ?? 0
    }
    return [
        Benchmark(
            name: "der-walk", unit: .itemsPerSecond(itemsPerOperation: nodeCount, label: "node"), openssl: nil
        ) { iterations in
            for _ in 0..<iterations {
                var total = 0
                for certificate in corpus {
                    total &+= (try? DER.walk(certificate) { _, _ in }) ?? 0
                }
                blackHole(total)
            }
        },
        Benchmark(
            name: "der-walk-structure", unit: .itemsPerSecond(itemsPerOperation: nodeCount, label: "node"),
            openssl: nil
        ) { iterations in
            for _ in 0..<iterations {
                var total = 0
                for certificate in corpus {
                    total &+= (try? DER.walk(certificate, checksPrimitives: false) { _, _ in }) ?? 0
                }
                blackHole(total)
            }
        },
    ]
}
