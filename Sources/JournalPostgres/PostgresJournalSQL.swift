import BridgeCore
import BridgeJournal

/// The journal's log schema and statements in PostgreSQL's dialect: the tables, columns, partial indexes
/// and `commands` view of SQLite's (``JournalSQL/journalLog``), and SQLite's look-up statements with their
/// `?` placeholders numbered `$1`, `$2`…
package enum PostgresJournalSQL {
    /// The reply columns with their types, in ``JournalSQL/replyColumnNames``'s order.
    static let replyColumns = typed(ReplySummary.columns)

    /// Migration `v1.2-journal-log` on PostgreSQL: the log as SQLite's, one statement each. `command_log.seq`
    /// is the sequence the bridge gives (``JournalStore/admit(id:)``); `outcome_log` and `callbacks` number
    /// their rows themselves, in the order a commit appends them.
    static let journalLog: [String] = [
        """
        CREATE TABLE command_log (
            seq BIGINT PRIMARY KEY,
            id TEXT NOT NULL,
            lane TEXT,
            action TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            client_transaction_id TEXT,
            deadline_ms BIGINT,
            created_ms BIGINT NOT NULL,
            client TEXT
        )
        """,
        """
        CREATE TABLE outcome_log (
            seq BIGSERIAL PRIMARY KEY,
            command_seq BIGINT NOT NULL,
            lane TEXT,
            action TEXT NOT NULL,
            client_transaction_id TEXT,
            outcome TEXT NOT NULL,
            reply TEXT NOT NULL,
            late INTEGER NOT NULL DEFAULT 0,
            at_ms BIGINT NOT NULL,
            \(replyColumns.map { "\($0.name) \($0.type)" }.joined(separator: ",\n    "))
        )
        """,
        """
        CREATE TABLE callbacks (
            seq BIGSERIAL PRIMARY KEY,
            lane TEXT NOT NULL,
            received_ms BIGINT NOT NULL,
            fields TEXT NOT NULL,
            matched_id TEXT,
            disposition TEXT NOT NULL,
            command_seq BIGINT
        )
        """,
        """
        CREATE TABLE batches (
            lane TEXT PRIMARY KEY NOT NULL,
            name TEXT,
            batch_id TEXT,
            opened_ms BIGINT NOT NULL,
            automatic INTEGER NOT NULL DEFAULT 0
        )
        """,
        "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
        "CREATE INDEX command_log_created ON command_log(created_ms)",
        "CREATE INDEX outcome_log_command ON outcome_log(command_seq)",
        """
        CREATE INDEX outcome_log_late ON outcome_log(lane, client_transaction_id, action)
            WHERE client_transaction_id IS NOT NULL AND outcome != 'success'
        """,
        "CREATE INDEX outcome_log_unknown ON outcome_log(lane, action) WHERE outcome = 'unknown'",
        """
        CREATE INDEX outcome_log_pre_auths ON outcome_log(lane, order_code)
            WHERE action = 'pre_auth' AND outcome = 'success'
        """,
        """
        CREATE VIEW commands AS
            SELECT c.seq AS seq, c.id AS id, c.lane AS lane, c.action AS action, c.fingerprint AS fingerprint,
                c.client_transaction_id AS client_transaction_id,
                CASE WHEN o.seq IS NULL THEN 'accepted' ELSE 'final' END AS state,
                o.outcome AS outcome, o.reply AS reply, COALESCE(o.late, 0) AS late, c.deadline_ms AS deadline_ms,
                c.created_ms AS created_ms, COALESCE(o.at_ms, c.created_ms) AS updated_ms, c.client AS client,
                \(JournalSQL.replyColumnNames.map { "o.\($0) AS \($0)" }.joined(separator: ", "))
            FROM command_log c
            LEFT JOIN outcome_log o ON o.seq = (SELECT MAX(seq) FROM outcome_log WHERE command_seq = c.seq)
        """,
    ]

    // MARK: Writes: a commit is one statement

    /// The columns of each log a commit appends to, with their types: the row types' own (``CommandLogRow``,
    /// ``OutcomeLogRow``, ``CallbackRow``, ``BatchRow``), in the order of their `values`, which
    /// ``PostgresCommitRows`` sends as JSON arrays.
    static let commandColumns = typed(CommandLogRow.columns)
    static let outcomeColumns = typed(OutcomeLogRow.columns) + replyColumns
    static let callbackColumns = typed(CallbackRow.columns)
    static let batchColumns = typed(BatchRow.columns)

    /// `columns` with PostgreSQL's type for each.
    private static func typed<Columns: JournalColumns>(_ columns: [Columns]) -> [(name: String, type: String)] {
        columns.map { column in
            switch column.kind {
            case .integer: (column.rawValue, "BIGINT")
            case .flag: (column.rawValue, "INTEGER")
            case .text: (column.rawValue, "TEXT")
            }
        }
    }

    /// Where `column` is in a command's JSON array.
    private static func place(_ column: CommandLogRow.Columns) -> Int {
        CommandLogRow.columns.firstIndex(of: column) ?? 0
    }

    /// Rows appended from the JSON array of arrays `$parameter`, in its order (the order `BIGSERIAL` numbers them).
    private static func append(_ table: String, _ columns: [(name: String, type: String)], parameter: Int) -> String {
        let values = columns.enumerated().map { "(r->>\($0.offset))::\($0.element.type)" }.joined(separator: ", ")
        return """
            INSERT INTO \(table)(\(columns.map(\.name).joined(separator: ", ")))
                SELECT \(values) FROM jsonb_array_elements($\(parameter)::jsonb) WITH ORDINALITY AS t(r, n) ORDER BY n
            """
    }

    /// Everything one commit writes, in one statement (one round trip, atomic): the commands accepted (`$1`),
    /// the outcomes given (`$2`), the callbacks received (`$3`), the lanes whose batch closed (`$4`) and the
    /// batches opened (`$5`). A command already in the log under its sequence (a commit retried after its
    /// answer was lost) is not written twice; a sequence another id already holds fails the whole statement
    /// (two writers, or a log the bridge did not read at start: never a command silently dropped).
    static let commit = "WITH \(commitBody)"

    /// ``commit`` under the journal's lease of epoch `$6` (``PostgresLeaseSQL/fence``): the whole statement
    /// fails, nothing written, when the lease is another's or ran out.
    static let fencedCommit = """
        WITH \(PostgresLeaseSQL.fence),
        \(commitBody)
        UNION ALL
        \(PostgresLeaseSQL.refuseWithoutLease)
        """

    /// ``commit``'s expressions and its check of the sequences, after `WITH`. The check looks each sequence up
    /// by the log's key (a subquery a row, never a join): the plan PostgreSQL keeps for the prepared statement
    /// (``PostgresLink/run(prepared:)``), made when the log may have been empty, must not scan the log whole.
    private static let commitBody = """
        accepted AS (\(append("command_log", commandColumns, parameter: 1)) ON CONFLICT (seq) DO NOTHING),
        outcomes AS (\(append("outcome_log", outcomeColumns, parameter: 2))),
        received AS (\(append("callbacks", callbackColumns, parameter: 3))),
        closed AS (DELETE FROM batches WHERE lane IN (SELECT jsonb_array_elements_text($4::jsonb))),
        opened AS (\(append("batches", batchColumns, parameter: 5))
            ON CONFLICT (lane) DO UPDATE SET name = EXCLUDED.name, batch_id = EXCLUDED.batch_id,
            opened_ms = EXCLUDED.opened_ms, automatic = EXCLUDED.automatic)
        SELECT CAST('journal sequence ' || (r->>\(place(.seq))) || ' is already another command''s (' || holder || ')' AS INTEGER)
        FROM (
            SELECT r, (SELECT c.id FROM command_log c WHERE c.seq = (r->>\(place(.seq)))::BIGINT) AS holder
            FROM jsonb_array_elements($1::jsonb) AS t(r)) AS placed
        WHERE holder <> r->>\(place(.id))
        """

    /// Migration `v1.3-callback-relay-seq` on PostgreSQL (``JournalSQL/callbackRelaySeq``).
    static let callbackRelaySeq = [
        "ALTER TABLE callbacks ADD COLUMN relay_seq BIGINT",
        "ALTER TABLE callbacks ADD COLUMN relay_url_hash BIGINT",
    ]

    // MARK: Reads: SQLite's statements, numbered

    static let recentRelayCallbacks = numbered(JournalSQL.recentRelayCallbacks)

    static let commandBySeq = numbered(JournalSQL.commandBySeq)
    static let lateForSuccess = numbered(JournalSQL.lateForSuccess)
    static let lateForOther = numbered(JournalSQL.lateForOther)
    static let preAuthByOrderCode = numbered(JournalSQL.preAuthByOrderCodeInLog)
    static let unknownOfAction = numbered(JournalSQL.unknownOfAction)
    static let unknownCount = numbered(JournalSQL.unknownCount)
    static let outstanding = numbered(JournalSQL.outstanding)
    static let outcomeCounts = """
        SELECT action, outcome, COUNT(*) AS n FROM commands
        WHERE state = 'final' AND outcome IS NOT NULL AND created_ms >= $1 GROUP BY action, outcome
        """

    /// Up to `$2` of the commands `journal prune` removes at the cutoff `$1`, oldest first, with their outcomes.
    static let pruneCommands = """
        WITH \(pruneCommandsBody)
        DELETE FROM command_log WHERE seq IN (SELECT seq FROM doomed) RETURNING seq
        """

    /// ``pruneCommands``'s choice of commands and removal of their outcomes, after `WITH`.
    private static let pruneCommandsBody = """
        doomed AS (
            SELECT seq FROM commands WHERE created_ms < $1 AND \(numbered(JournalPrune.removable))
            ORDER BY created_ms LIMIT $2),
        outcomes AS (DELETE FROM outcome_log WHERE command_seq IN (SELECT seq FROM doomed))
        """

    /// ``pruneCommands`` under the journal's lease of epoch `$3`: the whole statement fails, nothing removed,
    /// when the lease is another's or ran out (as ``fencedCommit``).
    static let fencedPruneCommands = """
        WITH \(PostgresLeaseSQL.fence(epoch: 3)),
        \(pruneCommandsBody),
        gone AS (DELETE FROM command_log WHERE seq IN (SELECT seq FROM doomed) RETURNING seq)
        SELECT seq FROM gone
        UNION ALL
        \(PostgresLeaseSQL.refuseWithoutLease())
        """

    /// Looks at up to `$3` callbacks after the sequence `$2` and removes those `journal prune` removes at the
    /// cutoff `$1`: returns how many it looked at, whether one was received before the cutoff, the last
    /// sequence it looked at, and how many it removed.
    static let pruneCallbacks = "WITH \(pruneCallbacksBody)"

    /// ``pruneCallbacks`` under the journal's lease of epoch `$4`: the whole statement fails, nothing removed,
    /// when the lease is another's or ran out (as ``fencedCommit``).
    static let fencedPruneCallbacks = """
        WITH \(PostgresLeaseSQL.fence(epoch: 4)),
        \(pruneCallbacksBody)
        UNION ALL
        \(PostgresLeaseSQL.refuseWithoutLease(", NULL, NULL, NULL"))
        """

    /// ``pruneCallbacks`` after `WITH`.
    private static let pruneCallbacksBody = """
        looked AS (
            SELECT seq, received_ms < $1 AS older, \(numbered(JournalPrune.removableCallback)) AS removable
            FROM callbacks WHERE seq > $2 ORDER BY seq LIMIT $3),
        gone AS (DELETE FROM callbacks WHERE seq IN (SELECT seq FROM looked WHERE removable) RETURNING 1)
        SELECT (SELECT COUNT(*) FROM looked), COALESCE((SELECT bool_or(older) FROM looked), false),
            (SELECT MAX(seq) FROM looked), (SELECT COUNT(*) FROM gone)
        """

    /// Counts one more start and returns the new epoch, in one statement.
    static let nextEpoch = """
        INSERT INTO meta(key, value) VALUES ('epoch', '1')
        ON CONFLICT (key) DO UPDATE SET value = (CAST(meta.value AS BIGINT) + 1)::TEXT
        RETURNING CAST(value AS BIGINT)
        """

    /// `sql` with SQLite's placeholders in PostgreSQL's form: `?` numbered in order, `?N` as `$N`. The
    /// journal's statements hold no `?` inside a string literal.
    package static func numbered(_ sql: String) -> String {
        var result = ""
        var next = 1
        var characters = sql.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            guard character == "?" else {
                result.append(character)
                continue
            }
            var digits = ""
            while let digit = pending, digit.isASCII, digit.isNumber {
                digits.append(digit)
                pending = characters.next()
            }
            if digits.isEmpty {
                result += "$\(next)"
                next += 1
            } else {
                result += "$\(digits)"
            }
        }
        return result
    }
}
