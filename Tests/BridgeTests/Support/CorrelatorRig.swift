import Foundation
import InterApp
import Logging

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// A correlator over a journal in memory (``MemoryJournal``) with no sockets and no file: commands and relay
/// frames go in, effects come out, and ``commit(_:)`` does what the loop does with a turn's journal entries.
final class CorrelatorRig {
    let journal = MemoryJournal()
    let clock = ManualBridgeClock(startMs: 1_700_000_000_000)
    let correlator: Correlator
    /// The ROUTER peer every command comes from unless told otherwise.
    static let client = ReplyTarget.router(envelope: [Array("client-1".utf8)])

    /// One lane, `lane-1`, on `platform`, whose link is up; the correlator logs to `logger`.
    init(
        platform: Platform = .ios,
        logger: Logger = Logger(label: "correlator-rig", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        var configuration = BridgeConfiguration()
        configuration.journal = journal.location
        configuration.lanes = [LaneConfiguration(id: "lane-1", endpoint: "tcp://127.0.0.1:1", platform: platform)]
        correlator = Correlator(
            configuration: configuration.correlation, store: CommandStore(journal: journal, logger: logger),
            clock: clock,
            logger: logger, metrics: LoopMetrics(BridgeMetrics(lanes: ["lane-1"])))
        try correlator.restore()
        Self.bringUp(correlator)
        _ = correlator.takeEffects()
    }

    /// The relay's answer to the bridge's `hello`.
    static let relayHello = RelayMessage.hello(body: Array(#"{"platform":"ios","app":"rig","version":"1"}"#.utf8))

    /// Brings `lane`'s link up as the loop and a relay do: the handshake, then the relay's answer to `hello`.
    static func bringUp(_ correlator: Correlator, lane: String = "lane-1") {
        correlator.linkUp(lane)
        correlator.receiveFromRelay(lane: lane, frames: relayHello.frames)
    }

    /// Hands one command to the correlator and returns the effects it decided.
    func receive(_ json: String, from target: ReplyTarget = client) -> [Effect] {
        correlator.receiveCommand(Array(json.utf8), from: target)
        return correlator.takeEffects()
    }

    /// Hands one relay message of `lane-1` to the correlator and returns the effects it decided.
    func relay(_ message: RelayMessage) -> [Effect] {
        correlator.receiveFromRelay(lane: "lane-1", frames: message.frames)
        return correlator.takeEffects()
    }

    /// Advances the clock by `ms`, lets the correlator end what is due, and returns the effects it decided.
    func tick(afterMs ms: Int64) -> [Effect] {
        clock.advance(byMs: ms)
        correlator.tick()
        return correlator.takeEffects()
    }

    /// Commits a turn's journal entries, as the loop does before anything of the turn leaves.
    func commit(_ effects: [Effect]) throws {
        var entries: [JournalEntry] = []
        for case .journal(let entry) in effects { entries.append(entry) }
        try journal.commit(entries)
        correlator.journalCommitted()
    }

    /// The replies among `effects`, parsed.
    static func replies(_ effects: [Effect]) throws -> [JSONObject] {
        var replies: [JSONObject] = []
        for case .reply(_, _, let bytes) in effects {
            guard case .object(let reply) = try JSONValue.parse(bytes) else { continue }
            replies.append(reply)
        }
        return replies
    }

    /// The relay messages among `effects`.
    static func sends(_ effects: [Effect]) -> [RelayMessage] {
        var sends: [RelayMessage] = []
        for case .send(_, let message, _) in effects { sends.append(message) }
        return sends
    }
}
