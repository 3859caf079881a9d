import Foundation
import GRDB
import InterApp
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import JournalTools

/// The position recorded beside a journal (issue 44, item 1): written as the journal moves, and compared at
/// every open so that a journal gone back in time is refused, while one merely pruned is not.
@Suite("Journal position: recorded beside the journal, a journal behind it refused")
struct JournalPositionTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "vivabridge-position-\(UUID().uuidString)")
    private var path: String { folder.appendingPathComponent("journal.sqlite").path }

    /// Commits `count` sales, each answered `success`, an hour ago.
    private static func answeredSales(_ journal: Journal, _ ids: [String]) throws {
        for id in ids {
            var command = StoredCommand(
                id: id, lane: "lane-1", action: .sale, fingerprint: "{}", clientTransactionId: "c-\(id)",
                state: .accepted, outcome: nil, reply: nil, deadlineMs: 1, createdMs: 1)
            command.seq = journal.admit(id: id)
            try journal.commit([.insert(command)])
            command.outcome = .success
            command.reply = #"{"outcome":"success"}"#
            let summary = ReplySummary(
                amount: 100, tip: nil, errorCode: nil, failureReason: nil, referenceNumber: nil, orderCode: nil,
                card: nil,
                batch: nil)
            try journal.commit([.final(command, summary: summary, late: false, atMs: 2)])
        }
    }

    @Test("a stop records the last position; a copy of the journal taken before its last commands is refused")
    func behindRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try Journal(path: path, sync: .normal)
        try Self.answeredSales(journal, ["s1", "s2"])
        let early = folder.appendingPathComponent("early.sqlite").path
        try JournalBackup.copy(path: path, to: early)
        try Self.answeredSales(journal, ["s3"])
        journal.close()
        let recorded = try #require(try JournalPositionFile.read(journal: path))
        #expect(recorded.commandSeq == 3 && recorded.outcomeSeq == 3, "\(recorded)")

        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: early, toPath: path)
        let thrown = #expect(throws: JournalError.self) { _ = try Journal(path: path, sync: .normal) }
        let error = try #require(thrown)
        #expect(error.code == .behindItsPosition)
        #expect(error.message.contains("command #2, outcome #2") && error.message.contains("command #3, outcome #3"))
        #expect(error.message.contains("journal accept-gap"))
        #expect(try JournalGap.refusal(path: path) != nil, "journal check says so too")
    }

    @Test("a journal whose every command was pruned is not taken for one behind; nor is its epoch lowered")
    func prunedIsNotBehind() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let journal = try Journal(path: path, sync: .normal)
            try Self.answeredSales(journal, ["s1", "s2", "s3"])
            #expect(try journal.nextEpoch() == 1)
            journal.close()
        }
        let pruned = try JournalPrune.prune(path: path, olderThanDays: 0)
        #expect(pruned.commands == 3)
        let journal = try Journal(path: path, sync: .normal)
        defer { journal.close() }
        #expect(try journal.nextEpoch() == 2)
        let recorded = try #require(try JournalPositionFile.read(journal: path))
        #expect(recorded.commandSeq == 3 && recorded.epoch == 2, "\(recorded)")
    }

    @Test("the epoch goes on past the one recorded beside the journal, even when the journal's own is lower")
    func epochNeverGoesBack() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try Journal(path: path, sync: .normal)
        #expect(try journal.nextEpoch() == 1)
        var position = try #require(try JournalPositionFile.read(journal: path))
        position.epoch = 7
        try JournalPositionFile.write(position, journal: path, durably: true)
        #expect(try journal.nextEpoch() == 8)
        journal.close()
    }

    @Test("an unreadable position file is refused with what to do, not ignored")
    func unreadablePosition() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Journal(path: path, sync: .normal).close()
        try "not a position".write(toFile: path + JournalPositionFile.suffix, atomically: true, encoding: .utf8)
        let thrown = #expect(throws: JournalError.self) { _ = try Journal(path: path, sync: .normal) }
        let error = try #require(thrown)
        #expect(error.message.contains("cannot be read") && error.message.contains(".position"), "\(error)")
    }
}
