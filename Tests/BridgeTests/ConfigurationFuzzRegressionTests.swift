import Foundation
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

@Suite("Configuration: inputs the fuzzer found (scripts/fuzz config-loader)")
struct ConfigurationFuzzRegressionTests {
    /// Found by `scripts/fuzz config-loader` (a 10 s timeout): an alias bomb whose aliases are mapping keys
    /// (`[?*a7]`). Yams hashes every mapping key whole to look for duplicates, so composing it took minutes
    /// before the 200,000-value limit was ever checked; it is now counted on libyaml's events first.
    static let aliasKeyBomb = [
        "$:",
        " - - a0: &a0 [x, x, x, x, x, x, x, x, x, x]",
        "a1: &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]",
        "a2: &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a0]",
        "a2: &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]",
        "a3: &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]",
        "a4 ? : &a4 [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]",
        "a5: &a5 [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4]",
        "a6: &a6 [*a5, *a5, *a5, *a1, *a1, *a1]",
        "a3: &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]",
        "a4: &a4 [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]",
        "a5: &a5 [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4]",
        "a6: &a6 [*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]",
        "a7: &a7 [*a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6]",
        "a8: &a8 [*a7, *a7, ?*a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7]",
        "a9: &a9 [*a8, *a8, *a8, *a8, *a8, *a8, *a8, *a8, *a8, *--a8]",
        " -",
    ].joined(separator: "\n")

    @Test("an alias bomb with aliases as mapping keys is refused at once")
    func aliasKeyBombIsRefusedFast() {
        expectRefusedFast(Self.aliasKeyBomb)
    }

    @Test("a short one: mapping keys that are aliases of nine levels of ten")
    func smallestAliasKeyBomb() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            text += "a\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", "))]\n"
        }
        expectRefusedFast(text + "k: [?*a9, ?*a9]\n")
    }

    @Test("the count: every scalar, sequence and mapping, an alias counting what its anchor holds")
    func expansionCount() {
        let text = """
            terminal: &t {merchantKey: K, appId: a, callback: interapp-callback}
            lanes:
              - {id: a, endpoint: "tcp://127.0.0.1:1", platform: ios}
            x: &x [1, 2, 3]
            """
        #expect(YAMLExpansion.exceeds(text, limit: 23) == false)  // 1 + 8 + 9 + 5
        #expect(YAMLExpansion.exceeds(text, limit: 22) == true)
        #expect(YAMLExpansion.exceeds(text + "\ny: [*x, *x, *x]\n", limit: 37) == false)  // + 1 + 1 + 3 × 4
        #expect(YAMLExpansion.exceeds(text + "\ny: [*x, *x, *x]\n", limit: 36) == true)
    }

    private func expectRefusedFast(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let started = ContinuousClock.now
        do {
            _ = try BridgeConfiguration.load(yaml: yaml)
            Issue.record("accepted", sourceLocation: sourceLocation)
        } catch {
            #expect("\(error)".contains("expands to more than"), "\(error)", sourceLocation: sourceLocation)
        }
        #expect(ContinuousClock.now - started < .seconds(2), sourceLocation: sourceLocation)
    }
}
