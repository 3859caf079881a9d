import BridgeCore
import BridgeJournal

/// Lanes that differ between two configurations, by id, in the order of the file that has them.
public struct LaneDifferences: Sendable, Equatable {
    /// Lanes only the new configuration has.
    public var added: [String] = []
    /// Lanes only the running configuration has.
    public var removed: [String] = []
    /// Lanes both have, with other settings (endpoint, platform, relay key, terminal settings).
    public var changed: [String] = []

    /// Lanes differing as given (none by default).
    public init(added: [String] = [], removed: [String] = [], changed: [String] = []) {
        self.added = added
        self.removed = removed
        self.changed = changed
    }

    /// Whether no lane differs.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// One phrase per kind of difference: `lanes added: lane-4`, …
    public var phrases: [String] {
        [("added", added), ("removed", removed), ("changed", changed)].compactMap { kind, ids in
            ids.isEmpty ? nil : "lanes \(kind): \(ids.joined(separator: ", "))"
        }
    }
}

extension BridgeConfiguration {
    /// The lanes `candidate` adds, removes or changes compared with this (running) configuration.
    public func laneDifferences(to candidate: BridgeConfiguration) -> LaneDifferences {
        let old = Dictionary(lanes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(candidate.lanes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var found = LaneDifferences()
        found.added = candidate.lanes.map(\.id).filter { old[$0] == nil }
        found.removed = lanes.map(\.id).filter { new[$0] == nil }
        found.changed = candidate.lanes.map(\.id).filter { id in old[id].map { $0 != new[id] } ?? false }
        return found
    }

    /// Whether a running bridge can take `candidate`'s lanes without a restart: its links are made with
    /// the bridge's own key, so a reload that adds, removes or replaces `security` keeps the lanes waiting
    /// for the restart too (a lane pinning a relay key must never come up plain).
    public func canReloadLanes(to candidate: BridgeConfiguration) -> Bool {
        security?.publicKey == candidate.security?.publicKey && security?.secretKey == candidate.security?.secretKey
    }

    /// What differs between this (running) configuration and `candidate` that a running bridge takes only
    /// at a restart: the keys by name, one phrase. Lanes, the log level and the client allow-list are left
    /// out: a reload applies them at once (lanes with ``canReloadLanes(to:)``; see ``laneDifferences(to:)``).
    public func restartDifferences(to candidate: BridgeConfiguration) -> [String] {
        let texts: [(String, (BridgeConfiguration) -> String)] = [
            ("command", \.command), ("commandPull", { $0.commandPull ?? "" }), ("events", \.events),
            ("journal", \.journal), ("journalSync", \.journalSync.rawValue), ("log.format", \.log.format.rawValue),
            ("security", { $0.security.map { "\($0.publicKey) \($0.requireLaneKeys)" } ?? "" }),
            ("insecure", { "\($0.insecure)" }), ("http", { $0.http.map(\.description) ?? "off" }),
            ("httpHosts", { $0.httpHosts.joined(separator: ",") }), ("instance", { $0.instance ?? "" }),
        ]
        var keys = texts.filter { $0.1(self) != $0.1(candidate) }.map(\.0)
        keys += Self.integerKeys.filter { self[keyPath: $0.2] != candidate[keyPath: $0.2] }.map(\.0)
        // The password file's path or its contents (read at load; a running journal keeps its connection's).
        if journalPasswordFile != candidate.journalPasswordFile || journalPassword != candidate.journalPassword {
            keys.append("journalPasswordFile")
        }
        if vivaCloud != candidate.vivaCloud { keys.append("vivaCloud") }
        return keys.isEmpty ? [] : [keys.joined(separator: ", ")]
    }
}
