extension BridgeConfiguration {
    /// What differs between this (running) configuration and `candidate` that a running bridge takes only
    /// at a restart, one phrase each: lanes added, removed or changed, then the other keys by name. The log
    /// level and the client allow-list are left out: a reload applies them at once.
    public func restartDifferences(to candidate: BridgeConfiguration) -> [String] {
        var found: [String] = []
        let old = Dictionary(lanes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(candidate.lanes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let added = candidate.lanes.map(\.id).filter { old[$0] == nil }
        let removed = lanes.map(\.id).filter { new[$0] == nil }
        let changed = candidate.lanes.map(\.id).filter { id in old[id].map { $0 != new[id] } ?? false }
        if !added.isEmpty { found.append("lanes added: \(added.joined(separator: ", "))") }
        if !removed.isEmpty { found.append("lanes removed: \(removed.joined(separator: ", "))") }
        if !changed.isEmpty { found.append("lanes changed: \(changed.joined(separator: ", "))") }
        let texts: [(String, (BridgeConfiguration) -> String)] = [
            ("command", \.command), ("commandPull", { $0.commandPull ?? "" }), ("events", \.events),
            ("journal", \.journal), ("journalSync", \.journalSync.rawValue), ("log.format", \.log.format.rawValue),
            ("security", { $0.security.map { "\($0.publicKey) \($0.requireLaneKeys)" } ?? "" }),
            ("insecure", { "\($0.insecure)" }), ("http", { $0.http.map(\.description) ?? "off" }),
        ]
        var keys = texts.filter { $0.1(self) != $0.1(candidate) }.map(\.0)
        keys += Self.integerKeys.filter { self[keyPath: $0.2] != candidate[keyPath: $0.2] }.map(\.0)
        if !keys.isEmpty { found.append(keys.joined(separator: ", ")) }
        return found
    }
}
