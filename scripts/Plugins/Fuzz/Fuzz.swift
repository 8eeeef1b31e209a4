import PackagePlugin

/// `swift package fuzz TARGET|all [SECONDS]`: scripts/fuzz.sh (the libFuzzer
/// harnesses of Tests/Fuzz over their seeds).
@main
struct Fuzz: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try runCheckScript("fuzz.sh", context: context, arguments: arguments)
    }
}
