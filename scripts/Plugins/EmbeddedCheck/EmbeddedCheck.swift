import PackagePlugin

/// `swift package embedded-check [OPTIONS] [TARGET...]`: scripts/embedded-check.sh
/// (the core modules as Embedded Swift, the known-answer program under QEMU).
@main
struct EmbeddedCheck: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try runCheckScript("embedded-check.sh", context: context, arguments: arguments)
    }
}
