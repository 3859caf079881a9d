import InterApp

/// A `VIVABRIDGE_` variable that names no configuration key but looks like a misspelling of one: the bridge
/// ignores it and says which key it resembles.
public struct EnvironmentWarning: Sendable, Equatable, CustomStringConvertible {
    /// The variable as set, e.g. `VIVABRIDGE_TERMINAL_MERCHANTKY`.
    public let name: String
    /// The variable it resembles, e.g. `VIVABRIDGE_TERMINAL_MERCHANTKEY`.
    public let resembles: String

    public var description: String {
        "\(name): names no configuration key and is ignored; did you mean \(resembles)? (docs/CONFIG.md)"
    }
}

extension BridgeConfiguration {
    /// The `VIVABRIDGE_` variables of `environment` that name no key but resemble one (within a small edit
    /// distance, the same words in another order, or a nested key without its section), sorted by name.
    /// Other variables that name no key belong to someone else (a client, a deployment tool) and are not named.
    public static func environmentWarnings(_ environment: [String: String]) -> [EnvironmentWarning] {
        environment.keys.sorted().compactMap { name in
            guard name.hasPrefix(prefix), !toolEnvironmentNames.contains(name) else { return nil }
            let parts = name.dropFirst(prefix.count).split(separator: "_").map { $0.uppercased() }
            guard !parts.isEmpty, resolve(parts) == nil else { return nil }
            return closestName(to: parts).map { EnvironmentWarning(name: name, resembles: prefix + $0) }
        }
    }

    private static let prefix = "VIVABRIDGE_"

    /// The settable name (without the prefix) that `parts` most resembles, or nil.
    private static func closestName(to parts: [String]) -> String? {
        let laneIndex = parts.first { !$0.isEmpty && $0.allSatisfy(\.isNumber) } ?? "0"
        let joined = Array(parts.joined().unicodeScalars)
        var best: (name: String, distance: Int)? = nil
        for candidate in settableNames(laneIndex: laneIndex) {
            let words = candidate.split(separator: "_").map(String.init)
            let distance: Int
            if words.sorted() == parts.sorted() {
                distance = 0
            } else if words.count > 1, words[0] != "LANES", let leaf = words.last, leaf.count >= 5,
                parts.joined() == leaf
            {
                distance = 0
            } else {
                let spelled = Suggestion.editDistance(joined, Array(words.joined().unicodeScalars))
                distance = spelled <= (joined.count <= 5 ? 1 : 2) ? spelled : Int.max
            }
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Every name (without the prefix, upper case) that sets a key, the lanes' under `laneIndex`, and the
    /// tools' own.
    private static func settableNames(laneIndex: String) -> [String] {
        let sections: Set<String> = ["terminal", "log", "security", "lanes"]
        let timeouts = TerminalAction.allCases.map { "TIMEOUTMS_" + $0.rawValue.uppercased() }
        let terminal = terminalKeys.filter { $0 != "timeoutMs" }.map { $0.uppercased() } + timeouts
        var names = topLevelKeys.filter { !sections.contains($0) }.map { $0.uppercased() }
        names += terminal.map { "TERMINAL_" + $0 }
        names += logKeys.map { "LOG_" + $0.uppercased() }
        names += securityKeys.filter { $0 != "clients" }.map { "SECURITY_" + $0.uppercased() }
        names += (laneKeys.map { $0.uppercased() } + terminal).map { "LANES_\(laneIndex)_" + $0 }
        names += toolEnvironmentNames.sorted().map { String($0.dropFirst(prefix.count)) }
        return names
    }
}
