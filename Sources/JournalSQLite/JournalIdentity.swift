import BridgeCore
import BridgeJournal
import Foundation
import GRDB

extension JournalIdentity {
    /// Compares the open journal's id with the one recorded beside it, or records it.
    ///
    /// A journal without an id (new, or written by a vivabridge before identities) gets one; a state
    /// folder without an `.identity` file (a first start, a journal moved or restored onto a new machine)
    /// records the journal's id.
    ///
    /// - Throws: ``JournalError`` (``JournalError/Code/notThisFoldersJournal``) when the journal is not the
    ///   one recorded beside it.
    static func establish(_ database: DatabaseQueue, site: JournalSite) throws {
        let stored = try database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [metaKey])
        }
        switch (site.recordedIdentity, stored) {
        case (nil, nil):
            let id = UUID().uuidString.lowercased()
            try database.write { db in
                try db.execute(
                    sql: "INSERT INTO meta(key, value) VALUES(?, ?)", arguments: [metaKey, id])
            }
            try JournalIdentityFile.write(id, journal: site.path)
        case (nil, let stored?):
            try JournalIdentityFile.write(stored, journal: site.path)
        case (let recorded?, let stored) where recorded != stored:
            throw JournalError(
                path: site.path,
                "is not the journal this state folder had: \((site.path as NSString).lastPathComponent)"
                    + "\(JournalIdentityFile.suffix) records journal \(recorded), and this file "
                    + (stored.map { "is journal \($0)" } ?? "has no identity (another file, or an old journal)")
                    + ". Serving it would answer `not_found` for the commands the other journal held, and a till "
                    + "retrying one would charge it again. Put this folder's journal back, or, if this file is the "
                    + "journal you mean to keep (an older backup of it restored on purpose), delete "
                    + "\(site.path)\(JournalIdentityFile.suffix) and start again; to start a new journal on purpose, "
                    + "run `vivabridge journal new --journal \(site.path)`",
                code: .notThisFoldersJournal)
        default:
            return
        }
    }
}
