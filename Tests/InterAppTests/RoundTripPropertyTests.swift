import InterApp
import PropertyBased
import Testing

/// Property-based round trips: random valid commands → decode → URL → parse back gives the same values.
@Suite("Round-trip properties")
struct RoundTripPropertyTests {
    /// Characters that break naive URL handling, mixed with random Unicode scalars.
    static let hostile: [Character] = [
        "&", "=", "#", "?", "%", "+", " ", "/", ":", "@", "\n", "\r", "\t", "\u{0}", "\u{7F}", "😀", "é", "€",
        "\u{FEFF}",
        "\"", "\\", "'", "<", ">", "a", "Z", "0", "-", "_", ".", "~",
    ]

    /// Random non-empty strings of hostile and random characters.
    static let text = zip(Gen.bool, Gen.int(in: 0..<hostile.count), Gen.int(in: 0x20...0x10FFFF))
        .map { pick, index, scalar -> Character in
            if pick { return hostile[index] }
            return Character(Unicode.Scalar(UInt32(scalar)) ?? "?")
        }
        .string(of: 1...40)

    @Test("any string survives build-then-parse, byte for byte")
    func strings() async {
        await propertyCheck(count: 300, input: Self.text) { value in
            let terminal = TerminalCommand(
                lane: "l", action: .sale,
                parameters: [
                    Parameter("amount", "1"), Parameter("clientTransactionId", value),
                    Parameter("paymentMethod", value),
                ])
            for lane in [Fixture.iosLane, Fixture.androidLane] {
                let url = RequestURL.build(terminal, lane: lane)
                let parameters = RequestURL.parse(url)
                #expect(parameters.count == 8)
                #expect(Array(parameters[4].value.utf8) == Array(value.utf8))
                #expect(Array(parameters[5].value.utf8) == Array(value.utf8))
                #expect(parameters[2] == Parameter("action", "sale"))
            }
        }
    }

    @Test("random valid sales decode, build and parse back to their values")
    func sales() async throws {
        let gen = zip(
            Gen.int(in: 1...2_147_483_647), Gen.int(in: 0...100), Self.text.optional, Gen.bool.optional,
            Gen.int(in: 0...99), Gen.bool.optional, Self.text.optional, Gen.int(in: 0...100))
        await propertyCheck(count: 200, input: gen) {
            amount, tipPercent, clientTransactionId, withInstallments,
            installments, showReceipt, isvSecret, isvPercent in
            var object: JSONObject = [
                "id": "pos7-1", "lane": "lane-1", "action": "sale", "amount": .number(JSONNumber(amount)),
            ]
            // A tip above 0 cannot go with installments (v1.1: invalid_combination).
            let tip = withInstallments == true ? 0 : Int(Double(amount) * Double(tipPercent) / 100)
            object["tipAmount"] = .number(JSONNumber(tip))
            if let clientTransactionId { object["clientTransactionId"] = .string(clientTransactionId) }
            if let withInstallments {
                object["withInstallments"] = .bool(withInstallments)
                if withInstallments { object["preferredInstallments"] = .number(JSONNumber(installments)) }
            }
            if let showReceipt { object["show_receipt"] = .bool(showReceipt) }
            if let isvSecret {
                object["ISV_clientId"] = "client"
                object["ISV_clientSecret"] = .string(isvSecret)
                object["ISV_amount"] = .number(JSONNumber(Int(Double(amount) * Double(isvPercent) / 100)))
            }
            let frame = JSONValue.object(object).serialized()
            let command: Command
            do {
                command = try Fixture.decoder.decode(frame)
            } catch {
                Issue.record("rejected a valid sale: \(error)")
                return
            }
            let url = RequestURL.build(command.terminal!, lane: Fixture.androidLane)
            let parsed = RequestURL.parse(url)
            var expected: [Parameter] = [
                Parameter("merchantKey", Fixture.androidLane.merchantKey),
                Parameter("appId", Fixture.androidLane.appId),
                Parameter("action", "sale"),
            ]
            for (key, value) in object.pairs where !["id", "lane", "action"].contains(key) {
                switch value {
                case .string(let text): expected.append(Parameter(key, text))
                case .number(let number): expected.append(Parameter(key, number.literal))
                case .bool(let flag): expected.append(Parameter(key, flag ? "true" : "false"))
                default: Issue.record("unexpected value")
                }
            }
            if clientTransactionId == nil { expected.append(Parameter("clientTransactionId", "pos7-1")) }
            expected.append(Parameter("protocol", "int_default"))
            expected.append(Parameter("callback", "mycallbackscheme://result"))
            #expect(parsed.map(\.name) == expected.map(\.name))
            #expect(parsed.map { Array($0.value.utf8) } == expected.map { Array($0.value.utf8) })
            // Same content, other key order: same fingerprint.
            let reordered = JSONValue.object(JSONObject(object.pairs.reversed().map { ($0.key, $0.value) }))
            let again = try Fixture.decoder.decode(reordered.serialized())
            #expect(again.fingerprint == command.fingerprint)
            if isvSecret != nil {
                let stored = try JSONValue.parse(command.fingerprint)
                #expect(stored["ISV_clientSecret"] == "***")
            }
        }
    }

    @Test("JSON strings survive serialize-then-parse")
    func jsonStrings() async throws {
        await propertyCheck(count: 300, input: Self.text) { value in
            let json = JSONValue.object(["k": .string(value), "n": [1, "x", .string(value)]])
            let parsed = try JSONValue.parse(json.serialized())
            #expect(parsed == json)
        }
    }

    @Test("callback values written encoded come back exactly")
    func callbackValues() async throws {
        await propertyCheck(count: 300, input: Self.text) { value in
            var bytes = Array("interapp-callback://result?status=success&action=sale&message=".utf8)
            for byte in value.utf8 {
                let hex = Array("0123456789ABCDEF".utf8)
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
            let callback = try CallbackParser.parse(bytes)
            let trimmed = value.trimmingASCIIWhitespace()
            #expect(Array(callback.message.utf8) == Array(trimmed.utf8))
        }
    }
}

extension String {
    /// The string without leading and trailing space, tab, CR and LF (what the callback parser trims).
    fileprivate func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        while start < end && space.contains(bytes[start]) { start += 1 }
        while end > start && space.contains(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
