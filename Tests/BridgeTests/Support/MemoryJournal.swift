import Foundation
import InterApp
import Synchronization

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// A journal held in memory: the third store of the seam (``JournalStore``), for tests of the rules that need
/// no file (``CorrelatorRig``). It keeps the same contract as SQLite and PostgreSQL
/// (`JournalStoreConformanceTests` runs on all three): a log of commands under rising sequence numbers,
/// outcomes appended with the latest one the command's, callbacks and open batches.
final class MemoryJournal: JournalStore {
    /// What the store holds, shared with its committers (the journal writer's thread).
    final class Log: Sendable {
        fileprivate let state = Mutex(State())
    }

    fileprivate struct Outcome {
        var outcome: InterApp.Outcome
        var orderCode: String?
    }

    fileprivate struct Callback {
        var seq: Int64
        var lane: String
        var receivedMs: Int64
        var commandSeq: Int64?
        var relay: RelayCallbackKey?
    }

    fileprivate struct State {
        var nextSeq: Int64 = 0
        var admitted: Set<String> = []
        /// Each command as it stands now, by its sequence number.
        var commands: [Int64: StoredCommand] = [:]
        var byId: [String: Int64] = [:]
        /// Each command's outcomes, the latest last.
        var outcomes: [Int64: [Outcome]] = [:]
        /// When each command's row last changed.
        var updatedMs: [Int64: Int64] = [:]
        var callbacks: [Callback] = []
        var nextCallbackSeq: Int64 = 0
        var batches: [String: OpenBatch] = [:]
        var epoch = 0
        let identity = UUID()

        mutating func apply(_ entries: [JournalEntry]) {
            for entry in entries {
                switch entry {
                case .insert(let command):
                    guard let seq = command.seq else { continue }
                    commands[seq] = command
                    byId[command.id] = seq
                    updatedMs[seq] = command.createdMs
                case .final(let command, let summary, _, let atMs):
                    guard let seq = command.seq else { continue }
                    commands[seq] = command
                    byId[command.id] = seq
                    updatedMs[seq] = atMs
                    if let outcome = command.outcome {
                        outcomes[seq, default: []].append(Outcome(outcome: outcome, orderCode: summary.orderCode))
                    }
                case .callback(let lane, let atMs, _, _, let commandSeq, _, let relay):
                    nextCallbackSeq += 1
                    callbacks.append(
                        Callback(
                            seq: nextCallbackSeq, lane: lane, receivedMs: atMs, commandSeq: commandSeq, relay: relay))
                case .batch(let lane, let batch):
                    batches[lane] = batch
                }
            }
        }

        /// The commands whose latest outcome passes `where`, newest first.
        func finished(_ where: (StoredCommand, Outcome) -> Bool) -> [StoredCommand] {
            commands.keys.sorted(by: >).compactMap { seq in
                guard let command = commands[seq], let latest = outcomes[seq]?.last, `where`(command, latest) else {
                    return nil
                }
                return command
            }
        }

        /// Whether prune may remove command `seq` at `cutoffMs`: final, not `unknown`, unchanged since.
        func removable(_ seq: Int64, cutoffMs: Int64) -> Bool {
            guard let command = commands[seq], command.state == .final, let outcome = command.outcome else {
                return false
            }
            return outcome != .unknown && (updatedMs[seq] ?? 0) < cutoffMs
        }
    }

    private let log = Log()

    var location: String { "memory" }

    func nextEpoch() throws -> Int {
        log.state.withLock { state in
            state.epoch += 1
            return state.epoch
        }
    }

    func journalIdentity() throws -> UUID { log.state.withLock { $0.identity } }

    func makeCommitter() throws -> any JournalCommitter { Committer(log: log) }

    func close() {}

    func admit(id: String) -> Int64 {
        log.state.withLock { state in
            state.nextSeq += 1
            state.admitted.insert(id)
            return state.nextSeq
        }
    }

    func commit(_ entries: [JournalEntry]) throws {
        log.state.withLock { $0.apply(entries) }
    }

    func mayHold(id: String) -> Bool {
        log.state.withLock { $0.admitted.contains(id) || $0.byId[id] != nil }
    }

    func command(id: String) throws -> StoredCommand? {
        log.state.withLock { state in state.byId[id].flatMap { state.commands[$0] } }
    }

    func lateCommand(lane: String, action: String, clientTransactionId: String, success: Bool) throws
        -> StoredCommand?
    {
        log.state.withLock { state in
            state.finished { command, latest in
                command.lane == lane && command.action.rawValue == action
                    && command.clientTransactionId == clientTransactionId
                    && (success ? latest.outcome != .success : latest.outcome == .unknown)
            }.first
        }
    }

    func preAuth(lane: String, orderCode: String) throws -> String? {
        log.state.withLock { state in
            state.finished { command, latest in
                command.lane == lane && command.action == .preAuth && latest.outcome == .success
                    && latest.orderCode == orderCode
            }.first?.id
        }
    }

    func unknownCommands(lane: String, action: String) throws -> [StoredCommand] {
        log.state.withLock { state in
            Array(
                state.finished { command, latest in
                    command.lane == lane && command.action.rawValue == action && latest.outcome == .unknown
                }.prefix(100))
        }
    }

    func outstanding() throws -> [StoredCommand] {
        log.state.withLock { state in
            state.commands.filter { state.outcomes[$0.key] == nil }.values.sorted {
                ($0.createdMs, $0.seq ?? 0) < ($1.createdMs, $1.seq ?? 0)
            }
        }
    }

    func openBatches() throws -> [String: OpenBatch] { log.state.withLock { $0.batches } }

    func recentRelayCallbacks(limit: Int) throws -> [(lane: String, key: RelayCallbackKey)] {
        log.state.withLock { state in
            state.callbacks.suffix(limit).reversed().compactMap { callback in
                callback.relay.map { (callback.lane, $0) }
            }
        }
    }

    func unknownCount() throws -> Int {
        log.state.withLock { state in state.outcomes.values.count { $0.last?.outcome == .unknown } }
    }

    func outcomeCounts(sinceMs: Int64) throws -> TodayOutcomes.Counts {
        log.state.withLock { state in
            var counts: TodayOutcomes.Counts = [:]
            for command in state.commands.values where command.state == .final && command.createdMs >= sinceMs {
                guard let outcome = command.outcome else { continue }
                counts[command.action.rawValue, default: [:]][outcome.rawValue, default: 0] += 1
            }
            return counts
        }
    }

    func pruneCommands(cutoffMs: Int64, limit: Int) throws -> Int {
        log.state.withLock { state in
            let seqs = state.commands.values
                .filter { command in
                    command.createdMs < cutoffMs && command.seq.map { state.removable($0, cutoffMs: cutoffMs) } == true
                }
                .sorted { $0.createdMs < $1.createdMs }.prefix(limit).compactMap(\.seq)
            for seq in seqs {
                if let id = state.commands.removeValue(forKey: seq)?.id { state.byId[id] = nil }
                state.outcomes[seq] = nil
                state.updatedMs[seq] = nil
            }
            return seqs.count
        }
    }

    func pruneCallbacks(cutoffMs: Int64, after: Int64, limit: Int) throws -> (removed: Int, next: Int64?) {
        log.state.withLock { state in
            let walked = state.callbacks.filter { $0.seq > after }.prefix(limit)
            let gone = Set(
                walked.filter { callback in
                    callback.receivedMs < cutoffMs
                        && (callback.commandSeq.map {
                            state.commands[$0] == nil || state.removable($0, cutoffMs: cutoffMs)
                        }
                            ?? true)
                }.map(\.seq))
            state.callbacks.removeAll { gone.contains($0.seq) }
            return (gone.count, walked.count < limit ? nil : walked.last?.seq)
        }
    }

    /// The journal writer's connection: commits into the same log, whole turns at a time.
    private struct Committer: JournalCommitter {
        let log: Log

        func commit(_ turns: [[JournalEntry]]) throws {
            log.state.withLock { state in
                for turn in turns { state.apply(turn) }
            }
        }

        func commitUnlessBusy(_ turns: [[JournalEntry]]) throws -> Bool {
            try commit(turns)
            return true
        }

        func close() {}
    }
}
