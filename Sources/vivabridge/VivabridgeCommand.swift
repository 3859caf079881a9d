import ArgumentParser

/// The `vivabridge` command line: the bridge, its simulator and the tools around them.
struct VivabridgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vivabridge",
        abstract: "A ZeroMQ bridge between store checkout software and Viva Terminal apps.",
        subcommands: [SimulateCommand.self]
    )
}
