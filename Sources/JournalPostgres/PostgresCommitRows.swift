import BridgeCore
import BridgeJournal
import InterApp
import PostgresNIO

/// What one commit writes, as the JSON arrays ``PostgresJournalSQL/commit`` takes: one array of values per
/// row (the row type's `values`, in the order of its columns), rows in the order the entries came.
struct PostgresCommitRows {
    private var commands: [JSONValue] = []
    private var outcomes: [JSONValue] = []
    private var callbacks: [JSONValue] = []
    /// Each lane's batch as the last entry left it (nil: closed), in the order lanes first appear.
    private var batches: [(lane: String, batch: OpenBatch?)] = []

    package init(_ turns: [[JournalEntry]]) {
        for entries in turns {
            for entry in entries { add(entry) }
        }
    }

    var isEmpty: Bool { commands.isEmpty && outcomes.isEmpty && callbacks.isEmpty && batches.isEmpty }

    private mutating func add(_ entry: JournalEntry) {
        switch entry {
        case .insert(let command):
            commands.append(Self.array(CommandLogRow(command).values))
        case .final(let command, let summary, let late, let at):
            // The bridge's own look-ups are never journaled: their outcome is not either.
            guard let row = OutcomeLogRow(command, summary: summary, late: late, atMs: at) else { return }
            outcomes.append(Self.array(row.values))
        case .callback(let lane, let at, let fields, let matched, let commandSeq, let disposition, let relay):
            let row = CallbackRow(
                lane: lane, receivedMs: at, fields: fields, matchedId: matched, commandSeq: commandSeq,
                disposition: disposition, relay: relay)
            callbacks.append(Self.array(row.values))
        case .batch(let lane, let batch):
            // One statement may change a row once: only the lane's last batch entry of the commit counts.
            if let index = batches.firstIndex(where: { $0.lane == lane }) {
                batches[index].batch = batch
            } else {
                batches.append((lane, batch))
            }
        }
    }

    /// The statement's five values: the commands, outcomes, callbacks, lanes whose batch closed, batches opened.
    var binds: PostgresBindings {
        let closed = batches.filter { $0.batch == nil }.map { Self.text($0.lane) }
        let opened = batches.compactMap { lane, batch in
            batch.map { Self.array(BatchRow(lane: lane, batch: $0).values) }
        }
        var binds = PostgresBindings(capacity: 5)
        for rows in [commands, outcomes, callbacks, closed, opened] {
            binds.append(JSONValue.array(rows).serializedString)
        }
        return binds
    }

    /// A row's values as a JSON array.
    private static func array(_ values: [ColumnValue]) -> JSONValue {
        .array(
            values.map { value in
                switch value {
                case .integer(let value): integer(value)
                case .flag(let value): integer(Int64(value ? 1 : 0))
                case .text(let value): text(value)
                }
            })
    }

    /// Text as SQLite's binder stores it: up to a NUL character (PostgreSQL's text holds none).
    private static func text(_ value: String?) -> JSONValue {
        guard let value else { return .null }
        guard let end = value.firstIndex(of: "\0") else { return .string(value) }
        return .string(String(value[..<end]))
    }

    private static func integer(_ value: Int64?) -> JSONValue {
        value.map { .number(JSONNumber(Int($0))) } ?? .null
    }
}
