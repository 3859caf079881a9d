import BridgeCore
import BridgeJournal
import Foundation
import GRDB
import InterApp
import JournalSQLite

/// Lists the commands of a journal whose outcome is still `unknown`, and those with no outcome yet.
public enum JournalUnknown {
    /// The columns of the `commands` view it reads.
    private enum Columns: String, ColumnExpression {
        case id, lane, action, fingerprint, reply
        case createdMs = "created_ms"
        case updatedMs = "updated_ms"
    }

    /// Every command whose outcome is `unknown` or that has none yet, oldest first (read-only, beside a
    /// running bridge).
    ///
    /// - Throws: ``JournalError`` when the journal cannot be read.
    public static func list(path: String) throws -> [UnknownCommand] {
        let database = try JournalReader.open(path: path)
        defer { try? database.close() }
        do {
            return try database.read { db in
                let key = try JournalSQL.commandKey(db)
                return try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, lane, action, fingerprint, reply, created_ms, updated_ms FROM commands
                        WHERE outcome = 'unknown' OR outcome IS NULL ORDER BY created_ms, \(key)
                        """
                ).map { row in
                    let fingerprint: String? = try row.decode(forColumn: Columns.fingerprint)
                    let replyText: String? = try row.decode(forColumn: Columns.reply)
                    let asked = fingerprint.flatMap { try? JSONValue.parse($0).objectValue }
                    let reply = replyText.flatMap { try? JSONValue.parse($0).objectValue }
                    return UnknownCommand(
                        id: try row.decode(forColumn: Columns.id), lane: try row.decode(forColumn: Columns.lane),
                        action: try row.decode(forColumn: Columns.action), amount: asked?["amount"]?.intValue,
                        createdMs: try row.decode(forColumn: Columns.createdMs),
                        updatedMs: try row.decode(forColumn: Columns.updatedMs),
                        message: reply?["message"]?.stringValue ?? UnknownCommand.noOutcomeYet
                    )
                }
            }
        } catch let error as DatabaseError {
            throw JournalError(path: path, "cannot be read: \(error)")
        }
    }
}
