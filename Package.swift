// swift-tools-version: 6.1
//
// Tack: a pure-Swift DER / X.509 / signature / trust / pinning engine.
//
// The package has no dependencies, ever. The core modules (TackDER through
// TackTrust) import only the Swift standard library, so that they also build
// as Embedded Swift (see scripts/embedded-check.sh).

import PackageDescription

/// Settings shared by every target: Swift 6 language mode is set package-wide
/// below; these upcoming features keep the code honest about existentials.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Tack",
    products: [
        .library(name: "TackDER", targets: ["TackDER"]),
        .library(name: "TackSHA2", targets: ["TackSHA2"]),
        .library(name: "TackX509", targets: ["TackX509"]),
        .library(name: "TackSignature", targets: ["TackSignature"]),
        .library(name: "TackTrust", targets: ["TackTrust"]),
        .executable(name: "tack", targets: ["tack"]),
        .executable(name: "tack-bench", targets: ["tack-bench"]),
    ],
    targets: [
        // MARK: Core (standard library only, Embedded-clean)
        .target(name: "TackDER", swiftSettings: strictSettings),
        .target(name: "TackSHA2", swiftSettings: strictSettings),
        .target(name: "TackX509", dependencies: ["TackDER", "TackSHA2"], swiftSettings: strictSettings),
        .target(name: "TackSignature", dependencies: ["TackDER", "TackSHA2", "TackX509"], swiftSettings: strictSettings),
        .target(
            name: "TackTrust",
            dependencies: ["TackDER", "TackSHA2", "TackX509", "TackSignature"],
            swiftSettings: strictSettings
        ),

        // MARK: Tools (may use Foundation)
        .executableTarget(
            name: "tack",
            dependencies: ["TackDER", "TackSHA2", "TackX509", "TackSignature", "TackTrust"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "tack-bench",
            dependencies: ["TackDER", "TackSHA2", "TackX509", "TackSignature", "TackTrust"],
            path: "Benchmarks/tack-bench",
            swiftSettings: strictSettings
        ),

        // MARK: Tests (Swift Testing)
        .testTarget(name: "TackDERTests", dependencies: ["TackDER"], swiftSettings: strictSettings),
        .testTarget(name: "TackSHA2Tests", dependencies: ["TackSHA2"], swiftSettings: strictSettings),
        .testTarget(name: "TackX509Tests", dependencies: ["TackDER", "TackSHA2", "TackX509"], swiftSettings: strictSettings),
        .testTarget(
            name: "TackSignatureTests",
            dependencies: ["TackDER", "TackSHA2", "TackX509", "TackSignature"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TackTrustTests",
            dependencies: ["TackDER", "TackSHA2", "TackX509", "TackSignature", "TackTrust"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
