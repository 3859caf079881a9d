import BridgeCore

/// The journal's schema and the statements of its hot path, in one place: the bridge's `Journal` runs
/// them, and the benchmark's journal section measures the same text.
package enum JournalSQL {
    /// Migration `v1`: commands, callbacks, open batches, and the bridge's own counters.
    package static let schema = """
        CREATE TABLE commands (
            id TEXT PRIMARY KEY NOT NULL,
            lane TEXT,
            action TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            client_transaction_id TEXT,
            state TEXT NOT NULL,
            outcome TEXT,
            reply TEXT,
            late INTEGER NOT NULL DEFAULT 0,
            deadline_ms INTEGER,
            created_ms INTEGER NOT NULL,
            updated_ms INTEGER NOT NULL
        );
        CREATE INDEX commands_outstanding ON commands(state) WHERE state != 'final';
        CREATE INDEX commands_unknown_sales ON commands(lane, client_transaction_id)
            WHERE outcome = 'unknown';
        CREATE TABLE callbacks (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            lane TEXT NOT NULL,
            received_ms INTEGER NOT NULL,
            fields TEXT NOT NULL,
            matched_id TEXT,
            disposition TEXT NOT NULL
        );
        CREATE TABLE batches (
            lane TEXT PRIMARY KEY NOT NULL,
            name TEXT,
            batch_id TEXT,
            opened_ms INTEGER NOT NULL
        );
        CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
        """

    /// Migration `v1.1-callbacks-by-command`: the callbacks of a command, so that pruning a few commands
    /// (`journalRetentionDays`, a batch a tick) finds their callbacks without reading them all.
    package static let callbacksByCommand = "CREATE INDEX callbacks_matched ON callbacks(matched_id)"
    /// The reply columns of migration `v1.1-reply-columns` (``ReplySummary/Columns``).
    package static let replyColumnNames = ReplySummary.columns.map(\.rawValue)
    /// Migration `v1.1-reply-columns`: what reconciliation reads from each reply, as columns (filled by the
    /// migration for the rows already there), and the index `journal export` selects a time range by.
    package static let replyColumns = """
        ALTER TABLE commands ADD COLUMN amount INTEGER;
        ALTER TABLE commands ADD COLUMN tip INTEGER;
        ALTER TABLE commands ADD COLUMN error_code TEXT;
        ALTER TABLE commands ADD COLUMN failure_reason TEXT;
        ALTER TABLE commands ADD COLUMN reference_number TEXT;
        ALTER TABLE commands ADD COLUMN order_code TEXT;
        ALTER TABLE commands ADD COLUMN card TEXT;
        ALTER TABLE commands ADD COLUMN batch TEXT;
        ALTER TABLE commands ADD COLUMN resolved_at TEXT;
        ALTER TABLE commands ADD COLUMN resolved_by TEXT;
        ALTER TABLE commands ADD COLUMN resolved_note TEXT;
        CREATE INDEX commands_created ON commands(created_ms);
        """
    /// Migration `v1.1-command-client`: who sent each command (security's client name).
    package static let commandClientColumn = "ALTER TABLE commands ADD COLUMN client TEXT"
    /// Sales by lane and `clientTransactionId`, for late callbacks of sales that ended in any way.
    package static let salesByClientTransactionId = """
        CREATE INDEX commands_sales_by_client_transaction_id ON commands(lane, client_transaction_id)
            WHERE action = 'sale'
        """
    /// Migration `v1.1-late-by-client-transaction-id`: every command that names itself by a
    /// `clientTransactionId` (sales, pre-auths, refunds), by lane, for late callbacks of any of them.
    package static let lateByClientTransactionId = """
        CREATE INDEX commands_late_by_client_transaction_id ON commands(lane, client_transaction_id, action)
            WHERE client_transaction_id IS NOT NULL
        """
    /// Migration `v1.1-fewer-index-writes`: the commands a late callback can still complete (any outcome but
    /// success), by lane, `clientTransactionId` and action. A success (nearly every command) is never in it, so
    /// writing a command touches one index on a random key (its id) instead of two; a row enters it when it
    /// ends in another outcome.
    package static let lateCandidates = """
        CREATE INDEX commands_late_candidates ON commands(lane, client_transaction_id, action)
            WHERE client_transaction_id IS NOT NULL AND outcome != 'success'
        """
    /// Migration `v1.1-pre-auths-by-order-code`: successful pre-auths by lane and the order code of their answer,
    /// so that a capture names its authorisation after a restart too.
    package static let preAuthsByOrderCode = """
        CREATE INDEX commands_pre_auths_by_order_code ON commands(lane, order_code) WHERE action = 'pre_auth'
        """

    // MARK: v1.2: the journal as an append-only log

    /// The reply columns as the `commands` view shows them, each from the command's latest outcome.
    private static let outcomeColumnsOfView = replyColumnNames.map { "o.\($0) AS \($0)" }.joined(separator: ", ")

    /// Migration `v1.3-callback-relay-seq`: a numbered callback's relay `n` and the FNV-1a 64 hash of its URL
    /// (``RelayCallbackKey``), so that a restarted bridge still knows a copy its relay sends again.
    package static let callbackRelaySeq = """
        ALTER TABLE callbacks ADD COLUMN relay_seq INTEGER;
        ALTER TABLE callbacks ADD COLUMN relay_url_hash INTEGER;
        """

    /// The relay numbers and URL hashes among the newest `?` callbacks, newest first: what a start gives each
    /// lane's ``RelaySequenceMemory``. Reads only those rows (by `seq`, the primary key), whatever they hold.
    package static let recentRelayCallbacks = """
        SELECT lane, relay_seq, relay_url_hash FROM (
            SELECT seq, lane, relay_seq, relay_url_hash FROM callbacks ORDER BY seq DESC LIMIT ?) AS recent
        WHERE relay_seq IS NOT NULL ORDER BY seq DESC
        """

    /// Migration `v1.2-journal-log`: what a sale commits is appended under rising keys. `command_log` holds each
    /// accepted command once, under the sequence the bridge gives it; `outcome_log` holds each outcome given to
    /// a command (its final one, then any late result, look-up or resolve), the latest one being the command's.
    /// No index on a random key is written for a command that ends in success: the ids are found from memory
    /// (``CommandIndex``), `command_log_created` and `outcome_log_command` rise with time, and the three partial
    /// indexes hold only outcomes other than success, `unknown` ones, and successful pre-auths. The rows of the
    /// v1.1 `commands` table move over in the same transaction, and `commands` becomes a view with the columns
    /// it had (what `journal export`, operators' queries and the reply columns read), writable through triggers.
    package static let journalLog = """
        CREATE TABLE command_log (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            lane TEXT,
            action TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            client_transaction_id TEXT,
            deadline_ms INTEGER,
            created_ms INTEGER NOT NULL,
            client TEXT
        );
        CREATE TABLE outcome_log (
            seq INTEGER PRIMARY KEY,
            command_seq INTEGER NOT NULL,
            lane TEXT,
            action TEXT NOT NULL,
            client_transaction_id TEXT,
            outcome TEXT NOT NULL,
            reply TEXT NOT NULL,
            late INTEGER NOT NULL DEFAULT 0,
            at_ms INTEGER NOT NULL,
            \(replyColumnNames.map { "\($0) \(["amount", "tip"].contains($0) ? "INTEGER" : "TEXT")" }.joined(separator: ",\n    "))
        );
        INSERT INTO command_log(seq, id, lane, action, fingerprint, client_transaction_id, deadline_ms, created_ms, client)
            SELECT rowid, id, lane, action, fingerprint, client_transaction_id,
                CASE WHEN state = 'final' THEN NULL ELSE deadline_ms END, created_ms, client
            FROM commands ORDER BY rowid;
        INSERT INTO outcome_log(command_seq, lane, action, client_transaction_id, outcome, reply, late, at_ms,
            \(replyColumnNames.joined(separator: ", ")))
            SELECT rowid, lane, action, client_transaction_id, outcome, COALESCE(reply, ''), late, updated_ms,
                \(replyColumnNames.joined(separator: ", "))
            FROM commands WHERE state = 'final' AND outcome IS NOT NULL ORDER BY rowid;
        ALTER TABLE callbacks ADD COLUMN command_seq INTEGER;
        UPDATE callbacks SET command_seq = (SELECT rowid FROM commands WHERE commands.id = callbacks.matched_id)
            WHERE matched_id IS NOT NULL;
        DROP TABLE commands;
        CREATE INDEX command_log_created ON command_log(created_ms);
        CREATE INDEX outcome_log_command ON outcome_log(command_seq);
        CREATE INDEX outcome_log_late ON outcome_log(lane, client_transaction_id, action)
            WHERE client_transaction_id IS NOT NULL AND outcome != 'success';
        CREATE INDEX outcome_log_unknown ON outcome_log(lane, action) WHERE outcome = 'unknown';
        CREATE INDEX outcome_log_pre_auths ON outcome_log(lane, order_code)
            WHERE action = 'pre_auth' AND outcome = 'success';
        CREATE VIEW commands AS
            SELECT c.seq AS seq, c.id AS id, c.lane AS lane, c.action AS action, c.fingerprint AS fingerprint,
                c.client_transaction_id AS client_transaction_id,
                CASE WHEN o.seq IS NULL THEN 'accepted' ELSE 'final' END AS state,
                o.outcome AS outcome, o.reply AS reply, COALESCE(o.late, 0) AS late, c.deadline_ms AS deadline_ms,
                c.created_ms AS created_ms, COALESCE(o.at_ms, c.created_ms) AS updated_ms, c.client AS client,
                \(outcomeColumnsOfView)
            FROM command_log c
            LEFT JOIN outcome_log o ON o.seq = (SELECT MAX(seq) FROM outcome_log WHERE command_seq = c.seq);
        CREATE TRIGGER commands_insert INSTEAD OF INSERT ON commands BEGIN
            INSERT INTO command_log(seq, id, lane, action, fingerprint, client_transaction_id, deadline_ms, created_ms,
                client)
            VALUES (NEW.seq, NEW.id, NEW.lane, NEW.action, NEW.fingerprint, NEW.client_transaction_id,
                NEW.deadline_ms, NEW.created_ms, NEW.client);
            INSERT INTO outcome_log(command_seq, lane, action, client_transaction_id, outcome, reply, late, at_ms,
                \(replyColumnNames.joined(separator: ", ")))
            SELECT last_insert_rowid(), NEW.lane, NEW.action, NEW.client_transaction_id, NEW.outcome,
                COALESCE(NEW.reply, ''), COALESCE(NEW.late, 0), COALESCE(NEW.updated_ms, NEW.created_ms),
                \(replyColumnNames.map { "NEW.\($0)" }.joined(separator: ", "))
            WHERE NEW.state = 'final' AND NEW.outcome IS NOT NULL;
        END;
        CREATE TRIGGER commands_update INSTEAD OF UPDATE ON commands BEGIN
            INSERT INTO outcome_log(command_seq, lane, action, client_transaction_id, outcome, reply, late, at_ms,
                \(replyColumnNames.joined(separator: ", ")))
            SELECT OLD.seq, NEW.lane, NEW.action, NEW.client_transaction_id, NEW.outcome, COALESCE(NEW.reply, ''),
                COALESCE(NEW.late, 0), NEW.updated_ms, \(replyColumnNames.map { "NEW.\($0)" }.joined(separator: ", "))
            WHERE NEW.outcome IS NOT NULL;
        END;
        CREATE TRIGGER commands_delete INSTEAD OF DELETE ON commands BEGIN
            DELETE FROM outcome_log WHERE command_seq = OLD.seq;
            DELETE FROM command_log WHERE seq = OLD.seq;
        END;
        """

    /// A command accepted, under the sequence the bridge gave it (``CommandLogRow``).
    package static let appendCommand = CommandLogRow.append
    /// An outcome given to a command (``OutcomeLogRow``).
    package static let appendOutcome = OutcomeLogRow.append
    /// A callback received, with the sequence of the command it matched (``CallbackRow``).
    package static let appendCallback = CallbackRow.append

    /// An insert of one row into `table`, its values bound in the order of `columns`.
    static func insert<Column: JournalColumns>(into table: String, _ columns: [Column]) -> String {
        insert(into: table, columns.map(\.rawValue))
    }

    /// An insert of one row into `table`, its values bound in the order of `columns`.
    static func insert(into table: String, _ columns: [String]) -> String {
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return "INSERT INTO \(table)(\(columns.joined(separator: ", "))) VALUES (\(marks))"
    }

    /// The columns of a stored command read from the `commands` view (``StoredCommand/Columns``).
    static let storedColumns = StoredCommand.Columns.allCases.map(\.rawValue).joined(separator: ", ")
    /// A command by its sequence (the id's candidates come from memory).
    package static let commandBySeq = "SELECT \(storedColumns) FROM commands WHERE seq = ?"
    /// Whether an outcome row is its command's latest (a condition on `o`, a row of `outcome_log`).
    private static let latestOutcome =
        "o.seq = (SELECT MAX(seq) FROM outcome_log WHERE command_seq = o.command_seq)"
    /// The newest command (lane, clientTransactionId, action) whose latest outcome is not success: a late
    /// success callback completes it (along `outcome_log_late`).
    package static let lateForSuccess = """
        SELECT \(storedColumns) FROM commands WHERE seq = (
            SELECT o.command_seq FROM outcome_log o WHERE o.lane = ? AND o.client_transaction_id = ? AND o.action = ?
            AND o.client_transaction_id IS NOT NULL AND o.outcome != 'success' AND \(latestOutcome)
            ORDER BY o.command_seq DESC LIMIT 1)
        """
    /// The newest command (lane, clientTransactionId, action) whose latest outcome is `unknown`: a late callback
    /// that is not a success completes it (along `outcome_log_unknown`).
    package static let lateForOther = """
        SELECT \(storedColumns) FROM commands WHERE seq = (
            SELECT o.command_seq FROM outcome_log o WHERE o.lane = ? AND o.client_transaction_id = ? AND o.action = ?
            AND o.outcome = 'unknown' AND \(latestOutcome) ORDER BY o.command_seq DESC LIMIT 1)
        """
    /// The newest successful pre-auth of a lane whose answer had this order code (along `outcome_log_pre_auths`).
    package static let preAuthByOrderCodeInLog = """
        SELECT c.id FROM outcome_log o JOIN command_log c ON c.seq = o.command_seq
        WHERE o.lane = ? AND o.order_code = ? AND o.action = 'pre_auth' AND o.outcome = 'success' AND \(latestOutcome)
        ORDER BY o.command_seq DESC LIMIT 1
        """
    /// The `unknown` commands of an action on a lane, newest first (along `outcome_log_unknown`).
    package static let unknownOfAction = """
        SELECT \(storedColumns) FROM commands WHERE seq IN (
            SELECT o.command_seq FROM outcome_log o WHERE o.lane = ? AND o.action = ? AND o.outcome = 'unknown'
            AND \(latestOutcome) ORDER BY o.command_seq DESC LIMIT 100)
        ORDER BY seq DESC
        """
    /// How many commands are `unknown` now (along `outcome_log_unknown`).
    package static let unknownCount =
        "SELECT COUNT(*) FROM outcome_log o WHERE o.outcome = 'unknown' AND \(latestOutcome)"
    /// The commands without an outcome, oldest first: what a restart picks up again.
    package static let outstanding = """
        SELECT \(storedColumns) FROM commands WHERE seq IN (
            SELECT c.seq FROM command_log c WHERE NOT EXISTS (SELECT 1 FROM outcome_log WHERE command_seq = c.seq))
        ORDER BY created_ms, seq
        """
}
