import Foundation

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// A journal in a folder of its own, closed and removed with this object.
final class TemporaryJournal {
    let folder: URL
    let journal: Journal

    /// Opens a new journal in a new temporary folder named after `prefix`.
    init(_ prefix: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        journal = try Journal(path: folder.appendingPathComponent("journal.sqlite").path, sync: .normal)
    }

    deinit {
        journal.close()
        try? FileManager.default.removeItem(at: folder)
    }
}
