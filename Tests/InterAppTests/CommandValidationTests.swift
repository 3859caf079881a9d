import InterApp
import Testing

/// One row of a validation table: a command and the code it must get (`nil`: accepted).
struct ValidationCase: CustomTestStringConvertible, Sendable {
    let json: String
    let code: RejectionCode?
    init(_ json: String, _ code: RejectionCode?) {
        self.json = json
        self.code = code
    }
    var testDescription: String { "\(code?.rawValue ?? "accepted"): \(json.prefix(100))" }
}

private let sale = #""id":"c1","lane":"lane-1","action":"sale""#
private let isv = #""ISV_clientId":"cid","ISV_clientSecret":"s3cret","ISV_amount":10"#
private let longId = String(repeating: "x", count: 2048)

@Suite("Command validation rules")
struct CommandValidationTests {
    static let accepted: [ValidationCase] = [
        ValidationCase(#"{\#(sale),"amount":1200}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1}"#, nil),
        ValidationCase(#"{\#(sale),"amount":2147483647}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,"tipAmount":0}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,"tipAmount":1200}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,"withInstallments":true,"preferredInstallments":0}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,"withInstallments":true,"preferredInstallments":99}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,"withInstallments":false}"#, nil),
        ValidationCase(
            #"{\#(sale),"amount":1200,"show_receipt":true,"show_rating":false,"show_transaction_result":true}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,"paymentMethod":"CardPresent"}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,\#(isv)}"#, nil),
        ValidationCase(
            #"{\#(sale),"amount":1200,\#(isv),"ISV_sourceCode":"Default","ISV_merchantId":"m","ISV_merchantSourceCode":"s","ISV_customerTrns":"desc","ISV_clientTransactionId":"t"}"#,
            nil),
        ValidationCase(#"{\#(sale),"amount":10,"ISV_clientId":"c","ISV_clientSecret":"s","ISV_amount":10}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,"clientTransactionId":"\#(longId)"}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,"clientTransactionId":"a&b=c#d?e%f+g h\n\u0000😀"}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,"timeoutMs":1000}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,"timeoutMs":600000}"#, nil),
        ValidationCase(#"{"id":"c1","lane":"l","action":"cancel"}"#, nil),
        ValidationCase(
            #"{"id":"c1","lane":"l","action":"cancel","referenceNumber":"060646","amount":1200,"orderCode":"9256110059000200","shortOrderCode":"1091166300","txnDateFrom":"2024-05-01","txnDateTo":"2024-05-02T23:59:59+03:00"}"#,
            nil),
        ValidationCase(#"{"id":"c1","lane":"l","action":"abort"}"#, nil),
        ValidationCase(#"{"id":"c1","lane":"l","action":"batch","command":"open"}"#, nil),
        ValidationCase(#"{"id":"c1","lane":"l","action":"batch","command":"open","batchName":"morningShift"}"#, nil),
        ValidationCase(
            #"{"id":"c1","lane":"l","action":"batch","command":"close","batchId":"7885F4F1-59CA-42C2-81BB-6DB48AA138A6"}"#,
            nil),
        ValidationCase(#"{"id":"c1","lane":"l","action":"batch","command":"close"}"#, nil),
        ValidationCase(#"{"id":"c1","lane":"l","action":"transactionDetails","clientTransactionId":"pos7-1"}"#, nil),
        ValidationCase(
            #"{"id":"c1","lane":"l","action":"transactionDetails","clientTransactionId":"x","sourceTerminalId":"16016684"}"#,
            nil),
        ValidationCase(#"{"id":"q1","action":"status","ref":"c1"}"#, nil),
        ValidationCase(#"{"id":"q1","action":"lanes"}"#, nil),
        ValidationCase(#"{"id":"q1","action":"ping"}"#, nil),
        ValidationCase(#"{"id":"q1","action":"ping","timeoutMs":5000}"#, nil),
        ValidationCase(#"{"id":"\#(String(repeating: "i", count: 128))","action":"ping"}"#, nil),
        ValidationCase(#"{"id":"pos7-000123:/!~{}","action":"ping"}"#, nil),
        ValidationCase(" \n{\"id\":\"w\",\"action\":\"ping\"}\n ", nil),
    ]

    static let rejected: [ValidationCase] = [
        // Frame and JSON
        ValidationCase("", .invalidJSON),
        ValidationCase("[]", .invalidJSON),
        ValidationCase(#""sale""#, .invalidJSON),
        ValidationCase("{bad", .invalidJSON),
        ValidationCase(#"{\#(sale),"amount":1200,}"#, .invalidJSON),
        ValidationCase(#"{\#(sale),"amount":1200,"amount":120000}"#, .invalidJSON),
        // id
        ValidationCase(#"{"lane":"l","action":"sale","amount":1}"#, .missingField),
        ValidationCase(#"{"id":7,"action":"ping"}"#, .invalidValue),
        ValidationCase(#"{"id":null,"action":"ping"}"#, .invalidValue),
        ValidationCase(#"{"id":"","action":"ping"}"#, .invalidValue),
        ValidationCase(#"{"id":"a b","action":"ping"}"#, .invalidValue),
        ValidationCase(#"{"id":"é","action":"ping"}"#, .invalidValue),
        ValidationCase(#"{"id":"a\tb","action":"ping"}"#, .invalidValue),
        ValidationCase(#"{"id":"\#(String(repeating: "i", count: 129))","action":"ping"}"#, .invalidValue),
        // action
        ValidationCase(#"{"id":"c1","lane":"l"}"#, .missingField),
        ValidationCase(#"{"id":"c1","action":5}"#, .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"l","action":"Sale","amount":1}"#, .unknownAction),
        ValidationCase(#"{"id":"c1","lane":"l","action":"refund","amount":1}"#, .unknownAction),
        ValidationCase(#"{"id":"c1","lane":"l","action":"send_money_fast_refund","amount":1}"#, .unknownAction),
        // lane
        ValidationCase(#"{"id":"c1","action":"sale","amount":1200}"#, .missingField),
        ValidationCase(#"{"id":"c1","lane":3,"action":"sale","amount":1200}"#, .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"","action":"sale","amount":1200}"#, .invalidValue),
        // amount
        ValidationCase(#"{\#(sale)}"#, .missingField),
        ValidationCase(#"{\#(sale),"amount":"1200"}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":12.0}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1.2e3}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200e0}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":0}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":-1}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":2147483648}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":99999999999999999999999}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":null}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":true}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":[1200]}"#, .invalidValue),
        // tipAmount
        ValidationCase(#"{\#(sale),"amount":1200,"tipAmount":1201}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"tipAmount":-1}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"tipAmount":"200"}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"tipAmount":2.5}"#, .invalidValue),
        // installments
        ValidationCase(#"{\#(sale),"amount":1200,"withInstallments":true}"#, .missingField),
        ValidationCase(#"{\#(sale),"amount":1200,"withInstallments":"true","preferredInstallments":3}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"withInstallments":1,"preferredInstallments":3}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"withInstallments":true,"preferredInstallments":100}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"withInstallments":true,"preferredInstallments":-1}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"withInstallments":true,"preferredInstallments":"3"}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"preferredInstallments":3}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"withInstallments":false,"preferredInstallments":3}"#, .invalidValue),
        // flags
        ValidationCase(#"{\#(sale),"amount":1200,"show_receipt":"false"}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"show_rating":0}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"show_transaction_result":null}"#, .invalidValue),
        // ISV group
        ValidationCase(#"{\#(sale),"amount":1200,"ISV_clientId":"c"}"#, .missingField),
        ValidationCase(#"{\#(sale),"amount":1200,"ISV_sourceCode":"Default"}"#, .missingField),
        ValidationCase(#"{\#(sale),"amount":1200,"ISV_clientId":"c","ISV_clientSecret":"s"}"#, .missingField),
        ValidationCase(#"{\#(sale),"amount":1200,"ISV_clientSecret":"s","ISV_amount":10}"#, .missingField),
        ValidationCase(#"{\#(sale),"amount":5,\#(isv)}"#, .invalidValue),
        ValidationCase(
            #"{\#(sale),"amount":1200,"ISV_clientId":"c","ISV_clientSecret":"s","ISV_amount":"10"}"#, .invalidValue),
        ValidationCase(
            #"{\#(sale),"amount":1200,"ISV_clientId":"c","ISV_clientSecret":"","ISV_amount":10}"#, .invalidValue),
        // strings
        ValidationCase(#"{\#(sale),"amount":1200,"clientTransactionId":""}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"clientTransactionId":"\#(longId)x"}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"clientTransactionId":123}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"paymentMethod":null}"#, .invalidValue),
        // unknown and reserved keys
        ValidationCase(#"{\#(sale),"amount":1200,"tipAmmount":200}"#, .unknownField),
        ValidationCase(#"{\#(sale),"Amount":1200,"amount":1}"#, .unknownField),
        ValidationCase(#"{\#(sale),"amount":1200,"ref":"x"}"#, .unknownField),
        ValidationCase(#"{\#(sale),"amount":1200,"merchantKey":"k"}"#, .reservedField),
        ValidationCase(#"{\#(sale),"amount":1200,"appId":"a"}"#, .reservedField),
        ValidationCase(#"{\#(sale),"amount":1200,"callback":"evil://x"}"#, .reservedField),
        ValidationCase(#"{\#(sale),"amount":1200,"protocol":"int_default"}"#, .reservedField),
        ValidationCase(#"{"id":"q","action":"ping","merchantKey":"k"}"#, .reservedField),
        // timeoutMs
        ValidationCase(#"{\#(sale),"amount":1200,"timeoutMs":999}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"timeoutMs":600001}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"timeoutMs":"5000"}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"timeoutMs":5000.0}"#, .invalidValue),
        ValidationCase(#"{"id":"q","action":"ping","timeoutMs":0}"#, .invalidValue),
        // cancel
        ValidationCase(#"{"id":"c1","lane":"l","action":"cancel","amount":0}"#, .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"l","action":"cancel","amount":"1200"}"#, .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"l","action":"cancel","referenceNumber":833121}"#, .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"l","action":"cancel","referenceNumber":"83A121"}"#, .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"l","action":"cancel","referenceNumber":"1234567890123"}"#, .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"l","action":"cancel","orderCode":9256110059000200}"#, .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"l","action":"cancel","txnDateFrom":"yesterday"}"#, .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"l","action":"cancel","txnDateTo":"2024-13-01"}"#, .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"l","action":"cancel","tipAmount":1}"#, .unknownField),
        // abort
        ValidationCase(#"{"id":"c1","lane":"l","action":"abort","amount":1200}"#, .unknownField),
        ValidationCase(#"{"id":"c1","action":"abort"}"#, .missingField),
        // batch
        ValidationCase(#"{"id":"c1","lane":"l","action":"batch"}"#, .missingField),
        ValidationCase(#"{"id":"c1","lane":"l","action":"batch","command":"reopen"}"#, .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"l","action":"batch","command":"OPEN"}"#, .invalidValue),
        ValidationCase(
            #"{"id":"c1","lane":"l","action":"batch","command":"open","batchId":"7885F4F1-59CA-42C2-81BB-6DB48AA138A6"}"#,
            .invalidValue),
        ValidationCase(
            #"{"id":"c1","lane":"l","action":"batch","command":"close","batchId":"not-a-uuid"}"#, .invalidValue),
        ValidationCase(
            #"{"id":"c1","lane":"l","action":"batch","command":"close","batchId":"7885F4F1-59CA-42C2-81BB-6DB48AA138A"}"#,
            .invalidValue),
        ValidationCase(#"{"id":"c1","lane":"l","action":"batch","command":"close","batchName":""}"#, .invalidValue),
        // transactionDetails
        ValidationCase(#"{"id":"c1","lane":"l","action":"transactionDetails"}"#, .missingField),
        ValidationCase(
            #"{"id":"c1","lane":"l","action":"transactionDetails","clientTransactionId":""}"#, .invalidValue),
        // queries
        ValidationCase(#"{"id":"q","action":"status"}"#, .missingField),
        ValidationCase(#"{"id":"q","action":"status","ref":5}"#, .invalidValue),
        ValidationCase(#"{"id":"q","action":"status","ref":"a b"}"#, .invalidValue),
        ValidationCase(#"{"id":"q","action":"status","ref":"c1","lane":"l"}"#, .unknownField),
        ValidationCase(#"{"id":"q","action":"ping","lane":"l"}"#, .unknownField),
        ValidationCase(#"{"id":"q","action":"ping","amount":1}"#, .unknownField),
        ValidationCase(#"{"id":"q","action":"lanes","ref":"c1"}"#, .unknownField),
    ]

    @Test("accepted commands", arguments: accepted)
    func acceptsValid(_ row: ValidationCase) {
        let rejection = Fixture.rejection(row.json)
        #expect(rejection == nil, "\(rejection?.description ?? "")")
    }

    @Test("rejected commands get the right code and a message", arguments: rejected)
    func rejectsInvalid(_ row: ValidationCase) throws {
        let rejection = try #require(Fixture.rejection(row.json))
        #expect(rejection.code == row.code, "\(rejection)")
        #expect(!rejection.message.isEmpty)
    }

    @Test("frames over the limit are too_large, checked before parsing")
    func tooLarge() {
        let decoder = CommandDecoder(maxBytes: 100)
        let big = Array(
            #"{"id":"c1","lane":"l","action":"sale","amount":1200,"clientTransactionId":"\#(longId)"}"#.utf8)
        #expect(throws: Rejection.self) { try decoder.decode(big) }
        do {
            _ = try decoder.decode(big)
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.message.contains("100"))
        }
        let exactly = Array(repeating: UInt8(ascii: " "), count: 65536)
        #expect(Fixture.decoder.maxBytes == 65536)
        #expect((try? Fixture.decoder.decode(exactly)) == nil)
        let over = exactly + [0x20]
        do {
            _ = try Fixture.decoder.decode(over)
        } catch {
            #expect(error.code == .tooLarge)
        }
    }

    @Test("invalid UTF-8 is invalid_json")
    func invalidUTF8() {
        let bytes: [UInt8] = Array(#"{"id":"c1","action":"ping","x":""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        do {
            _ = try Fixture.decoder.decode(bytes)
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.code == .invalidJSON)
        }
    }

    @Test("messages name the key and the rule, and suggest a spelling")
    func messages() throws {
        let typo = try #require(Fixture.rejection(#"{\#(sale),"amount":1200,"tipAmmount":200}"#))
        #expect(typo.message.contains("tipAmmount") && typo.message.contains("did you mean tipAmount"))
        let string = try #require(Fixture.rejection(#"{\#(sale),"amount":"1200"}"#))
        #expect(string.message.contains("amount") && string.message.contains("integer"))
        let tip = try #require(Fixture.rejection(#"{\#(sale),"amount":1200,"tipAmount":1500}"#))
        #expect(tip.message.contains("tipAmount") && tip.message.contains("amount"))
        let isv = try #require(Fixture.rejection(#"{\#(sale),"amount":1200,"ISV_clientId":"c"}"#))
        #expect(isv.message.contains("ISV_clientSecret") && isv.message.contains("ISV_amount"))
        let action = try #require(Fixture.rejection(#"{"id":"c1","lane":"l","action":"Sale"}"#))
        #expect(action.message.contains("did you mean sale"))
        let reserved = try #require(Fixture.rejection(#"{\#(sale),"amount":1200,"merchantKey":"k"}"#))
        #expect(reserved.message.contains("merchantKey"))
    }

    @Test("rejections echo the id, lane and action that could be read")
    func echo() throws {
        let rejection = try #require(Fixture.rejection(#"{"id":"pos7-1","lane":"lane-2","action":"sale","amount":0}"#))
        #expect(rejection.id == "pos7-1")
        #expect(rejection.lane == "lane-2")
        #expect(rejection.action == "sale")
        let badId = try #require(Fixture.rejection(#"{"id":"a b","action":"ping"}"#))
        #expect(badId.id == nil)
        #expect(badId.action == "ping")
        let reply = rejection.reply
        #expect(reply["outcome"] == "rejected")
        #expect(reply["id"] == "pos7-1")
        #expect(reply["error"]?["code"] == "invalid_value")
        #expect(JSONValue.object(badId.reply).serializedString.hasPrefix(#"{"id":null,"#))
    }

    @Test("secret values never appear in rejection messages")
    func noSecretInMessages() throws {
        let secret = "TOP-SECRET-VALUE"
        let commands = [
            #"{\#(sale),"amount":1200,"ISV_clientSecret":"\#(secret)"}"#,
            #"{\#(sale),"amount":1200,"ISV_clientId":"c","ISV_clientSecret":"\#(secret)","ISV_amount":99999}"#,
            #"{\#(sale),"amount":1200,"ISV_clientId":"c","ISV_clientSecret":"\#(secret)\#(longId)","ISV_amount":1}"#,
            #"{\#(sale),"amount":1200,"ISV_clientId":"c","ISV_clientSecret":"\#(secret)","ISV_amount":1,"x":1}"#,
        ]
        for command in commands {
            let rejection = try #require(Fixture.rejection(command))
            #expect(!rejection.message.contains(secret))
            #expect(!rejection.description.contains(secret))
        }
    }

    @Test("transactionDetails is an Android action")
    func platformCheck() throws {
        let details = try Fixture.terminal(
            #"{"id":"c1","lane":"l","action":"transactionDetails","clientTransactionId":"x"}"#)
        #expect(throws: Never.self) { try details.check(platform: .android) }
        #expect(throws: Rejection.self) { try details.check(platform: .ios) }
        do {
            try details.check(platform: .ios)
        } catch {
            #expect(error.code == .unsupportedOnPlatform)
            #expect(error.platforms == [.android])
            #expect(error.message.contains("ios"))
            #expect(Reply(rejection: error).json["error"]?["platforms"] == .array([.string("android")]))
        }
        let saleCommand = try Fixture.terminal(#"{\#(sale),"amount":1}"#)
        for platform in Platform.allCases {
            #expect(throws: Never.self) { try saleCommand.check(platform: platform) }
        }
    }
}
