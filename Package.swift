// swift-tools-version: 6.1
//
// Tack: a pure-Swift DER / X.509 / signature / trust / pinning engine.
//
// The package has no dependencies, ever. The core modules (TackDER through
// TackTrust, with TackFormats) import only the Swift standard library, so that they also build
// as Embedded Swift (see scripts/embedded-check.sh).

import PackageDescription

/// The optional algorithm families, one package trait each, all enabled by
/// default: a plain `swift build` keeps everything. A build for firmware turns off
/// what its use case does not need (`--disable-default-traits --traits ...`, or, in
/// the manifest of a firmware package that uses Tack, the traits it lists for Tack;
/// README, "Package traits"); a certificate or key that needs
/// a family left out is refused with a named `unsupported` reason, never verified.
///
/// This table is the one description of the traits: each one's compile condition
/// is defined for every target when the trait is on (`#if TACK_P384`), and the
/// scripts that call swiftc directly (scripts/embedded-check.sh,
/// scripts/baremetal-check.sh, scripts/fuzz.sh) read it with scripts/traits.py.
/// Keep one entry a line: `(name, condition, [traits it enables], description)`.
let optionalFamilies: [(name: String, condition: String, enables: [String], description: String)] = [
    ("P384", "TACK_P384", [], "ECDSA on P-384 (secp384r1): keys, signatures, key agreement."),
    ("P521", "TACK_P521", [], "ECDSA on P-521 (secp521r1): keys and signatures."),
    ("Ed25519", "TACK_ED25519", ["SHA512"], "Ed25519 keys and signatures (RFC 8032, RFC 8410); needs SHA512."),
    ("RSAPSS", "TACK_RSA_PSS", [], "RSASSA-PSS signatures (RFC 4055, RFC 8017 §8.1)."),
    ("SHA512", "TACK_SHA512", [], "The SHA-512 family (SHA-384, SHA-512, SHA-512/224, SHA-512/256) for signatures and digests."),
    ("OCSP", "TACK_OCSP", [], "OCSP responses (RFC 6960) and Must-Staple (RFC 7633) in the trust decision."),
    ("CRL", "TACK_CRL", [], "Certificate revocation lists (RFC 5280 §6.3) in the trust decision."),
    ("CT", "TACK_CT", [], "Certificate Transparency (RFC 6962): SCTs checked against a log list and policy in the trust decision."),
]

/// Settings shared by every target: Swift 6 language mode is set package-wide
/// below; these upcoming features keep the code honest about existentials.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
] + familySettings

/// Each optional family's compile condition, defined when its trait is on
/// (`optionalFamilies` above).
var familySettings: [SwiftSetting] {
    optionalFamilies.map { .define($0.condition, .when(traits: [$0.name])) }
}

/// TackDigest's hardware SHA-256 path (x86-64 SHA extensions) needs the `sha`
/// and `ssse3` target features for the code that calls the intrinsics (the
/// ARMv8 path, on arm64 hosts, needs `sha2`). Swift
/// has no per-function target attribute, so they are set for the module
/// through the Clang importer (`-Xcc -Xclang -target-feature`, which, unlike
/// `-msha`, is only a warning rather than an error should a cross-compilation
/// ever hand it to a non-x86 target), and `TACK_HARDWARE_SHA` enables the code.
///
/// Those are unsafe flags, and SwiftPM refuses to build a package resolved
/// from a version (or branch) requirement that has any, whatever their trait
/// or platform condition. So they are added only where SwiftPM allows them:
/// when Tack is the root package or a local path dependency, that is, when
/// its directory is not a SwiftPM (`.build/checkouts`) or Xcode
/// (`SourcePackages/checkouts`) checkout; and only on x86-64 and arm64 build
/// hosts, and only with the `HardwareSHA` trait (on by default). A package that depends
/// on Tack by version gets the portable path, which gives the same digests.
let isDependencyCheckout =
    Context.packageDirectory.contains("/.build/checkouts/")
    || Context.packageDirectory.contains("/SourcePackages/checkouts/")
#if arch(x86_64)
let hardwareSHASettings: [SwiftSetting] =
    isDependencyCheckout
    ? []
    : [
        .define("TACK_HARDWARE_SHA", .when(traits: ["HardwareSHA"])),
        .unsafeFlags(
            [
                "-Xcc", "-Xclang", "-Xcc", "-target-feature", "-Xcc", "-Xclang", "-Xcc", "+sha",
                "-Xcc", "-Xclang", "-Xcc", "-target-feature", "-Xcc", "-Xclang", "-Xcc", "+ssse3",
            ],
            .when(traits: ["HardwareSHA"])
        ),
    ]
#elseif arch(arm64)
// The ARMv8 path (SHA256HardwareARM.swift) needs the `sha2` target feature.
// It runs on Apple platforms (every Apple arm64 CPU has the instructions); on
// other arm64 systems only with -D TACK_ASSUME_ARMV8_SHA2 (see that file).
let hardwareSHASettings: [SwiftSetting] =
    isDependencyCheckout
    ? []
    : [
        .define("TACK_HARDWARE_SHA", .when(traits: ["HardwareSHA"])),
        .unsafeFlags(
            ["-Xcc", "-Xclang", "-Xcc", "-target-feature", "-Xcc", "-Xclang", "-Xcc", "+sha2"],
            .when(traits: ["HardwareSHA"])
        ),
    ]
#else
let hardwareSHASettings: [SwiftSetting] = []
#endif

/// TackCipher's hardware AES paths (AESHardware.swift: x86-64 AES-NI;
/// AESHardwareARM.swift: the ARMv8 AES instructions) behind the same switches
/// as the hardware SHA-256: the `HardwareSHA` trait, root or path packages
/// only, x86-64 and arm64 build hosts only (see above), with the `aes` target
/// feature and `TACK_HARDWARE_AES` defined. Elsewhere the bitsliced portable AES
/// runs, which gives the same results.
/// On x86-64 also the `pclmul` feature and the compiler's `Builtin` module, through
/// which GHASHHardware.swift reaches PCLMULQDQ (the C intrinsic is a macro Swift
/// cannot import), and the `xsave` feature for XGETBV, with which ChaCha20.swift asks
/// whether the OS saves the AVX-512 state (it emits no other XSAVE instruction).
#if arch(x86_64)
let hardwareAESSettings: [SwiftSetting] =
    isDependencyCheckout
    ? []
    : [
        .define("TACK_HARDWARE_AES", .when(traits: ["HardwareSHA"])),
        .unsafeFlags(
            [
                "-Xcc", "-Xclang", "-Xcc", "-target-feature", "-Xcc", "-Xclang", "-Xcc", "+aes",
                "-Xcc", "-Xclang", "-Xcc", "-target-feature", "-Xcc", "-Xclang", "-Xcc", "+pclmul",
                "-Xcc", "-Xclang", "-Xcc", "-target-feature", "-Xcc", "-Xclang", "-Xcc", "+xsave",
                "-enable-builtin-module",
            ],
            .when(traits: ["HardwareSHA"])
        ),
    ]
#elseif arch(arm64)
let hardwareAESSettings: [SwiftSetting] =
    isDependencyCheckout
    ? []
    : [
        .define("TACK_HARDWARE_AES", .when(traits: ["HardwareSHA"])),
        .unsafeFlags(
            ["-Xcc", "-Xclang", "-Xcc", "-target-feature", "-Xcc", "-Xclang", "-Xcc", "+aes"],
            .when(traits: ["HardwareSHA"])
        ),
    ]
#else
let hardwareAESSettings: [SwiftSetting] = []
#endif

/// TackCipherAVX512: ChaCha20 sixteen blocks at a time, the only code compiled with the
/// `avx512f` target feature (which implies AVX2): in a module of its own because Swift
/// has no per-function target attribute and the feature on TackCipher would let the
/// optimiser use AVX-512 anywhere in it. TackCipher calls it only after a run-time
/// CPU check (Sources/TackCipher/ChaCha20.swift). The same switches as the hardware
/// AES (root or path packages, x86-64 build hosts, the `HardwareSHA` trait); elsewhere
/// the module is empty and TackCipher's four-block SSE2/NEON path runs.
#if arch(x86_64)
let chaChaAVX512Settings: [SwiftSetting] =
    isDependencyCheckout
    ? []
    : [
        .define("TACK_CHACHA_AVX512", .when(traits: ["HardwareSHA"])),
        .unsafeFlags(
            ["-Xcc", "-Xclang", "-Xcc", "-target-feature", "-Xcc", "-Xclang", "-Xcc", "+avx512f"],
            .when(traits: ["HardwareSHA"])
        ),
    ]
#else
let chaChaAVX512Settings: [SwiftSetting] = []
#endif

/// Test targets compile without optimisation in release builds too: the code they
/// exercise (the library modules) is optimised, their own code is assertions and
/// fixtures. Measured (2026-12-02, `-stats-output-dir`): with -O the test targets
/// took about 400 of the release build's 680 CPU-seconds, without it 220, and the
/// release test run went from 16 s to 18-21 s.
let testSettings: [SwiftSetting] =
    strictSettings + (isDependencyCheckout ? [] : [.unsafeFlags(["-Onone"], .when(configuration: .release))])

let package = Package(
    name: "Tack",
    products: [
        .library(name: "TackDER", targets: ["TackDER"]),
        .library(name: "TackDigest", targets: ["TackDigest"]),
        .library(name: "TackCipher", targets: ["TackCipher"]),
        .library(name: "TackX509", targets: ["TackX509"]),
        .library(name: "TackSignature", targets: ["TackSignature"]),
        .library(name: "TackFormats", targets: ["TackFormats"]),
        .library(name: "TackTrust", targets: ["TackTrust"]),
        .library(name: "TackPKCS12", targets: ["TackPKCS12"]),
        .library(name: "TackTLS", targets: ["TackTLS"]),
        .executable(name: "tack", targets: ["tack"]),
        .executable(name: "tack-bench", targets: ["tack-bench"]),
    ],
    traits: Set(optionalFamilies.map { .trait(name: $0.name, description: $0.description, enabledTraits: Set($0.enables)) }).union([
        .trait(
            name: "HardwareSHA",
            description: "SHA-256 on the x86-64 SHA extensions when the CPU has them (checked at run time), or on the ARMv8 SHA-256 instructions (Apple arm64, or -D TACK_ASSUME_ARMV8_SHA2); likewise AES on AES-NI or the ARMv8 AES instructions (-D TACK_ASSUME_ARMV8_AES)."
        ),
        .default(enabledTraits: Set(["HardwareSHA"] + optionalFamilies.map(\.name))),
    ]),
    targets: [
        // MARK: Core (standard library only, Embedded-clean)
        .target(name: "TackDER", swiftSettings: strictSettings),
        .target(name: "TackDigest", dependencies: ["TackDER"], swiftSettings: strictSettings + hardwareSHASettings),
        // Block ciphers (AES, and the legacy DES-EDE3 and RC2 for reading old
        // files), for PKCS #12 and PBES2. Next to TackDigest in the line, and it
        // depends on nothing but its AVX-512 ChaCha20 below: ciphers take and give
        // bytes, no DER or hash.
        .target(name: "TackCipher", dependencies: ["TackCipherAVX512"], swiftSettings: strictSettings + hardwareAESSettings),
        // ChaCha20 on AVX-512, reached from TackCipher behind its CPU check (see
        // chaChaAVX512Settings); an empty module where those settings are off.
        .target(name: "TackCipherAVX512", swiftSettings: strictSettings + chaChaAVX512Settings),
        .target(name: "TackX509", dependencies: ["TackDER", "TackDigest"], swiftSettings: strictSettings),
        .target(name: "TackSignature", dependencies: ["TackDER", "TackDigest", "TackX509"], swiftSettings: strictSettings),
        // The document readers that pin policies are written in: JSON (RFC 8259), XML
        // and binary (`bplist00`) property lists, and the one location type their
        // errors and keys carry. Apart from TackTrust, which keeps the policy model
        // and its loading, because they are general readers of untrusted documents
        // (`tack lint` reads Info.plist with them too) and were a third of it. Just
        // above TackDER in the line: it needs only TackDER's Base64 (<data>) and
        // DERTime (<date>).
        .target(name: "TackFormats", dependencies: ["TackDER"], swiftSettings: strictSettings),
        .target(
            name: "TackTrust",
            dependencies: ["TackDER", "TackDigest", "TackX509", "TackSignature", "TackFormats"],
            swiftSettings: strictSettings
        ),
        // PKCS #12 (RFC 7292): client identities, the seed's SecPKCS12Import. Above
        // TackTrust in the line, not beside it: an identity's chain is built with
        // TackTrust's path builder over the file's certificates (IssuerChain, no
        // anchor needed), and its keys are TackSignature's checked PrivateKey. Its BER
        // reader is its own: only the PKCS #12 and CMS layers accept BER; what
        // they carry stays strict DER. The primitives it needs (SHA-1, the PKCS #12
        // KDF, PBKDF2: TackDigest; the ciphers: TackCipher) are named in
        // PKCS12Cryptography.standard.
        .target(
            name: "TackPKCS12",
            dependencies: ["TackDER", "TackDigest", "TackCipher", "TackX509", "TackSignature", "TackTrust"],
            swiftSettings: strictSettings
        ),
        // A sans-I/O TLS 1.3 / 1.2 client (issue 34): last in the core line, the
        // trust decision is TackTrust's and a client identity will be TackPKCS12's.
        .target(
            name: "TackTLS",
            dependencies: ["TackDER", "TackDigest", "TackCipher", "TackX509", "TackSignature", "TackTrust", "TackPKCS12"],
            swiftSettings: strictSettings
        ),

        // MARK: Tools (may use Foundation)
        .executableTarget(
            name: "tack",
            dependencies: ["TackDER", "TackDigest", "TackX509", "TackSignature", "TackFormats", "TackTrust", "TackPKCS12", "TackTLS", "TackVectorSuites"],
            // Documentation/tack.1: the manual page, `tack help --man` committed (a test keeps them equal).
            exclude: ["Documentation"],
            swiftSettings: strictSettings
        ),
        // The third-party vector suites' one reading each, shared by `tack vectors` and
        // the test suites: the x509-limbo case-to-TrustEvaluator mapping and the
        // Wycheproof runner (signature, AES-CBC, HMAC, PBKDF2 and PBES2 schemas)
        // (Foundation allowed; not a product, not Embedded).
        .target(
            name: "TackVectorSuites",
            dependencies: ["TackDER", "TackDigest", "TackCipher", "TackX509", "TackSignature", "TackFormats", "TackTrust"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "tack-bench",
            dependencies: ["TackDER", "TackDigest", "TackCipher", "TackX509", "TackSignature", "TackFormats", "TackTrust", "TackPKCS12", "TackTLS", "TackTestSupport"],
            path: "Benchmarks/tack-bench",
            swiftSettings: strictSettings
        ),

        // MARK: Checks (command plugins, sources under scripts/Plugins)
        // `swift package embedded-check`, `swift package baremetal-check` and
        // `swift package fuzz` run scripts/embedded-check.sh, baremetal-check.sh and
        // fuzz.sh (the builds SwiftPM cannot express: other targets, sanitizers) with
        // the core modules and their order taken from this package graph: the targets
        // of the library products above, each after its dependencies. CI
        // (scripts/check.sh) calls the same commands.
        .plugin(
            name: "EmbeddedCheck",
            capability: .command(
                intent: .custom(verb: "embedded-check", description: "Compile the core modules as Embedded Swift and run the known-answer program under QEMU")
            ),
            path: "scripts/Plugins/EmbeddedCheck"
        ),
        .plugin(
            name: "BaremetalCheck",
            capability: .command(
                intent: .custom(verb: "baremetal-check", description: "Link the Cortex-M4 images (no C library) and run them under qemu-system-arm")
            ),
            path: "scripts/Plugins/BaremetalCheck"
        ),
        .plugin(
            name: "Fuzz",
            capability: .command(
                intent: .custom(verb: "fuzz", description: "Build the libFuzzer harnesses of Tests/Fuzz and run them over their seeds"),
                permissions: [.writeToPackageDirectory(reason: "the working corpora, crash artifacts and objects go to .fuzz/")]
            ),
            path: "scripts/Plugins/Fuzz"
        ),

        // MARK: Test support (Foundation allowed; not a product, not Embedded)
        .target(
            name: "TackTestSupport",
            dependencies: ["TackDER", "TackFormats", "TackSignature", "TackVectorSuites"],
            swiftSettings: strictSettings
        ),

        // MARK: Tests (Swift Testing)
        .testTarget(name: "TackDERTests", dependencies: ["TackDER", "TackTestSupport"], swiftSettings: testSettings),
        .testTarget(name: "TackFormatsTests", dependencies: ["TackFormats", "TackTestSupport"], swiftSettings: testSettings),
        .testTarget(
            name: "TackDigestTests",
            dependencies: ["TackDigest", "TackTestSupport"],
            // So the tests know whether the hardware path was compiled in.
            swiftSettings: testSettings + [.define("TACK_HARDWARE_SHA", .when(traits: ["HardwareSHA"]))]
        ),
        .testTarget(
            name: "TackCipherTests",
            dependencies: ["TackDigest", "TackCipher", "TackVectorSuites", "TackTestSupport"],
            // So the tests know whether the hardware path was compiled in.
            swiftSettings: testSettings + [.define("TACK_HARDWARE_AES", .when(traits: ["HardwareSHA"]))]
        ),
        .testTarget(
            name: "TackX509Tests",
            dependencies: ["TackDER", "TackDigest", "TackX509", "TackTestSupport"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "TackSignatureTests",
            dependencies: ["TackDER", "TackDigest", "TackX509", "TackSignature", "TackVectorSuites", "TackTestSupport"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "TackTrustTests",
            dependencies: ["TackDER", "TackDigest", "TackX509", "TackSignature", "TackFormats", "TackTrust", "TackVectorSuites", "TackTestSupport"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "TackPKCS12Tests",
            dependencies: ["TackDER", "TackDigest", "TackX509", "TackSignature", "TackTrust", "TackPKCS12", "TackTestSupport"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "TackTLSTests",
            dependencies: ["TackDER", "TackDigest", "TackCipher", "TackX509", "TackSignature", "TackTrust", "TackTLS", "TackTestSupport"],
            swiftSettings: testSettings
        ),
        // Every command in-process, through Tack.run (exit statuses, codes, JSON
        // checked against Vectors/cli-schemas); scripts/cli-e2e.py keeps only what a real
        // process shows (the binary's exit statuses and standard streams).
        .testTarget(name: "TackCLITests", dependencies: ["tack", "TackFormats", "TackSignature", "TackTLS", "TackTestSupport"], swiftSettings: testSettings),
    ],
    swiftLanguageModes: [.v6]
)
