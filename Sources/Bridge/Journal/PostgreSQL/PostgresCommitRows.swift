import InterApp
import PostgresNIO

/// What one commit writes, as the JSON arrays ``PostgresJournalSQL/commit`` takes: one array of values per
/// row, in the order of the log's columns there, rows in the order the entries came.
struct PostgresCommitRows {
    private var commands: [JSONValue] = []
    private var outcomes: [JSONValue] = []
    private var callbacks: [JSONValue] = []
    /// Each lane's batch as the last entry left it (nil: closed), in the order lanes first appear.
    private var batches: [(lane: String, batch: OpenBatch?)] = []

    init(_ turns: [[JournalEntry]]) {
        for entries in turns {
            for entry in entries { add(entry) }
        }
    }

    var isEmpty: Bool { commands.isEmpty && outcomes.isEmpty && callbacks.isEmpty && batches.isEmpty }

    private mutating func add(_ entry: JournalEntry) {
        switch entry {
        case .insert(let row):
            commands.append(
                .array([
                    Self.integer(row.seq), Self.text(row.id), Self.text(row.lane), Self.text(row.action.rawValue),
                    Self.text(row.fingerprint), Self.text(row.clientTransactionId), Self.integer(row.deadlineMs),
                    Self.integer(row.createdMs), Self.text(row.client),
                ]))
        case .final(let row, let summary, let late, let at):
            // The bridge's own look-ups are never journaled: their outcome is not either.
            guard let seq = row.seq else { return }
            let values: [JSONValue] = [
                Self.integer(seq), Self.text(row.lane), Self.text(row.action.rawValue),
                Self.text(row.clientTransactionId),
                Self.text(row.outcome?.rawValue), Self.text(row.reply ?? ""), Self.integer(late ? 1 : 0),
                Self.integer(at),
                Self.integer(summary.amount), Self.integer(summary.tip), Self.text(summary.errorCode),
                Self.text(summary.failureReason), Self.text(summary.referenceNumber), Self.text(summary.orderCode),
                Self.text(summary.card), Self.text(summary.batch), Self.text(summary.resolvedAt),
                Self.text(summary.resolvedBy), Self.text(summary.resolvedNote),
            ]
            outcomes.append(.array(values))
        case .callback(let lane, let at, let fields, let matched, let commandSeq, let disposition):
            callbacks.append(
                .array([
                    Self.text(lane), Self.integer(at), Self.text(fields), Self.text(matched), Self.integer(commandSeq),
                    Self.text(disposition.rawValue),
                ]))
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
            batch.map {
                JSONValue.array([
                    Self.text(lane), Self.text($0.name), Self.text($0.id), Self.integer($0.openedAtMs),
                    Self.integer($0.automatic ? 1 : 0),
                ])
            }
        }
        var binds = PostgresBindings(capacity: 5)
        for rows in [commands, outcomes, callbacks, closed, opened] {
            binds.append(JSONValue.array(rows).serializedString)
        }
        return binds
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

    private static func integer(_ value: Int?) -> JSONValue {
        value.map { .number(JSONNumber($0)) } ?? .null
    }
}
