import InterApp
import Testing

@Suite("Command decoding")
struct CommandDecoderTests {
    @Test("a sale keeps the parameters in command order, as URL text")
    func saleParameters() throws {
        let command = try Fixture.decode(
            #"{"id":"pos7-000123","lane":"lane-1","action":"sale","tipAmount":200,"amount":1200,"show_receipt":false,"paymentMethod":"MOTO","timeoutMs":90000}"#
        )
        #expect(command.id == "pos7-000123")
        #expect(command.action == "sale")
        #expect(command.timeoutMs == 90000)
        #expect(command.lane == "lane-1")
        #expect(!command.isQuery)
        let terminal = try #require(command.terminal)
        #expect(terminal.action == .sale)
        #expect(
            terminal.parameters == [
                Parameter("tipAmount", "200"), Parameter("amount", "1200"), Parameter("show_receipt", "false"),
                Parameter("paymentMethod", "MOTO"), Parameter("clientTransactionId", "pos7-000123"),
            ])
        #expect(terminal.clientTransactionId == "pos7-000123")
        #expect(terminal.parameter("amount") == "1200")
        #expect(terminal.parameter("nope") == nil)
    }

    @Test("a sale's own clientTransactionId wins over the id")
    func ownClientTransactionId() throws {
        let terminal = try Fixture.terminal(
            #"{"id":"c1","lane":"l","action":"sale","clientTransactionId":"mine","amount":5}"#)
        #expect(terminal.clientTransactionId == "mine")
        #expect(terminal.parameters.count == 2)
    }

    @Test("only sales get the id as clientTransactionId")
    func noFillForOtherActions() throws {
        #expect(try Fixture.terminal(#"{"id":"c1","lane":"l","action":"cancel"}"#).clientTransactionId == nil)
        #expect(try Fixture.terminal(#"{"id":"c1","lane":"l","action":"abort"}"#).parameters.isEmpty)
        let details = try Fixture.terminal(
            #"{"id":"c1","lane":"l","action":"transactionDetails","clientTransactionId":"pos7-9"}"#)
        #expect(details.clientTransactionId == "pos7-9")
    }

    @Test("strings pass verbatim, any Unicode")
    func strings() throws {
        let terminal = try Fixture.terminal(
            #"{"id":"c1","lane":"l","action":"sale","amount":1,"ISV_customerTrns":"Καφές & κέικ = 3€ \ud83d\ude00\n","ISV_clientId":"c","ISV_clientSecret":"s","ISV_amount":0}"#
        )
        #expect(terminal.parameter("ISV_customerTrns") == "Καφές & κέικ = 3€ 😀\n")
    }

    @Test("queries")
    func queries() throws {
        #expect(try Fixture.decode(#"{"id":"q","action":"status","ref":"pos7-1"}"#).body == .status(ref: "pos7-1"))
        #expect(try Fixture.decode(#"{"id":"q","action":"lanes"}"#).body == .lanes)
        let ping = try Fixture.decode(#"{"id":"q","action":"ping"}"#)
        #expect(ping.body == .ping)
        #expect(ping.isQuery)
        #expect(ping.lane == nil)
    }

    @Test("negative zero and other integer spellings become plain decimal")
    func integerText() throws {
        let terminal = try Fixture.terminal(#"{"id":"c1","lane":"l","action":"sale","amount":7,"tipAmount":-0}"#)
        #expect(terminal.parameter("tipAmount") == "0")
    }

    @Test("the action table covers every action and names unique parameters")
    func actionTable() {
        for action in TerminalAction.allCases {
            let spec = action.spec
            #expect(spec.action == action)
            #expect(Set(spec.parameters.map(\.name)).count == spec.parameters.count)
            for parameter in spec.parameters {
                #expect(spec.parameter(named: parameter.name) == parameter)
                #expect(
                    !["merchantKey", "appId", "callback", "protocol", "id", "lane", "action", "timeoutMs"].contains(
                        parameter.name))
            }
            #expect(!spec.platforms.isEmpty)
        }
        #expect(ActionSpec.sale.request(for: .ios).trailing == [Parameter("protocol", "int_default")])
        #expect(ActionSpec.transactionDetails.supports(.android))
        #expect(!ActionSpec.transactionDetails.supports(.ios))
    }
}

@Suite("Command fingerprint")
struct FingerprintTests {
    @Test("stable under key reordering, whitespace and escaping")
    func stable() throws {
        let a = try Fixture.decode(#"{"id":"c1","lane":"l","action":"sale","amount":1200,"tipAmount":200}"#)
        let b = try Fixture.decode(
            #"  { "tipAmount" : 200 , "amount":1200, "action":"sale", "lane":"\u006c", "id":"c1" } "#)
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.fingerprint == #"{"action":"sale","amount":1200,"id":"c1","lane":"l","tipAmount":200}"#)
    }

    @Test(
        "differs when content differs",
        arguments: [
            #"{"id":"c1","lane":"l","action":"sale","amount":1201,"tipAmount":200}"#,
            #"{"id":"c1","lane":"l","action":"sale","amount":1200,"tipAmount":201}"#,
            #"{"id":"c1","lane":"l2","action":"sale","amount":1200,"tipAmount":200}"#,
            #"{"id":"c1","lane":"l","action":"sale","amount":1200}"#,
            #"{"id":"c1","lane":"l","action":"sale","amount":1200,"tipAmount":200,"timeoutMs":5000}"#,
            #"{"id":"c1","lane":"l","action":"sale","amount":1200,"tipAmount":200,"clientTransactionId":"c1"}"#,
        ])
    func differs(other: String) throws {
        let base = try Fixture.decode(#"{"id":"c1","lane":"l","action":"sale","amount":1200,"tipAmount":200}"#)
        #expect(try Fixture.decode(other).fingerprint != base.fingerprint)
    }

    @Test("never contains the ISV secret")
    func noSecret() throws {
        let command = try Fixture.decode(
            #"{"id":"c1","lane":"l","action":"sale","amount":1200,"ISV_clientId":"cid","ISV_clientSecret":"qwerty123456","ISV_amount":10}"#
        )
        #expect(!command.fingerprint.contains("qwerty123456"))
        #expect(command.fingerprint.contains(#""ISV_clientSecret":"***""#))
        let parsed = try JSONValue.parse(command.fingerprint)
        #expect(parsed["amount"] == 1200)
    }
}

@Suite("Secrets never print")
struct SecretPrintingTests {
    static let secret = "qwerty123456"
    static let json =
        #"{"id":"c1","lane":"l","action":"sale","amount":1200,"ISV_clientId":"cid","ISV_clientSecret":"qwerty123456","ISV_amount":10}"#

    @Test("Command description, debugDescription, dump and interpolation")
    func command() throws {
        let command = try Fixture.decode(Self.json)
        var dumped = ""
        dump(command, to: &dumped)
        let renderings = [
            command.description, command.debugDescription, String(describing: command), String(reflecting: command),
            "\(command)", dumped, String(describing: command.body), String(describing: command.terminal!),
            String(reflecting: command.terminal!), String(describing: command.terminal!.parameters),
            String(reflecting: command.terminal!.parameters),
        ]
        for text in renderings {
            #expect(!text.contains(Self.secret), "\(text)")
        }
        #expect(command.description.contains("ISV_clientSecret=***"))
        #expect(command.terminal!.parameter("ISV_clientSecret") == Self.secret)  // the URL still needs it
    }

    @Test("LaneSettings never shows the merchant key")
    func lane() {
        let lane = LaneSettings(merchantKey: "SG23323424EXS3", appId: "a", callback: "cb", platform: .ios)
        var dumped = ""
        dump(lane, to: &dumped)
        for text in [
            lane.description, lane.debugDescription, String(describing: lane), String(reflecting: lane), dumped,
        ] {
            #expect(!text.contains("SG23323424EXS3"), "\(text)")
        }
    }
}
