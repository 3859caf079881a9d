import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Callback encodings: realistic quirks and clean")
struct EncodingTests {
    @Test("clean percent-encodes every value and has no stray spaces", arguments: SimulatorPlatform.allCases)
    func clean(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform, behaviour: LaneBehaviour(encoding: .clean))
        let probe = fixture.probe()
        let sale = try probe.request(Requests.sale(amount: 1200, clientTransactionId: "a+b c&d=é", platform: platform))
        let reference = try #require(CallbackFields(sale)["referenceNumber"])
        let declined = try probe.request(Requests.sale(amount: 1051, platform: platform))
        let cancel = try probe.request(
            Requests.url(action: "cancel", [("referenceNumber", reference)], platform: platform))
        let abort = try probe.request(Requests.url(action: "abort", platform: platform))
        for url in [sale, declined, cancel, abort] {
            #expect(!url.contains(" "), "\(url)")
            #expect(!url.contains("+"), "\(url)")
            #expect(!url.contains("*"), "\(url)")
            #expect(Self.everyValueIsClean(url), "\(url)")
        }
        let fields = CallbackFields(sale)
        #expect(fields["clientTransactionId"] == "a+b c&d=é")
        #expect(fields["transactionDate"] == "2026-11-21T12:14:19.8703452+02:00")
        #expect(sale.contains("transactionDate=2026-11-21T12%3A14%3A19.8703452%2B02%3A00"))
        #expect(fields["accountNumber"]?.contains("******") == true)
        #expect(CallbackFields(cancel)["amount"] == "1200")
    }

    @Test("realistic keeps raw + and *, and the documented spaces", arguments: SimulatorPlatform.allCases)
    func realistic(platform: SimulatorPlatform) throws {
        let fixture = try Fixture(platform)
        let probe = fixture.probe()
        let sale = try probe.request(Requests.sale(amount: 1200, clientTransactionId: "a+b c&d=é", platform: platform))
        #expect(sale.contains("+02:00"))
        #expect(sale.contains("******"))
        // Echoed values still come back whole: `&` and `=` escaped, `+` raw, spaces per dialect.
        #expect(
            sale.contains(
                platform == .ios
                    ? "clientTransactionId=a+b%20c%26d%3D%C3%A9&" : "clientTransactionId=a+b c%26d%3D%C3%A9&"))
        #expect(CallbackFields(sale)["clientTransactionId"] == "a+b c&d=é")
        let declined = try probe.request(Requests.sale(amount: 1051, platform: platform))
        #expect(declined.contains("& accountNumber="))
    }

    /// Every value holds only unreserved characters and escapes.
    static func everyValueIsClean(_ url: String) -> Bool {
        guard let query = url.split(separator: "?", maxSplits: 1).last else { return false }
        return query.split(separator: "&").allSatisfy { pair in
            pair.split(separator: "=", maxSplits: 1).last.map { value in
                value.unicodeScalars.allSatisfy {
                    CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-._~%".unicodeScalars.contains($0)
                }
            } ?? true
        }
    }
}
