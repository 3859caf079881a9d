import InterApp
import Testing

@Suite("Request URLs")
struct RequestURLTests {
    @Test("a sale on iOS: order, protocol, callback as given")
    func iosSale() throws {
        let terminal = try Fixture.terminal(
            #"{"id":"pos7-000123","lane":"lane-1","action":"sale","amount":1200,"tipAmount":200}"#)
        let url = RequestURL.build(terminal, lane: Fixture.iosLane)
        #expect(
            url == "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=sale&amount=1200"
                + "&tipAmount=200&clientTransactionId=pos7-000123&protocol=int_default&callback=interapp-callback")
    }

    @Test(
        "Android gets a full callback URI",
        arguments: [
            ("mycallbackscheme", "mycallbackscheme%3A%2F%2Fresult"),
            ("mycallbackscheme://result", "mycallbackscheme%3A%2F%2Fresult"),
            ("pos://done", "pos%3A%2F%2Fdone"),
            ("odd:/scheme", "odd%3A%2Fscheme%3A%2F%2Fresult"),  // one slash is no "://"
        ])
    func androidCallback(configured: String, encoded: String) throws {
        let lane = LaneSettings(merchantKey: "k", appId: "a", callback: configured, platform: .android)
        let terminal = try Fixture.terminal(#"{"id":"c1","lane":"l","action":"abort"}"#)
        let url = RequestURL.build(terminal, lane: lane)
        #expect(url == "vivapayclient://pay/v1?merchantKey=k&appId=a&action=abort&callback=\(encoded)")
    }

    @Test(
        "sales, cancels and fast refunds (v1.1) carry protocol=int_default, nothing else does",
        arguments: TerminalAction.allCases)
    func protocolOnlyForSales(action: TerminalAction) throws {
        let json: String
        switch action {
        case .sale: json = #"{"id":"c1","lane":"l","action":"sale","amount":1}"#
        case .cancel: json = #"{"id":"c1","lane":"l","action":"cancel"}"#
        case .abort: json = #"{"id":"c1","lane":"l","action":"abort"}"#
        case .batch: json = #"{"id":"c1","lane":"l","action":"batch","command":"open"}"#
        case .transactionDetails:
            json = #"{"id":"c1","lane":"l","action":"transactionDetails","clientTransactionId":"x"}"#
        case .reprint: json = #"{"id":"c1","lane":"l","action":"reprint"}"#
        case .foreground: json = #"{"id":"c1","lane":"l","action":"foreground"}"#
        case .preAuth: json = #"{"id":"c1","lane":"l","action":"pre_auth","amount":1}"#
        case .capturePreAuth: json = #"{"id":"c1","lane":"l","action":"capture_pre_auth"}"#
        case .unreferencedRefund: json = #"{"id":"c1","lane":"l","action":"unreferenced_refund","amount":1}"#
        case .fastRefund: json = #"{"id":"c1","lane":"l","action":"fast_refund","amount":1}"#
        case .report: json = #"{"id":"c1","lane":"l","action":"report"}"#
        }
        let url = RequestURL.build(try Fixture.terminal(json), lane: Fixture.androidLane)
        let parameters = RequestURL.parse(url)
        #expect(
            parameters.contains(Parameter("protocol", "int_default")) == [.sale, .cancel, .fastRefund].contains(action))
        #expect(parameters[0] == Parameter("merchantKey", "SG23323424EXS3"))
        #expect(parameters[1] == Parameter("appId", "com.example.pos"))
        #expect(parameters[2] == Parameter("action", action.spec.request(for: .android).action))
        #expect(parameters.last == Parameter("callback", "mycallbackscheme://result"))
    }

    @Test("every reserved byte is percent-encoded; unreserved ones stay")
    func encoding() throws {
        let terminal = TerminalCommand(
            lane: "l", action: .sale,
            parameters: [
                Parameter("clientTransactionId", "aZ09-._~ &=#?%+/:@!$'()*,;[]\"<>\\^`{|}\n\u{0}é😀")
            ])
        let url = RequestURL.build(terminal, lane: Fixture.iosLane)
        #expect(
            url.contains(
                "clientTransactionId=aZ09-._~%20%26%3D%23%3F%25%2B%2F%3A%40%21%24%27%28%29%2A%2C%3B%5B%5D%22%3C%3E%5C%5E%60%7B%7C%7D%0A%00%C3%A9%F0%9F%98%80&"
            ))
        #expect(url.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
    }

    static let hostileValues: [String] = [
        "&", "=", "#", "?", "%", "+", " ", "a&action=cancel", "x&merchantKey=evil", "%26", "%2526", "%%", "%g1",
        "\n", "\r\n", "\u{0}", "😀", "e\u{301}", "#frag", "?q=1", "a+b", "100%", "\u{FEFF}", "\u{7F}",
        String(repeating: "9", count: 2048), String(repeating: "&=", count: 1024), String(repeating: "😀", count: 1024),
    ]

    @Test("hostile values survive build-then-parse exactly and cannot add parameters", arguments: hostileValues)
    func hostile(value: String) throws {
        let terminal = TerminalCommand(
            lane: "l", action: .sale,
            parameters: [
                Parameter("amount", "1200"), Parameter("clientTransactionId", value),
            ])
        let url = RequestURL.build(terminal, lane: Fixture.iosLane)
        let parameters = RequestURL.parse(url)
        #expect(
            parameters.map(\.name) == [
                "merchantKey", "appId", "action", "amount", "clientTransactionId", "protocol", "callback",
            ])
        let decoded = try #require(parameters.first { $0.name == "clientTransactionId" }?.value)
        #expect(Array(decoded.utf8) == Array(value.utf8))
        #expect(RequestURL.value(of: "action", in: url) == "sale")
    }

    @Test("hostile lane settings cannot inject either")
    func hostileLane() throws {
        let lane = LaneSettings(merchantKey: "k&action=cancel", appId: "a=b", callback: "cb?x=1#y", platform: .ios)
        let url = RequestURL.build(try Fixture.terminal(#"{"id":"c1","lane":"l","action":"abort"}"#), lane: lane)
        #expect(
            RequestURL.parse(url) == [
                Parameter("merchantKey", "k&action=cancel"), Parameter("appId", "a=b"), Parameter("action", "abort"),
                Parameter("callback", "cb?x=1#y"),
            ])
    }

    @Test("a 2048-character clientTransactionId from a command round-trips")
    func longClientTransactionId() throws {
        let id = String(repeating: "Ab&=%+ 😀", count: 256).prefix(2048 - 256)
        let json = JSONValue.object([
            "id": "c1", "lane": "l", "action": "sale", "amount": 1200, "clientTransactionId": .string(String(id)),
        ]).serializedString
        let terminal = try Fixture.terminal(json)
        let url = RequestURL.build(terminal, lane: Fixture.androidLane)
        #expect(RequestURL.value(of: "clientTransactionId", in: url) == String(id))
    }

    @Test("the parser follows its rules: + is a plus, bad escapes stay, no trimming")
    func parseRules() {
        #expect(
            RequestURL.parse("x://y?a=1+2&b=%zz&c=%E9&d&&e=%2520& f =g") == [
                Parameter("a", "1+2"), Parameter("b", "%zz"), Parameter("c", "%E9"), Parameter("d", ""),
                Parameter("e", "%20"), Parameter(" f ", "g"),
            ])
        #expect(RequestURL.parse("no query").isEmpty)
        #expect(RequestURL.parse("x://y?").isEmpty)
    }
}
