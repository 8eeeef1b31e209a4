// ECDSA and Ed25519 verification rates against `openssl speed` (issue 5):
// `verify-p256`, `verify-p384`, `verify-p521` (one signature check over a
// precomputed digest, as `openssl speed ecdsapNNN` measures) and
// `verify-ed25519` (a check over a 24-byte message, hashing included, as
// `openssl speed ed25519` does). Inputs are the "message 2" cases of
// Vectors/signatures/ec, made by its generate.py.

import TackDER
import TackSignature
import TackX509

/// Hex to bytes for the constants below (trusted, well-formed).
private func ecBenchmarkBytes(_ hex: String) -> [UInt8] {
    (try? Hex.decode(hex)) ?? []
}

func ecBenchmarks() -> [Benchmark] {
    var benchmarks: [Benchmark] = []
    let ecdsaCases: [(name: String, curve: ECCurve, openssl: String, key: String, signature: String, digest: String)] = [
        (
            "verify-p256", .p256, "ecdsap256",
            "0446a1dd361cdfb66e0ab0c78d83b3bdbdbe82d4605a9081f35a4767e9d57858" +
            "4d7b0d620a563e98afe9c3e0a46e9250ed9a5d4c7e8787d61b5d410b5cf672e7" +
            "21",
            "3046022100dd01cba2f08e48fd41ab9992c10a27d462b896e5d4b07c911c182e" +
            "cacfb0a642022100be4945200625237e2f768f69078e29a069acecf2897a3237" +
            "2d43d8a37a353656",
            "d817d95c5e25450389f08fecc8e9109678ec3e3ead361b752a689af26b09477b"
        ),
        (
            "verify-p384", .p384, "ecdsap384",
            "0428b1f6575324190d80068975a43e48227a4a27e45417af4b2898c4b866aa16" +
            "ffc0c439fa59d109a1c908397f54cedd67e7035e4116a61c16eb573a8ddb3ee3" +
            "036efb3c9f5d5ce2064cb139a6782ba867788d4ac155c604748d5145ecbf0e30" +
            "19",
            "306502307e4e61515fdfbd9ded79c98bb2b9eec0e43ab33b787185749f85d1b3" +
            "f81b5e6b4c9e23329c04b52f21c4b11d2865ee7c023100d1e4c972ab626aff2d" +
            "00edc8e27c01040e97ff7de1e71112bee8adbadf16876d9c388487ce9c70e8d6" +
            "ab26cd65dc20da",
            "f7f939320acf4dd5a11432986a8e499b7ec6940dd2ef5f09fee75ecf5d95d20f" +
            "c8fae3d882a99b0160c4f82bd4e48184"
        ),
        (
            "verify-p521", .p521, "ecdsap521",
            "0400a26e91ab3df2cbf99aee9868cb092f51da27a194da2181edee046b9e5b1c" +
            "26d36fd09eefe1503b59d3043d55cfa497f4b2c20fb3b319a296728bdebe639a" +
            "45b2b000bc7599313065a9ac721453e9d91230e2d426f933bb8365285cfc4617" +
            "1249bed0afb7593b4a6c1373415ed2f18659916d181922ecae3210bb2cfe5cad" +
            "bad1a57637",
            "3081880242017dfd2b8780f3c5f92be322ec7cd1466f7fe2db15584c05bb093d" +
            "041a5ba0a4d95bdcd82288174a545eeabdf929c82e837a8eab7f11727afabc23" +
            "9af760bea575fe024201240aa61298b6e703e12b741812ff97b1e3b049b61809" +
            "ec04002da3dde5481a03e2db02defe2e79ff1bc05ac52a593e5bd60d91168cfc" +
            "52f0542e754dd1877e1322",
            "73b8d2d0ae9520b1e6f508995ae1f6ec1267414b3e7216f7ef5868b3a9a08341" +
            "253201245bc50c98be6223881f79bd32f1d0844785217a140c9ead49e0305bda"
        ),
    ]
    for testCase in ecdsaCases {
        // Setup outside the timed loop; a failure here means the vectors changed.
        guard let key = try? ECDSAPublicKey(curve: testCase.curve, x962Representation: ecBenchmarkBytes(testCase.key)),
            let signature = try? ECDSASignature(derEncoded: ecBenchmarkBytes(testCase.signature), curve: testCase.curve)
        else { fatalError("\(testCase.name): benchmark inputs do not parse") }
        let digest = ecBenchmarkBytes(testCase.digest)
        guard (try? key.verifySignature(signature, forDigest: digest)) != nil else { fatalError("\(testCase.name): signature does not verify") }
        benchmarks.append(
            Benchmark(name: testCase.name, unit: .operationsPerSecond, openssl: .publicKey(testCase.openssl, .verify)) { iterations in
                for _ in 0..<iterations {
                    blackHole((try? key.verifySignature(signature, forDigest: digest)) != nil)
                }
            })
    }

    let edKey = ecBenchmarkBytes(
        "5924927bafc5d79389af1d2b46025f9443d8c22c33aaf0dfb1ef516add398b13")
    let edSignature = ecBenchmarkBytes(
        "5a8c8beaa10e7b567f6b2f31d926d2e2bf415cbe1f1eb59fd7115885af3ea3ac" +
            "2aeb2499f8e6dcaedfef29168fcc8006eb73d6b32c2b7ca05fcb275cbe026d04")
    let edMessage = ecBenchmarkBytes("5461636b207665726966696573207369676e617475726573")
    guard let key = try? Ed25519PublicKey(rawRepresentation: edKey),
        (try? key.verifySignature(edSignature, for: edMessage)) != nil
    else { fatalError("verify-ed25519: benchmark inputs do not verify") }
    benchmarks.append(
        Benchmark(name: "verify-ed25519", unit: .operationsPerSecond, openssl: .publicKey("ed25519", .verify)) { iterations in
            for _ in 0..<iterations {
                blackHole((try? key.verifySignature(edSignature, for: edMessage)) != nil)
            }
        })
    return benchmarks
}
