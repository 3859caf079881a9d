import Foundation
import GRDB
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import JournalTools

/// A journal that existed is never silently begun anew: an emptied file, a missing file beside its companions
/// and another journal in its place are refused; a v1.1 journal and a restored backup are served.
@Suite("Journal identity: an emptied, missing or swapped journal is refused, never begun anew")
struct JournalIdentityTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "vivabridge-identity-\(UUID().uuidString)")
    private var path: String { folder.appendingPathComponent("state/journal.sqlite").path }

    /// A journal holding one acknowledged sale, closed as a stopped bridge leaves it.
    private func journalWithASale(at path: String) throws {
        let journal = try Journal(path: path, sync: .normal)
        try journal.commit([.insert(Self.sale(id: "pos-1"))])
        journal.close()
    }

    private static func sale(id: String) -> StoredCommand {
        StoredCommand(
            id: id, lane: "lane-1", action: .sale, fingerprint: "{}", clientTransactionId: "c-\(id)",
            state: .accepted, outcome: nil, reply: nil, deadlineMs: 1, createdMs: 1)
    }

    private func size(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }

    private func refusal(_ path: String) -> JournalError? {
        #expect(throws: JournalError.self) { _ = try Journal(path: path, sync: .normal) }
    }

    @Test("a journal truncated to 0 bytes is refused, naming the path and `journal new`, and left as it is")
    func emptiedJournalRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try journalWithASale(at: path)
        #expect(truncate(path, 0) == 0)
        let error = try #require(refusal(path))
        #expect(error.code == .notThisFoldersJournal && error.isSetUpProblem)
        #expect(error.description.contains(path) && error.message.contains("empty file"), "\(error)")
        #expect(error.message.contains("vivabridge journal new --journal \(path)"))
        #expect(try size(path) == 0, "the refused file was written")
    }

    @Test("an empty file is refused even with nothing beside it (a restore that copied nothing)")
    func emptyFileAloneRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(refusal(path)?.code == .notThisFoldersJournal)
    }

    @Test("a missing journal beside its lock and identity, or beside its -wal alone, is refused")
    func missingJournalRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try journalWithASale(at: path)
        try FileManager.default.removeItem(atPath: path)
        let error = try #require(refusal(path))
        #expect(error.message.contains("is missing") && error.message.contains("journal.sqlite.identity"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: path), "a new journal was begun")

        for suffix in [".lock", ".identity"] { try FileManager.default.removeItem(atPath: path + suffix) }
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data([1, 2, 3])))
        #expect(refusal(path)?.message.contains("journal.sqlite-wal") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("another journal copied over this folder's is refused, both ids named")
    func swappedJournalRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try journalWithASale(at: path)
        let other = folder.appendingPathComponent("other/journal.sqlite").path
        try journalWithASale(at: other)
        let ours = try #require(JournalIdentityFile.read(journal: path))
        let theirs = try #require(JournalIdentityFile.read(journal: other))
        #expect(ours != theirs)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: other, toPath: path)
        let error = try #require(refusal(path))
        #expect(error.message.contains("is not the journal this state folder had"), "\(error)")
        #expect(error.message.contains(ours) && error.message.contains(theirs))
    }

    @Test("a journal without an identity (v1.1) is served and gets one; so is one moved to a new folder")
    func journalWithoutIdentityAdopted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: path)
        try JournalMigrations.migrate(old)
        try old.close()
        let journal = try Journal(path: path, sync: .normal)
        try journal.commit([.insert(Self.sale(id: "pos-1"))])
        journal.close()
        let recorded = try #require(JournalIdentityFile.read(journal: path))
        let stored = try DatabaseQueue(path: path).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'journal_id'")
        }
        #expect(stored == recorded)

        let moved = folder.appendingPathComponent("moved/journal.sqlite").path
        try FileManager.default.createDirectory(
            atPath: (moved as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path, toPath: moved)
        let reopened = try Journal(path: moved, sync: .normal)
        #expect(try reopened.command(id: "pos-1") != nil)
        reopened.close()
        #expect(JournalIdentityFile.read(journal: moved) == recorded)
    }

    @Test("a backup restored as the docs say is served: it carries the journal's identity")
    func restoredBackupServed() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try journalWithASale(at: path)
        let backup = folder.appendingPathComponent("backup.sqlite").path
        try JournalBackup.copy(path: path, to: backup)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: backup, toPath: path)
        let journal = try Journal(path: path, sync: .normal)
        #expect(try journal.command(id: "pos-1") != nil)
        journal.close()
    }

    @Test("`journal new` sets the remains aside and begins a new journal; it never sets a healthy one aside")
    func startAnewOnPurpose() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try journalWithASale(at: path)
        let healthy = #expect(throws: JournalError.self) { _ = try JournalStartAnew.begin(path: path, sync: .normal) }
        #expect(healthy?.message.contains("is this folder's journal and is healthy (1 commands)") == true)
        let oldIdentity = try #require(JournalIdentityFile.read(journal: path))

        #expect(truncate(path, 0) == 0)
        let result = try JournalStartAnew.begin(
            path: path, sync: .normal, now: Date(timeIntervalSince1970: 1_795_000_000))
        let setAside = result.setAside.map(\.to)
        #expect(setAside.contains("\(path).set-aside-20261118T110640Z"), "\(setAside)")
        #expect(setAside.contains("\(path).set-aside-20261118T110640Z.identity"))
        let journal = try Journal(path: path, sync: .normal)
        #expect(try journal.command(id: "pos-1") == nil)
        journal.close()
        let newIdentity = try #require(JournalIdentityFile.read(journal: path))
        #expect(newIdentity != oldIdentity)
    }
}
