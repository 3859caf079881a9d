/// The machine-readable wire contract, as `schema/` holds it at build time: the JSON Schemas of commands,
/// replies, events, the terminal link's JSON parts and journal export rows, and the AsyncAPI document that
/// ties them to the sockets. Embedded in the binary (SwiftPM's `embedInCode`; the files here are links to
/// `schema/`), so `vivabridge schema` prints the contract of the version that runs, with no file beside it.
public enum Contract {
    /// The wire contract's version (docs/PROTOCOL.md, "v1.3"): the schemas' `$id`s and the AsyncAPI
    /// document's `info.version` name it.
    public static let version = "1.3"

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
        schema("command", "any command the bridge takes (oneOf by action)", PackageResources.command_schema_json),
        schema("reply", "any reply (by outcome; error codes, results per action)", PackageResources.reply_schema_json),
        schema("event", "any event body, on the XPUB socket and on /events", PackageResources.event_schema_json),
        schema("relay", "the terminal link's JSON parts (both hellos)", PackageResources.relay_schema_json),
        schema("export", "a row of journal export --format jsonl", PackageResources.export_schema_json),
        Document(
            name: "asyncapi", fileName: "vivabridge.asyncapi.yaml",
            summary: "AsyncAPI 3.0: servers, channels, operations, messages",
            text: text(PackageResources.vivabridge_asyncapi_yaml)),
    ]

    /// The JSON Schema `NAME.schema.json`.
    private static func schema(_ name: String, _ summary: String, _ bytes: [UInt8]) -> Document {
        Document(name: name, fileName: "\(name).schema.json", summary: summary, text: text(bytes))
    }

    /// The document called `name` (its short name or its file name), if there is one.
    public static func document(named name: String) -> Document? {
        documents.first { $0.name == name || $0.fileName == name }
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
