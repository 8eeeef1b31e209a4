import PackagePlugin

/// `swift package baremetal-check [OPTIONS]`: scripts/baremetal-check.sh (the
/// Cortex-M4 images under qemu-system-arm, their flash and RAM figures).
@main
struct BaremetalCheck: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try runCheckScript("baremetal-check.sh", context: context, arguments: arguments)
    }
}
