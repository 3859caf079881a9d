/// The machine-readable wire contract, as `schema/` holds it at build time: the JSON Schemas of commands,
/// replies, events, the terminal link's JSON parts and journal export rows, and the AsyncAPI document that
/// ties them to the sockets. Embedded in the binary (SwiftPM's `embedInCode`; the files here are links to
/// `schema/`), so `vivabridge schema` prints the contract of the version that runs, with no file beside it.
public enum Contract {
    /// The wire contract's version (docs/PROTOCOL.md, "v1.1"): the schemas' `$id`s and the AsyncAPI
    /// document's `info.version` name it.
    public static let version = "1.1"

    /// One document of the contract.
    public struct Document: Sendable {
        /// The short name `vivabridge schema NAME` takes: `command`, `reply`, `event`, `relay`, `export`, `asyncapi`.
        public let name: String
        /// The file name under `schema/`.
        public let fileName: String
        /// What it describes, for the list.
        public let summary: String
        /// The file's text, as it was at build time.
        public let text: String
    }

    /// Every document, the JSON Schemas first, then the AsyncAPI document.
    public static let documents: [Document] = [
        Document(
            name: "command", fileName: "command.schema.json", summary: "any command the bridge takes (oneOf by action)",
            text: text(PackageResources.command_schema_json)),
        Document(
            name: "reply", fileName: "reply.schema.json",
            summary: "any reply (by outcome; error codes, results per action)",
            text: text(PackageResources.reply_schema_json)),
        Document(
            name: "event", fileName: "event.schema.json", summary: "any event body, on the PUB socket and on /events",
            text: text(PackageResources.event_schema_json)),
        Document(
            name: "relay", fileName: "relay.schema.json", summary: "the terminal link's JSON parts (both hellos)",
            text: text(PackageResources.relay_schema_json)),
        Document(
            name: "export", fileName: "export.schema.json", summary: "a row of journal export --format jsonl",
            text: text(PackageResources.export_schema_json)),
        Document(
            name: "asyncapi", fileName: "vivabridge.asyncapi.yaml",
            summary: "AsyncAPI 3.0: servers, channels, operations, messages",
            text: text(PackageResources.vivabridge_asyncapi_yaml)),
    ]

    /// The document called `name` (its short name or its file name), if there is one.
    public static func document(named name: String) -> Document? {
        documents.first { $0.name == name || $0.fileName == name }
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
