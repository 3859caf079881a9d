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
    /// A command accepted.
    package static let insertCommand = """
        INSERT INTO commands(id, lane, action, fingerprint, client_transaction_id, state, outcome, reply,
            deadline_ms, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    /// A callback received.
    package static let insertCallback =
        "INSERT INTO callbacks(lane, received_ms, fields, matched_id, disposition) VALUES (?, ?, ?, ?, ?)"
    /// A command's final outcome and reply, then its reply columns (``replyColumnNames``), then its id.
    package static let finalUpdate = """
        UPDATE commands SET state = 'final', outcome = ?, reply = ?, late = ?, updated_ms = ?,
        \(replyColumnNames.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?
        """
    /// The reply columns of migration `v1.1-reply-columns`, in the order of `ReplySummary.bindColumns(into:)`.
    package static let replyColumnNames = [
        "amount", "tip", "error_code", "failure_reason", "reference_number", "order_code", "card", "batch",
        "resolved_at", "resolved_by", "resolved_note",
    ]
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
    /// Columns of a stored command, in the order `Journal` reads them.
    package static let commandColumns =
        "id, lane, action, fingerprint, client_transaction_id, state, outcome, reply, deadline_ms, created_ms, client"
    /// Migration `v1.1-command-client`: who sent each command (security's client name).
    package static let commandClientColumn = "ALTER TABLE commands ADD COLUMN client TEXT"
    /// The sender of a command just inserted, when it came from an admitted client.
    static let setClient = "UPDATE commands SET client = ? WHERE id = ?"
    /// The look-up of a command by id, made for every new command.
    package static let lookup = "SELECT \(commandColumns) FROM commands WHERE id = ?"
    /// Sales by lane and `clientTransactionId`, for late callbacks of sales that ended in any way.
    static let salesByClientTransactionId = """
        CREATE INDEX commands_sales_by_client_transaction_id ON commands(lane, client_transaction_id)
            WHERE action = 'sale'
        """
    /// Migration `v1.1-late-by-client-transaction-id`: every command that names itself by a
    /// `clientTransactionId` (sales, pre-auths, refunds), by lane, for late callbacks of any of them.
    static let lateByClientTransactionId = """
        CREATE INDEX commands_late_by_client_transaction_id ON commands(lane, client_transaction_id, action)
            WHERE client_transaction_id IS NOT NULL
        """
    /// Migration `v1.1-fewer-index-writes`: the commands a late callback can still complete (any outcome but
    /// success), by lane, `clientTransactionId` and action. A success (nearly every command) is never in it, so
    /// writing a command touches one index on a random key (its id) instead of two; a row enters it when it
    /// ends in another outcome.
    static let lateCandidates = """
        CREATE INDEX commands_late_candidates ON commands(lane, client_transaction_id, action)
            WHERE client_transaction_id IS NOT NULL AND outcome != 'success'
        """
    /// Migration `v1.1-pre-auths-by-order-code`: successful pre-auths by lane and the order code of their answer,
    /// so that a capture names its authorisation after a restart too.
    static let preAuthsByOrderCode = """
        CREATE INDEX commands_pre_auths_by_order_code ON commands(lane, order_code) WHERE action = 'pre_auth'
        """
    /// The newest successful pre-auth of a lane whose answer had this order code.
    static let preAuthByOrderCode = """
        SELECT id FROM commands WHERE lane = ? AND order_code = ? AND action = 'pre_auth' AND outcome = 'success'
        ORDER BY created_ms DESC LIMIT 1
        """
    /// The `unknown` commands of an action on a lane, newest first (the `commands_unknown_sales` index).
    static let unknownCommandsOfAction = """
        SELECT \(commandColumns) FROM commands WHERE lane = ? AND outcome = 'unknown' AND action = ?
        ORDER BY created_ms DESC LIMIT 100
        """
    /// A finished command (lane, clientTransactionId, action) a late success callback completes: any outcome
    /// but success (along `commands_late_candidates`).
    static let lateCommandForSuccess = """
        SELECT \(commandColumns) FROM commands WHERE lane = ? AND client_transaction_id = ? AND action = ?
        AND state = 'final' AND outcome != 'success' ORDER BY created_ms DESC LIMIT 1
        """
    /// A finished command (lane, clientTransactionId, action) a late callback that is not a success
    /// completes: an `unknown` one (along `commands_unknown_sales`).
    static let lateCommandForOther = """
        SELECT \(commandColumns) FROM commands WHERE lane = ? AND client_transaction_id = ? AND action = ?
        AND outcome = 'unknown' ORDER BY created_ms DESC LIMIT 1
        """
}
