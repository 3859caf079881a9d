import BridgeCore
import BridgeJournal
import InterApp

/// How a configuration key is spelt in the environment (docs/CONFIG.md, "Environment"): `VIVABRIDGE_`, then
/// each part of the key path with its camelCase words split by `_`, all in upper case, the parts joined by
/// `_` (`terminal.merchantKey` is `VIVABRIDGE_TERMINAL_MERCHANT_KEY`, `journalPasswordFile` is
/// `VIVABRIDGE_JOURNAL_PASSWORD_FILE`). Before 1.3 a key's words were not split
/// (`VIVABRIDGE_TERMINAL_MERCHANTKEY`): that spelling is still read, with a warning naming the new one.
public enum EnvironmentSpelling {
    /// What every variable of the configuration starts with.
    public static let prefix = "VIVABRIDGE_"

    /// One part of a key path as the environment spells it: `merchantKey` is `MERCHANT_KEY`, `pre_auth`
    /// is `PRE_AUTH`, `0` is `0`.
    public static func word(_ part: String) -> String {
        var result = ""
        var previous: Character? = nil
        for character in part {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { result += "_" }
            result += character.uppercased()
            previous = character
        }
        return result
    }

    /// The old spelling of one part (before 1.3): the part in upper case, its words not split.
    static func oldWord(_ part: String) -> String { part.uppercased() }

    /// The variable that sets the key at `path` (`["lanes", "0", "appId"]` is `VIVABRIDGE_LANES_0_APP_ID`).
    public static func variable(_ path: [String]) -> String {
        prefix + path.map(word).joined(separator: "_")
    }
}

/// A `VIVABRIDGE_` variable read as a key: its path, and whether it used the old spelling.
struct EnvironmentKey: Equatable {
    let path: [String]
    let oldSpelling: Bool
}

extension BridgeConfiguration {
    /// The sections whose keys follow theirs in a variable's name.
    private static let environmentSections: Set<String> = ["terminal", "log", "security", "lanes", "vivaCloud"]

    /// The key a variable's name (without the prefix, any case) sets, or nil when it names none.
    static func environmentKey(_ name: Substring) -> EnvironmentKey? {
        let name = Substring(name.uppercased())
        if let rest = after("TERMINAL", in: name) {
            return terminalKey(rest).map { EnvironmentKey(path: ["terminal"] + $0.path, oldSpelling: $0.oldSpelling) }
        }
        if let rest = after("LOG", in: name) { return leaf(rest, in: logKeys, under: ["log"]) }
        if let rest = after("SECURITY", in: name) {
            return leaf(rest, in: securityKeys.filter { $0 != "clients" }, under: ["security"])
        }
        if let rest = after("LANES", in: name) {
            let index = rest.prefix { $0.isASCII && $0.isNumber }
            guard !index.isEmpty, let key = after(String(index), in: rest) else { return nil }
            let lane = ["lanes", String(index)]
            if let found = leaf(key, in: laneKeys, under: lane) { return found }
            return terminalKey(key).map { EnvironmentKey(path: lane + $0.path, oldSpelling: $0.oldSpelling) }
        }
        return leaf(name, in: topLevelKeys.filter { !environmentSections.contains($0) }, under: [])
    }

    /// What follows `word_` at the start of `name`, or nil.
    private static func after(_ word: String, in name: Substring) -> Substring? {
        name.hasPrefix(word + "_") ? name.dropFirst(word.count + 1) : nil
    }

    /// The key of `keys` that `name` spells, in the current spelling or the old one.
    private static func leaf(_ name: Substring, in keys: [String], under path: [String]) -> EnvironmentKey? {
        if let key = keys.first(where: { EnvironmentSpelling.word($0) == name }) {
            return EnvironmentKey(path: path + [key], oldSpelling: false)
        }
        if let key = keys.first(where: { EnvironmentSpelling.oldWord($0) == name }) {
            return EnvironmentKey(path: path + [key], oldSpelling: true)
        }
        return nil
    }

    /// A terminal key (in `terminal:` or a lane): `MERCHANT_KEY`, `TIMEOUT_MS_PRE_AUTH`.
    private static func terminalKey(_ name: Substring) -> EnvironmentKey? {
        for (spelling, old) in [
            (EnvironmentSpelling.word("timeoutMs"), false), (EnvironmentSpelling.oldWord("timeoutMs"), true),
        ] {
            guard let action = after(spelling, in: name) else { continue }
            guard let found = TerminalAction.allCases.first(where: { EnvironmentSpelling.word($0.rawValue) == action })
            else { return nil }
            return EnvironmentKey(path: ["timeoutMs", found.rawValue], oldSpelling: old)
        }
        return leaf(name, in: terminalKeys.filter { $0 != "timeoutMs" }, under: [])
    }
}
