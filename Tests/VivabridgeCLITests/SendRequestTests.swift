import ArgumentParser
import InterApp
import Testing

@testable import vivabridge

@Suite("vivabridge send: amounts, the command's JSON, outcomes")
struct SendRequestTests {
    @Test(
        "amounts: a dot means euros, an integer means cents",
        arguments: [
            ("12.00", 1200), ("12", 12), ("12.5", 1250), ("0.01", 1), ("1200", 1200), ("12.05", 1205), ("0", 0),
        ])
    func amounts(text: String, cents: Int) throws {
        #expect(try SendAmount.cents(text) == cents)
    }

    @Test(
        "amounts that are refused, each with a message that says what to write",
        arguments: [
            ("12.345", "at most 2"), ("12,50", "dot"), ("-3", "never negative"), ("12.", "not an amount"),
            (".5", "not an amount"), ("twelve", "not an amount"), ("", "not an amount"), ("1e3", "not an amount"),
            ("99999999999999999999", "too large"), ("+5", "not an amount"),
        ])
    func refusedAmounts(text: String, message: String) {
        do {
            let cents = try SendAmount.cents(text)
            Issue.record("\(text) was accepted as \(cents)")
        } catch {
            #expect("\(error)".contains(message), "\(text): \(error)")
        }
    }

    @Test("cents are shown as euros")
    func euros() {
        #expect(SendAmount.euros(1200) == "12.00")
        #expect(SendAmount.euros(5) == "0.05")
        #expect(SendAmount.euros(1250) == "12.50")
    }

    @Test("a sale's JSON: key by key, amounts in cents, --param typed by the action table")
    func saleJSON() throws {
        let command = try SendCommand.parse([
            "sale", "--lane", "lane-1", "--amount", "12.5", "--tip", "1.00", "--timeout-ms", "60000",
            "--param", "withInstallments=true", "--param", "preferredInstallments=3",
            "--param", "paymentMethod=12", "--param", "customField=007",
        ])
        let json = JSONValue.object(try command.request(id: "t-1")).serializedString
        #expect(
            json
                == #"{"id":"t-1","lane":"lane-1","action":"sale","amount":1250,"tipAmount":100,"timeoutMs":60000,"withInstallments":true,"preferredInstallments":3,"paymentMethod":"12","customField":"007"}"#
        )
    }

    @Test("user values can never break out of their JSON string")
    func escaping() throws {
        let command = try SendCommand.parse([
            "sale", "--lane", "lane-1", "--amount", "1", "--client-transaction-id", #"x","amount":999999,"y":""#,
        ])
        let object = try command.request(id: "t-2")
        let reparsed = try JSONValue.parse(JSONValue.object(object).serialized()).objectValue
        #expect(reparsed?["amount"]?.intValue == 1)
        #expect(reparsed?["clientTransactionId"]?.stringValue == #"x","amount":999999,"y":""#)
    }

    @Test("queries carry only what the bridge expects")
    func queries() throws {
        let status = try SendCommand.parse(["status", "--ref", "pos-1"]).request(id: "q")
        #expect(JSONValue.object(status).serializedString == #"{"id":"q","action":"status","ref":"pos-1"}"#)
        let lanes = try SendCommand.parse(["lanes"]).request(id: "q")
        #expect(JSONValue.object(lanes).serializedString == #"{"id":"q","action":"lanes"}"#)
        let batch = try SendCommand.parse(["batch", "--lane", "l", "--command", "close", "--batch-name", "b"])
            .request(id: "q")
        #expect(
            JSONValue.object(batch).serializedString
                == #"{"id":"q","lane":"l","action":"batch","command":"close","batchName":"b"}"#)
    }

    @Test("pre_auth and capture_pre_auth: amounts in euros or cents, the capture's identifiers")
    func preAuth() throws {
        let preAuth = try SendCommand.parse(["pre_auth", "--lane", "l", "--amount", "80.00"])
        #expect(
            JSONValue.object(try preAuth.request(id: "q")).serializedString
                == #"{"id":"q","lane":"l","action":"pre_auth","amount":8000}"#)
        #expect(preAuth.defaultWaitMs == 125_000)
        let capture = try SendCommand.parse([
            "capture_pre_auth", "--lane", "l", "--reference-number", "833121", "--param", "txnDateFrom=2026-11-01",
        ])
        #expect(
            JSONValue.object(try capture.request(id: "q")).serializedString
                == #"{"id":"q","lane":"l","action":"capture_pre_auth","referenceNumber":"833121","txnDateFrom":"2026-11-01"}"#
        )
        #expect(throws: (any Error).self) { _ = try SendCommand.parse(["pre_auth", "--lane", "l"]) }
        #expect(throws: (any Error).self) {
            _ = try SendCommand.parse(["pre_auth", "--lane", "l", "--amount", "1", "--tip", "1"])
        }
        let cloudRefund = try SendCommand.parse(["cancel", "--lane", "c", "--parent-id", "s1", "--amount", "5.00"])
        #expect(
            JSONValue.object(try cloudRefund.request(id: "q")).serializedString
                == #"{"id":"q","lane":"c","action":"cancel","amount":500,"parentId":"s1"}"#)
        #expect(throws: (any Error).self) {
            _ = try SendCommand.parse(["sale", "--lane", "l", "--amount", "1", "--parent-id", "s1"]).request(id: "q")
        }
    }

    @Test("v1.1 replies in words: the platforms that have an action, the captured pre-auth, an unreferenced refund")
    func v11Words() throws {
        let unsupported = try JSONValue.parse(
            Array(
                #"{"id":"t","lane":"l","action":"transactionDetails","outcome":"rejected","error":{"code":"unsupported_on_platform","message":"m","platforms":["android"]},"late":false}"#
                    .utf8)
        ).objectValue!
        #expect(SendReport.render(unsupported, width: 100).contains("offered on  android"))
        let capture = try JSONValue.parse(
            Array(
                #"{"id":"c","lane":"l","action":"capture_pre_auth","outcome":"success","authorisation":"pa-1","late":false}"#
                    .utf8)
        ).objectValue!
        #expect(SendReport.render(capture, width: 100).contains("captured  pa-1"))
        let refund = try JSONValue.parse(
            Array(
                #"{"id":"u","lane":"l","action":"unreferenced_refund","outcome":"success","refund":{"unreferenced":true,"amount":500},"late":false}"#
                    .utf8)
        ).objectValue!
        #expect(
            SendReport.render(refund, width: 100).contains("UNREFERENCED: money back to a card with no sale of 5.00"))
    }

    @Test("a reprint: --order-code, or nothing for the last transaction; its default wait is 30 s + 5 s")
    func reprint() throws {
        let byCode = try SendCommand.parse(["reprint", "--lane", "l", "--order-code", "1091159196000136"])
        #expect(
            JSONValue.object(try byCode.request(id: "q")).serializedString
                == #"{"id":"q","lane":"l","action":"reprint","orderCode":"1091159196000136"}"#)
        let last = try SendCommand.parse(["reprint", "--lane", "l"])
        #expect(
            JSONValue.object(try last.request(id: "q")).serializedString == #"{"id":"q","lane":"l","action":"reprint"}"#
        )
        #expect(last.defaultWaitMs == 35_000)
        #expect(throws: (any Error).self) { _ = try SendCommand.parse(["reprint", "--lane", "l", "--amount", "1"]) }
        #expect(throws: (any Error).self) {
            _ = try SendCommand.parse(["sale", "--lane", "l", "--amount", "1", "--order-code", "1"])
        }
    }

    @Test(
        "options that do not fit the action are usage errors",
        arguments: [
            ["lanes", "--lane", "lane-1"], ["abort", "--lane", "l", "--tip", "1"],
            ["sale", "--lane", "l", "--amount", "1", "--ref", "x"],
            ["ping", "--timeout-ms", "5000"], ["sale", "--lane", "l", "--amount", "1", "--param", "id=other"],
            ["sale", "--lane", "l", "--amount", "1", "--param", "preferredInstallments=three"],
            ["sale", "--lane", "l", "--amount", "1", "--param", "show_receipt=yes"],
            ["sale", "--lane", "l", "--amount", "1", "--param", "amount=2"],
        ])
    func misfits(arguments: [String]) {
        #expect(throws: (any Error).self) { _ = try SendCommand.parse(arguments) }
    }

    @Test("the default wait is the deadline plus 5 s")
    func defaultWait() throws {
        #expect(try SendCommand.parse(["sale", "--lane", "l", "--amount", "1"]).defaultWaitMs == 125_000)
        #expect(try SendCommand.parse(["batch", "--lane", "l", "--command", "open"]).defaultWaitMs == 35_000)
        #expect(
            try SendCommand.parse(["sale", "--lane", "l", "--amount", "1", "--timeout-ms", "1000"]).defaultWaitMs
                == 6000)
        #expect(try SendCommand.parse(["ping"]).defaultWaitMs == 5000)
    }

    @Test(
        "exit status by outcome",
        arguments: [
            ("success", 0), ("nothing_to_abort", 0), ("failure", 1), ("aborted", 1), ("superseded", 1), ("rejected", 2),
            ("undeliverable", 3), ("unknown", 4),
        ] as [(String, Int32)])
    func exitCodes(outcome: String, code: Int32) {
        #expect(SendReport.exitCode(outcome: outcome) == code)
    }

    @Test("a reply in words: outcome, message, amount in euros, card, rrn, the error code")
    func report() throws {
        let reply = try JSONValue.parse(
            #"{"id":"p-1","lane":"lane-1","action":"sale","outcome":"success","message":"Transaction successful.","result":{"action":"sale","amount":1200,"tipAmount":0,"cardType":"VISA","accountNumber":"479275******9999","rrn":"123456833121","referenceNumber":"833121","tid":"1"},"late":false}"#
        ).objectValue!
        let text = SendReport.render(reply)
        #expect(
            text == """
                sale p-1 on lane-1: success
                  message          Transaction successful.
                  amount           12.00 (1200 cents)
                  card             VISA 479275******9999
                  rrn              123456833121
                  referenceNumber  833121
                  (and tid: --json shows every field)

                """)
        let rejected = try JSONValue.parse(
            #"{"id":"p-2","lane":"x","action":"sale","outcome":"rejected","error":{"code":"unknown_lane","message":"lane x is not configured"},"late":false}"#
        ).objectValue!
        #expect(SendReport.render(rejected).contains("error  unknown_lane: lane x is not configured"))
    }
}

@Suite("vivabridge send: CURVE options")
struct SendCurveOptionTests {
    @Test("a server key that begins with '-' (a Z85 character) is read as the key, not as an option")
    func serverKeyWithLeadingDash() throws {
        let key = "-" + String(repeating: "a", count: 39)
        let options = try ClientEndpointOptions.parse(["--key-file", "pos.key", "--server-key", key])
        #expect(options.serverKey == key)
    }
}
