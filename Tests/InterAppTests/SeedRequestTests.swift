import InterApp
import Testing

/// The request examples of the seed documents (viva-ios-*.txt), as test vectors: our URLs carry the same
/// parameters, plus what the contract adds (clientTransactionId, protocol), always encoded.
@Suite("Seed request examples")
struct SeedRequestTests {
    static let seedLane = LaneSettings(
        merchantKey: "SG23323424EXS3", appId: "com.vivawallet.InterAppDemo", callback: "interapp-callback",
        platform: .ios)

    /// Parameters as a name → value map (seed URLs have unique names).
    func map(_ url: String) -> [String: String] {
        Dictionary(RequestURL.parse(url).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("viva-ios-sale.txt request example")
    func sale() throws {
        let seed =
            "vivapayclient://pay/v1?callback=interapp-callback&merchantKey=SG23323424EXS3&appId=com.vivawallet.InterAppDemo&action=sale&amount=1200&tipAmount=200&withInstallments=false&show_receipt=false&show_rating=true"
        let terminal = try Fixture.terminal(
            #"{"id":"pos7-000123","lane":"lane-1","action":"sale","amount":1200,"tipAmount":200,"withInstallments":false,"show_receipt":false,"show_rating":true}"#
        )
        let ours = RequestURL.build(terminal, lane: Self.seedLane)
        var expected = map(seed)
        expected["clientTransactionId"] = "pos7-000123"
        expected["protocol"] = "int_default"
        #expect(map(ours) == expected)
        #expect(
            ours.hasPrefix(
                "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.vivawallet.InterAppDemo&action=sale&"))
    }

    @Test("viva-ios-overview-sale-cancel.txt cancel request (createCancelRequest(reference: \"60646\"))")
    func cancel() throws {
        let seed =
            "vivapayclient://pay/v1?callback=interapp-callback&merchantKey=SG23323424EXS3&appId=com.vivawallet.InterAppDemo&action=cancel&referenceNumber=60646"
        let terminal = try Fixture.terminal(#"{"id":"c1","lane":"lane-1","action":"cancel","referenceNumber":"60646"}"#)
        // v1.1 adds protocol=int_default to cancels as to sales (Viva's samples send it; PROTOCOL.md §2).
        #expect(map(RequestURL.build(terminal, lane: Self.seedLane)) == map(seed + "&protocol=int_default"))
    }

    @Test("viva-ios-abort.txt abort request")
    func abort() throws {
        let seed =
            "vivapayclient://pay/v1?callback=interapp-callback&merchantKey=SG23323424EXS3&appId=com.vivawallet.InterAppDemo&action=abort"
        let terminal = try Fixture.terminal(#"{"id":"a1","lane":"lane-1","action":"abort"}"#)
        #expect(map(RequestURL.build(terminal, lane: Self.seedLane)) == map(seed))
    }

    @Test("viva-ios-batch.txt batch requests (open by name, close by id)")
    func batch() throws {
        let open = try Fixture.terminal(
            #"{"id":"b1","lane":"lane-1","action":"batch","command":"open","batchName":"morningShift"}"#)
        #expect(
            map(RequestURL.build(open, lane: Self.seedLane))
                == map(
                    "vivapayclient://pay/v1?callback=interapp-callback&merchantKey=SG23323424EXS3&appId=com.vivawallet.InterAppDemo&action=batch&command=open&batchName=morningShift"
                ))
        let close = try Fixture.terminal(
            #"{"id":"b2","lane":"lane-1","action":"batch","command":"close","batchId":"7885F4F1-59CA-42C2-81BB-6DB48AA138A6"}"#
        )
        #expect(
            map(RequestURL.build(close, lane: Self.seedLane))
                == map(
                    "vivapayclient://pay/v1?callback=interapp-callback&merchantKey=SG23323424EXS3&appId=com.vivawallet.InterAppDemo&action=batch&command=close&batchId=7885F4F1-59CA-42C2-81BB-6DB48AA138A6"
                ))
    }

    @Test("VIVA-NOTES.md transactionDetails request (Android)")
    func transactionDetails() throws {
        let terminal = try Fixture.terminal(
            #"{"id":"t1","lane":"lane-2","action":"transactionDetails","clientTransactionId":"pos7-000123","sourceTerminalId":"16016684"}"#
        )
        let url = RequestURL.build(terminal, lane: Fixture.androidLane)
        #expect(
            url == "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=transactionDetails"
                + "&clientTransactionId=pos7-000123&sourceTerminalId=16016684&callback=mycallbackscheme%3A%2F%2Fresult")
    }

    @Test("the seed's ISV sale fields go through encoded")
    func isvSale() throws {
        let terminal = try Fixture.terminal(
            #"{"id":"s1","lane":"lane-1","action":"sale","amount":1200,"ISV_amount":10,"ISV_clientId":"auyf99x03sachvn3f5ogldykz8214c2o4vl8cvvs97p19.apps.vivapayments.com","ISV_clientSecret":"qwerty123456","ISV_sourceCode":"Default"}"#
        )
        let url = RequestURL.build(terminal, lane: Self.seedLane)
        let parameters = map(url)
        #expect(parameters["ISV_clientSecret"] == "qwerty123456")
        #expect(parameters["ISV_clientId"] == "auyf99x03sachvn3f5ogldykz8214c2o4vl8cvvs97p19.apps.vivapayments.com")
        let redacted = Masking.redactSecrets(in: url)
        #expect(!redacted.contains("qwerty123456"))
        #expect(!redacted.contains("SG23323424EXS3"))
        #expect(redacted.contains("ISV_clientSecret=***"))
        #expect(redacted.contains("merchantKey=***"))
        #expect(redacted.contains("ISV_amount=10"))
    }
}
