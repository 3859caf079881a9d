import InterApp
import Testing

@testable import BridgeHTTP

/// The lanes page's words for a lane's last result (docs/OPERATIONS.md, "The lanes page"): the tables its
/// script reads, and what a badge says. scripts/page-check shows the same rows in a browser.
@Suite("Lanes page: what a lane's last result says")
struct LanesPageTests {
    @Test("a batch, a look-up, a reprint say their action and outcome; only a money action is Approved")
    func lastResultBadges() {
        #expect(LastResultLabel.text(action: .batch, outcome: .success) == "Batch done")
        #expect(LastResultLabel.text(action: .batch, outcome: .failure) == "Batch failed")
        #expect(LastResultLabel.text(action: .transactionDetails, outcome: .success) == "Look-up done")
        #expect(LastResultLabel.text(action: .reprint, outcome: .success) == "Reprint done")
        #expect(LastResultLabel.text(action: .sale, outcome: .success) == "Approved")
        #expect(LastResultLabel.text(action: .sale, outcome: .failure) == "Declined")
        #expect(LastResultLabel.text(action: .batch, outcome: .unknown) == "Unknown: check")
        for action in TerminalAction.allCases where !LastResultLabel.moneyActions.contains(action) {
            for outcome in Outcome.allCases {
                #expect(LastResultLabel.text(action: action, outcome: outcome) != "Approved", "\(action) \(outcome)")
            }
        }
    }

    @Test("the page's script gets the badges by action then outcome, and chooses a badge by both")
    func pageCarriesTheBadges() throws {
        let badges = try #require(
            try JSONValue.parse(LastResultLabel.badgesTable).objectValue, "the badges table is no JSON object")
        #expect(badges["batch"]?.objectValue?["success"]?.stringValue == "Batch done")
        #expect(badges["sale"]?.objectValue?["success"]?.stringValue == "Approved")
        #expect(badges.count == TerminalAction.allCases.count)
        #expect(LanesPage.html.contains("const BADGES = \(LastResultLabel.badgesTable);"))
        #expect(LanesPage.html.contains("(BADGES[r.action] || {})[r.outcome]"))
        #expect(LanesPage.html.contains("${esc(badge(r))}"), "the last result's badge is chosen by action and outcome")
    }

    @Test("the day cards count the money actions of the bridge's one list, by kind")
    func pageCarriesTheMoneyKinds() throws {
        let kinds = try #require(try JSONValue.parse(LastResultLabel.moneyKindsTable).objectValue)
        let listed = ["payments", "holds", "refunds"].flatMap { kind in
            (kinds[kind]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(TerminalAction.init(rawValue:)) }
        }
        #expect(Set(listed) == LastResultLabel.moneyActions)
        #expect(listed.count == LastResultLabel.moneyActions.count, "each money action on one card kind only")
        #expect(kinds["payments"]?.arrayValue?.first?.stringValue == "sale")
        #expect(LanesPage.html.contains("const MONEY_KINDS = \(LastResultLabel.moneyKindsTable);"))
        #expect(!LanesPage.html.contains("\"unreferenced_refund\", \"fast_refund\"]"), "no list of the page's own")
    }
}
