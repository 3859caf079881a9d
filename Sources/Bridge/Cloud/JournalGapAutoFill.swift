import BridgeCore
import BridgeJournal
import Dispatch
import Foundation
import Logging
import Synchronization
import VivaCloud
import ZeroMQ

/// At start, a journal file behind its recorded position (a backup restored) is filled from Viva's records
/// when the configuration has `vivaCloud`, as `vivabridge journal fill-gap` does (``JournalGap/fill``), before
/// the journal is opened. When it cannot be (Viva unreachable, a backup too old), nothing is changed and the
/// journal is refused as before, naming the way out.
enum JournalGapAutoFill {
    /// Who the record names as having filled the gap.
    static let filler = "vivabridge at start, from Viva's records"

    /// Fills the gap of `configuration`'s journal when it has one and Viva's records can be asked; logs what
    /// it did or why it could not.
    static func fillIfBehind(_ configuration: BridgeConfiguration, logger: Logger) {
        guard !configuration.journalIsShared, let cloud = configuration.vivaCloud else { return }
        let path = configuration.journal
        guard FileManager.default.fileExists(atPath: path), (try? JournalGap.refusal(path: path)) != nil else {
            return
        }
        do {
            let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
            let newest = try JournalGap.newestCommandMs(path: path) ?? now - 86_400_000
            let days = JournalGap.vivaDays(fromMs: newest, toMs: now)
            guard days.count <= JournalGap.maxFillDays else {
                logger.error(
                    "the journal is behind its recorded position and its newest command is too old to fill from Viva's records",
                    metadata: ["journal": "\(path)", "days": "\(days.count)"])
                return
            }
            let transactions = try list(cloud, days: days)
            guard let filled = try JournalGap.fill(path: path, by: filler, transactions: transactions) else { return }
            logger.notice(
                "the journal was behind its recorded position; its gap was filled from Viva's records",
                metadata: [
                    "journal": "\(path)", "added": "\(filled.counts.references.count)",
                    "success": "\(filled.counts.added["success"] ?? 0)",
                    "failure": "\(filled.counts.added["failure"] ?? 0)",
                    "unknown": "\(filled.counts.added["unknown"] ?? 0)",
                    "days": "\(days.first ?? "-")..\(days.last ?? "-")",
                    "record": "\(filled.accepted.key)",
                ])
        } catch {
            logger.error(
                "the journal is behind its recorded position and could not be filled from Viva's records; nothing was changed",
                metadata: ["journal": "\(path)", "error": "\(error)"])
        }
    }

    /// Viva's transactions of `days`, waited for on a thread of their own (a start is synchronous).
    private static func list(_ cloud: VivaCloudConfiguration, days: [String]) throws -> [DayTransaction] {
        let executor = ThreadTaskExecutor(name: "gap-fill")
        defer { executor.stop() }
        let result = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) {
            do {
                result.set(.success(try await cloud.transactions(onDays: days)))
            } catch {
                result.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        return try result.get()
    }

    private final class ResultBox: Sendable {
        private let value = Mutex<Result<[DayTransaction], any Error>>(.success([]))

        func set(_ new: Result<[DayTransaction], any Error>) { value.withLock { $0 = new } }
        func get() throws -> [DayTransaction] { try value.withLock { $0 }.get() }
    }
}
