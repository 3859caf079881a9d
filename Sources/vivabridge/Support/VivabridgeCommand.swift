import ArgumentParser
import Bridge
import ContractSchema

/// The `vivabridge` command line: the bridge, its simulator and the tools around them (started by
/// ``VivabridgeMain``).
struct VivabridgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vivabridge",
        abstract: "A ZeroMQ bridge between store checkout software and Viva Terminal apps.",
        version: "vivabridge \(BridgeVersion.current) (wire contract \(Contract.version))",
        subcommands: [
            RunCommand.self, CheckCommand.self, JournalCommand.self, KeygenCommand.self,
            SendCommand.self, WatchCommand.self, DemoCommand.self,
            SimulateCommand.self,
            TranslateCommand.self, DecodeCommand.self, SchemaCommand.self,
        ]
    )
}
