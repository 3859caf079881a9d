import ArgumentParser
import ContractSchema
import Foundation

/// `vivabridge schema [NAME]`: the machine-readable wire contract of this very binary (schema/ as it was at
/// build time): the JSON Schemas and the AsyncAPI document.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the wire contract's JSON Schemas or its AsyncAPI document, as this version has them.",
        discussion: """
            Without NAME it lists the documents. NAME is command, reply, event, relay, export or asyncapi (or \
            the file name, command.schema.json). --all prints every document, each after a line \
            "== FILE"; --out DIR writes them into DIR under their file names, so that relative $refs \
            (the AsyncAPI document's ./reply.schema.json) resolve there. docs/PROTOCOL.md keeps the rules.
            """
    )

    @Argument(help: "The document to print: command, reply, event, relay, export or asyncapi.")
    var name: String?

    @Flag(name: .long, help: "Print every document.")
    var all = false

    @Option(name: .long, help: "Write every document into this folder (made if missing) instead of printing.")
    var out: String?

    func validate() throws {
        if let name, Contract.document(named: name) == nil {
            throw ValidationError(
                "no schema called \(name); the names are: \(Contract.documents.map(\.name).joined(separator: ", "))")
        }
        if name != nil && (all || out != nil) { throw ValidationError("give NAME, --all or --out, not several") }
    }

    func run() throws {
        if let out {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            for document in Contract.documents {
                let path = (out as NSString).appendingPathComponent(document.fileName)
                try Data(document.text.utf8).write(to: URL(fileURLWithPath: path))
                print("wrote \(path)")
            }
            return
        }
        if all {
            for document in Contract.documents {
                print("== \(document.fileName)")
                print(document.text, terminator: document.text.hasSuffix("\n") ? "" : "\n")
            }
            return
        }
        guard let name, let document = Contract.document(named: name) else {
            print("The wire contract, version \(Contract.version) (vivabridge schema NAME prints one):")
            for document in Contract.documents {
                print(
                    "  \(document.name.padding(toLength: 9, withPad: " ", startingAt: 0))"
                        + "\(document.fileName.padding(toLength: 26, withPad: " ", startingAt: 0))\(document.summary)")
            }
            return
        }
        print(document.text, terminator: document.text.hasSuffix("\n") ? "" : "\n")
    }
}
