import BridgeCore
import BridgeJournal
import InterApp

/// A `VIVABRIDGE_` variable the bridge has something to say about: one that names no configuration key but
/// looks like a misspelling of one (ignored), or one in the old spelling of a key (still read).
public struct EnvironmentWarning: Sendable, Equatable, CustomStringConvertible {
    /// Why the variable is named.
    public enum Kind: Sendable, Equatable {
        /// It names no key and is ignored; `resembles` is the nearest valid variable.
        case misspelt
        /// The spelling before 1.3 (a key's words not split): read, but `resembles` is its name now.
        case oldSpelling
    }

    /// The variable as set, e.g. `VIVABRIDGE_TERMINAL_MERCHANTKY`.
    public let name: String
    /// The valid variable it stands for, e.g. `VIVABRIDGE_TERMINAL_MERCHANT_KEY`.
    public let resembles: String
    /// Why it is named.
    public let kind: Kind

    public var description: String {
        switch kind {
        case .misspelt:
            "\(name): names no configuration key and is ignored; did you mean \(resembles)? (docs/CONFIG.md)"
        case .oldSpelling:
            "\(name): the old spelling of \(resembles), read for now; rename it \(resembles) (docs/CONFIG.md)"
        }
    }
}

extension BridgeConfiguration {
    /// The `VIVABRIDGE_` variables of `environment` worth a warning, sorted by name: those in a key's old
    /// spelling, and those that name no key but resemble one (within a small edit distance, the same words in
    /// another order, or a nested key without its section). Other variables that name no key belong to
    /// someone else (a client, a deployment tool) and are not named.
    public static func environmentWarnings(_ environment: [String: String]) -> [EnvironmentWarning] {
        environment.keys.sorted().compactMap { name in
            guard name.hasPrefix(prefix), !toolEnvironmentNames.contains(name) else { return nil }
            let rest = name.dropFirst(prefix.count)
            if let key = environmentKey(rest) {
                guard key.oldSpelling else { return nil }
                return EnvironmentWarning(
                    name: name, resembles: EnvironmentSpelling.variable(key.path), kind: .oldSpelling)
            }
            let parts = rest.split(separator: "_").map { $0.uppercased() }
            guard !parts.isEmpty else { return nil }
            return closestName(to: parts).map {
                EnvironmentWarning(name: name, resembles: prefix + $0, kind: .misspelt)
            }
        }
    }

    private static let prefix = EnvironmentSpelling.prefix

    /// The settable name (without the prefix) that `parts` most resembles, or nil.
    private static func closestName(to parts: [String]) -> String? {
        let laneIndex = parts.first { !$0.isEmpty && $0.allSatisfy(\.isNumber) } ?? "0"
        let joined = Array(parts.joined().unicodeScalars)
        var best: (name: String, distance: Int)? = nil
        for (section, leaf) in settableNames(laneIndex: laneIndex) {
            let name = (section.map { $0 + "_" } ?? "") + leaf
            let words = name.split(separator: "_").map(String.init)
            // The key's words run together (the old spelling) count as one word.
            let squashed = (section.map { $0.split(separator: "_").map(String.init) } ?? []) + [squash(leaf)]
            let distance: Int
            if words.sorted() == parts.sorted() || squashed.sorted() == parts.sorted() {
                distance = 0
            } else if let section, !section.hasPrefix("LANES"), squash(leaf).count >= 5,
                parts.joined() == squash(leaf)
            {
                distance = 0
            } else {
                let spelled = Suggestion.editDistance(joined, Array(squash(name).unicodeScalars))
                distance = spelled <= (joined.count <= 5 ? 1 : 2) ? spelled : Int.max
            }
            if distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        return best?.name
    }

    private static func squash(_ name: String) -> String { name.filter { $0 != "_" } }

    /// Every name (without the prefix, upper case) that sets a key, as its section and the key's own
    /// spelling: the lanes' under `laneIndex`, and the tools' own (no section).
    private static func settableNames(laneIndex: String) -> [(section: String?, leaf: String)] {
        let word = EnvironmentSpelling.word
        let sections: Set<String> = ["terminal", "log", "security", "lanes", "vivaCloud"]
        let timeouts = TerminalAction.allCases.map { word("timeoutMs") + "_" + word($0.rawValue) }
        let terminal = terminalKeys.filter { $0 != "timeoutMs" }.map(word) + timeouts
        var names: [(String?, String)] = topLevelKeys.filter { !sections.contains($0) }.map { (nil, word($0)) }
        names += terminal.map { ("TERMINAL", $0) }
        names += logKeys.map { ("LOG", word($0)) }
        names += securityKeys.filter { $0 != "clients" }.map { ("SECURITY", word($0)) }
        names += (laneKeys.map(word) + terminal).map { ("LANES_\(laneIndex)", $0) }
        names += toolEnvironmentNames.sorted().map { (nil, String($0.dropFirst(prefix.count))) }
        return names
    }
}
