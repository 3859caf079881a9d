import ContractSchema
import Foundation
import InterApp
import Testing

/// The machine-readable contract (schema/) against the code: `vivabridge schema` prints the files as they are,
/// and the action table, the outcomes, the rejection codes and the topics are the ones the schemas name.
/// scripts/check-contract checks the schemas themselves and every message the tests and the tour received.
@Suite("The contract's schemas: embedded, printed, and the same as the code")
struct ContractSchemaTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schema")

    static func file(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    static func schema(_ name: String) throws -> JSONObject {
        try #require(try JSONValue.parse(Array(file("\(name).schema.json").utf8)).objectValue)
    }

    @Test("the binary embeds every file of schema/ as it is now, and `schema NAME` prints it")
    func embeddedAndPrinted() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        #expect(files == Contract.documents.map(\.fileName).sorted())
        for document in Contract.documents {
            #expect(document.text == (try Self.file(document.fileName)), "\(document.fileName) is not what was built")
        }
        let child = try ChildProcess(["schema", "reply"])
        #expect(child.waitForExit(timeout: 20) == 0)
        #expect(child.output + "\n" == (try Self.file("reply.schema.json")))  // output drops the last line end
    }

    @Test("`schema` lists the documents; an unknown name is refused with the names (exit 64)")
    func listAndRefuse() throws {
        let list = try ChildProcess(["schema"])
        #expect(list.waitForExit(timeout: 20) == 0)
        for document in Contract.documents { #expect(list.output.contains(document.fileName)) }
        let refused = try ChildProcess(["schema", "replies"])
        #expect(refused.waitForExit(timeout: 20) == 64)
        #expect(refused.errorOutput.contains("no schema called replies"))
        #expect(refused.errorOutput.contains("command, reply, event, relay, export, asyncapi"))
    }

    @Test("`schema --out DIR` writes every document under its file name")
    func out() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-schema-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try ChildProcess(["schema", "--out", folder.path])
        #expect(child.waitForExit(timeout: 20) == 0)
        for document in Contract.documents {
            let written = try String(contentsOf: folder.appendingPathComponent(document.fileName), encoding: .utf8)
            #expect(written == document.text)
        }
    }

    @Test("--version names the contract version, which every schema's $id and the AsyncAPI document carry")
    func version() throws {
        let child = try ChildProcess(["--version"])
        #expect(child.waitForExit(timeout: 20) == 0)
        #expect(child.output.contains("wire contract \(Contract.version)"))
        for name in ["command", "reply", "event", "relay", "export"] {
            let id = try #require(try Self.schema(name)["$id"]?.stringValue)
            #expect(id.hasSuffix("/\(Contract.version)/\(name).schema.json"), "\(id)")
        }
        #expect(try Self.file("vivabridge.asyncapi.yaml").contains("\n  version: \"\(Contract.version)\"\n"))
    }

    @Test("command.schema.json has one member per action of the action table, with its parameters and rules")
    func actionTable() throws {
        let schema = try Self.schema("command")
        let defs = try #require(schema["$defs"]?.objectValue)
        let listed = try #require(schema["properties"]?["action"]?["enum"]?.arrayValue).compactMap(\.stringValue)
        #expect(listed == TerminalAction.allCases.map(\.rawValue) + ["status", "lanes", "ping", "resolve"])
        for action in TerminalAction.allCases {
            let entry = try #require(defs[action.rawValue]?.objectValue, "no $defs/\(action.rawValue)")
            let properties = try #require(entry["properties"]?.objectValue)
            #expect(properties.keys == ["id", "lane", "action", "timeoutMs"] + action.spec.parameters.map(\.name))
            let required = try #require(entry["required"]?.arrayValue).compactMap(\.stringValue)
            #expect(required == ["id", "lane", "action"] + action.spec.parameters.filter(\.isRequired).map(\.name))
            #expect(entry["additionalProperties"]?.boolValue == false)
            for parameter in action.spec.parameters {
                let property = try #require(properties[parameter.name]?.objectValue)
                switch parameter.kind {
                case .integer(let range):
                    #expect(property["type"]?.stringValue == "integer", "\(action).\(parameter.name)")
                    #expect(property["minimum"]?.intValue == range.lowerBound, "\(action).\(parameter.name)")
                    #expect(property["maximum"]?.intValue == range.upperBound, "\(action).\(parameter.name)")
                case .flag:
                    #expect(property["type"]?.stringValue == "boolean", "\(action).\(parameter.name)")
                case .text(let maxLength):
                    #expect(property["maxLength"]?.intValue == maxLength, "\(action).\(parameter.name)")
                    #expect(property["minLength"]?.intValue == 1, "\(action).\(parameter.name)")
                case .digits(let maxLength):
                    #expect(
                        property["pattern"]?.stringValue == "^[0-9]{1,\(maxLength)}$", "\(action).\(parameter.name)")
                case .fixedDigits(let count):
                    #expect(property["pattern"]?.stringValue?.contains("[0-9]{\(count)}$") == true)
                case .oneOf(let values):
                    #expect(property["enum"]?.arrayValue?.compactMap(\.stringValue) == values)
                case .date, .uuid:
                    #expect(property["pattern"] != nil, "\(action).\(parameter.name)")
                }
            }
        }
    }

    @Test("reply.schema.json names every outcome, failure reason and rejection code, and no other")
    func replyEnums() throws {
        let fields = try #require(try Self.schema("reply")["$defs"]?["replyFields"]?["properties"]?.objectValue)
        func values(_ value: JSONValue?) -> [String] { value?.arrayValue?.compactMap(\.stringValue) ?? [] }
        #expect(values(fields["outcome"]?["enum"]) == Outcome.allCases.map(\.rawValue))
        #expect(values(fields["reason"]?["enum"]) == FailureReason.allCases.map(\.rawValue))
        #expect(
            Set(values(fields["error"]?["properties"]?["code"]?["enum"])) == Set(RejectionCode.allCases.map(\.rawValue))
        )
    }

    @Test("every topic the bridge publishes is the topic of exactly one kind of event.schema.json")
    func topics() throws {
        let defs = try #require(try Self.schema("event")["$defs"]?.objectValue)
        var patterns: [(kind: String, pattern: String)] = []
        for (kind, value) in defs.pairs {
            let members = value["oneOf"]?.arrayValue ?? [value]
            for member in members {
                if let pattern = member["properties"]?["topic"]?["pattern"]?.stringValue {
                    patterns.append((kind, pattern))
                }
            }
        }
        var topics = Topic.CommandEvent.allCases.map { Topic.command(lane: "lane-1", action: "sale", $0) }
        topics += Topic.LaneEvent.allCases.map { Topic.lane("lane-1", $0) }
        topics += Topic.BatchEvent.allCases.map { Topic.batch(lane: "lane-1", $0) }
        topics += Topic.JournalEvent.allCases.map { Topic.journal($0) } + [Topic.heartbeat, Topic.roleActive]
        for topic in topics {
            let text = topic.description
            let kinds = Set(
                patterns.filter { text.range(of: $0.pattern, options: .regularExpression) != nil }.map(\.kind))
            #expect(kinds.count == 1, "\(text) is the topic of \(kinds.sorted())")
        }
    }
}
