// The one body of Tack's command plugins (`swift package embedded-check`,
// `baremetal-check`, `fuzz`): each runs its script under scripts/ with the
// package's core modules, in dependency order, read from the package graph
// SwiftPM hands the plugin. Package.swift is so the one description of the
// modules; the scripts (through scripts/lib/common.sh) read it from
// TACK_MODULE_GRAPH. Each plugin folder links this file (a symbolic link), so it
// is written once.

import Foundation
import PackagePlugin

/// Runs `scripts/NAME` with `arguments`, the core module graph in the
/// environment, and exits with the script's status.
func runCheckScript(_ name: String, context: PluginContext, arguments: [String]) throws -> Never {
    let script = context.package.directoryURL.appending(path: "scripts").appending(path: name)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["bash", script.path] + arguments
    process.currentDirectoryURL = context.package.directoryURL
    var environment = ProcessInfo.processInfo.environment
    environment["TACK_MODULE_GRAPH"] = moduleGraph(context.package)
    process.environment = environment
    try process.run()
    process.waitUntilExit()
    exit(process.terminationStatus)
}

/// The core modules, the targets of the package's library products, lowest
/// first (each after the modules it depends on, otherwise in the order
/// Package.swift lists them), as `Module:Dependency,Dependency` words.
func moduleGraph(_ package: Package) -> String {
    var core: [String] = []
    var dependencies: [String: [String]] = [:]
    for target in package.targets {
        dependencies[target.name] = target.dependencies.compactMap { dependency in
            if case .target(let other) = dependency { return other.name }
            return nil
        }
    }
    for product in package.products where product is LibraryProduct {
        for target in product.targets where !core.contains(target.name) { core.append(target.name) }
    }
    var ordered: [String] = []
    func visit(_ name: String) {
        guard core.contains(name), !ordered.contains(name) else { return }
        for dependency in dependencies[name] ?? [] { visit(dependency) }
        ordered.append(name)
    }
    for name in package.targets.map(\.name) { visit(name) }
    return ordered.map { name in
        name + ":" + (dependencies[name] ?? []).filter { core.contains($0) }.joined(separator: ",")
    }.joined(separator: " ")
}
