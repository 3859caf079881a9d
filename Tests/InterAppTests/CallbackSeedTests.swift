import InterApp
import Testing

/// Every response example of the seed documents and VIVA-NOTES.md, with its expected typed result.
@Suite("Seed callback examples")
struct CallbackSeedTests {
    // viva-ios-overview-sale-cancel.txt and viva-ios-sale.txt: approved sale.
    static let saleSuccess =
        "mycallbackscheme://result?status=success&message=Transaction%20successful.&action=sale&clientTransactionId=12345678901234567890123456789012&amount=1200&tipAmount=200&verificationMethod=CHIP-PIN&rrn=123456833121&cardType=VISA&accountNumber=479275******9999&referenceNumber=833121&authorisationCode=690882&tid=16016684&orderCode=9256110059000200&installments=10&transactionDate=2019-09-13T12:14:19.8703452+03:00&transactionId=a78e045c-49c3-4743-9071-f1e0ed71810c"
    // Declined sale: `status=failed`, `& accountNumber`, empty referenceNumber and authorisationCode.
    static let saleFailed =
        "mycallbackscheme://result?status=failed&message=Transaction%20declined%20by%20host.&action=sale&clientTransactionId=12345678901234567890123456789012&amount=1200&tipAmount=200&verificationMethod=CHIP-PIN&rrn=123456833121&cardType=VISA& accountNumber=479275******9999&referenceNumber=&authorisationCode=&tid=16016684&orderCode=9256110059000200&transactionDate=2019-09-13T12:14:19.8703452+03:00"
    // Cancel, approved: `amount=1200 &cardType`.
    static let cancelSuccess =
        "mycallbackscheme://result?status=success&message=Transaction%20successful.&action=cancel&amount=1200 &cardType=VISA&accountNumber=479275******9999&tid=16016684&transactionDate=2019-09-13T12:14:19.8703452+03:00&transactionId=a78e045c-49c3-4743-9071-f1e0ed71810c"
    // Cancel, the document's "failed" example (it says status=success): `amount=1200& cardType`, no transactionId.
    static let cancelSecond =
        "mycallbackscheme://result?status=success&message=Transaction%20successful.&action=cancel&amount=1200& cardType=VISA&accountNumber=479275******9999&tid=16016684&transactionDate=2019-09-13T12:14:19.8703452+03:00"
    // VIVA-NOTES.md, Android aborts.
    static let androidAborted =
        "mycallbackscheme://result?status=fail&message=(-57) ABORTED&action=ABORT&amount=10&tipAmount=0"
    static let androidNothingToAbort =
        "mycallbackscheme://result?status=fail&message=(-55) NOTHING_TO_ABORT&action=ABORT"
    // viva-ios-abort.txt: callback interapp-callback://result, action abort, status success, message
    // "nothing to abort / aborted".
    static let iosAborted = "interapp-callback://result?action=abort&status=success&message=aborted"
    static let iosNothingToAbort = "interapp-callback://result?action=abort&status=success&message=nothing%20to%20abort"
    static let iosNothingToAbortRaw = "interapp-callback://result?action=abort&status=success&message=nothing to abort"

    static let saleResult: JSONObject = [
        "action": "sale", "clientTransactionId": "12345678901234567890123456789012", "amount": 1200, "tipAmount": 200,
        "verificationMethod": "CHIP-PIN", "rrn": "123456833121", "cardType": "VISA",
        "accountNumber": "479275******9999", "referenceNumber": "833121", "authorisationCode": "690882",
        "tid": "16016684", "orderCode": "9256110059000200", "installments": 10,
        "transactionDate": "2019-09-13T12:14:19.8703452+03:00", "transactionId": "a78e045c-49c3-4743-9071-f1e0ed71810c",
    ]

    @Test("approved sale")
    func saleSuccess() throws {
        let callback = try Fixture.callback(Self.saleSuccess)
        #expect(callback.scheme == "mycallbackscheme")
        #expect(callback.host == "result")
        #expect(callback.kind == .transaction(.sale))
        #expect(callback.status == "success")
        #expect(callback.isSuccess)
        #expect(callback.message == "Transaction successful.")
        #expect(callback.clientTransactionId == "12345678901234567890123456789012")
        #expect(callback.baseOutcome == .success)
        #expect(callback.result == Self.saleResult)
        #expect(callback.result.keys.first == "action")
        #expect(callback.fields.count == 17)
        #expect(callback.field("transactionDate") == "2019-09-13T12:14:19.8703452+03:00")
        #expect(callback.actionName == "sale")
    }

    @Test("declined sale")
    func saleFailed() throws {
        let callback = try Fixture.callback(Self.saleFailed)
        #expect(callback.kind == .transaction(.sale))
        #expect(callback.status == "failure")
        #expect(!callback.isSuccess)
        #expect(callback.message == "Transaction declined by host.")
        #expect(callback.baseOutcome == .failure)
        #expect(
            callback.result == [
                "action": "sale", "clientTransactionId": "12345678901234567890123456789012", "amount": 1200,
                "tipAmount": 200, "verificationMethod": "CHIP-PIN", "rrn": "123456833121", "cardType": "VISA",
                "accountNumber": "479275******9999", "referenceNumber": "", "authorisationCode": "", "tid": "16016684",
                "orderCode": "9256110059000200", "transactionDate": "2019-09-13T12:14:19.8703452+03:00",
            ])
    }

    @Test("cancel responses with spaces around separators", arguments: [cancelSuccess, cancelSecond])
    func cancel(url: String) throws {
        let callback = try Fixture.callback(url)
        #expect(callback.kind == .transaction(.cancel))
        #expect(callback.baseOutcome == .success)
        #expect(callback.message == "Transaction successful.")
        let result = callback.result
        #expect(result["amount"] == 1200)
        #expect(result["cardType"] == "VISA")
        #expect(result["accountNumber"] == "479275******9999")
        #expect(result["tid"] == "16016684")
        #expect(result["transactionDate"] == "2019-09-13T12:14:19.8703452+03:00")
        #expect(callback.clientTransactionId == nil)
    }

    @Test("the first cancel example in full")
    func cancelFull() throws {
        #expect(
            try Fixture.callback(Self.cancelSuccess).result == [
                "action": "cancel", "amount": 1200, "cardType": "VISA", "accountNumber": "479275******9999",
                "tid": "16016684", "transactionDate": "2019-09-13T12:14:19.8703452+03:00",
                "transactionId": "a78e045c-49c3-4743-9071-f1e0ed71810c",
            ])
    }

    @Test("Android: (-57) ABORTED")
    func androidAborted() throws {
        let callback = try Fixture.callback(Self.androidAborted)
        #expect(callback.kind == .abort(.aborted))
        #expect(callback.status == "failure")
        #expect(callback.message == "(-57) ABORTED")
        #expect(callback.messageCode == -57)
        #expect(callback.baseOutcome == .success)
        #expect(callback.actionName == "abort")
        #expect(callback.result == ["action": "ABORT", "amount": 10, "tipAmount": 0])
    }

    @Test("Android: (-55) NOTHING_TO_ABORT")
    func androidNothing() throws {
        let callback = try Fixture.callback(Self.androidNothingToAbort)
        #expect(callback.kind == .abort(.nothingToAbort))
        #expect(callback.baseOutcome == .nothingToAbort)
        #expect(callback.messageCode == -55)
        #expect(callback.result == ["action": "ABORT"])
    }

    @Test("iOS: aborted")
    func iosAborted() throws {
        let callback = try Fixture.callback(Self.iosAborted)
        #expect(callback.kind == .abort(.aborted))
        #expect(callback.status == "success")
        #expect(callback.baseOutcome == .success)
        #expect(callback.scheme == "interapp-callback")
    }

    @Test("iOS: nothing to abort", arguments: [iosNothingToAbort, iosNothingToAbortRaw])
    func iosNothing(url: String) throws {
        let callback = try Fixture.callback(url)
        #expect(callback.kind == .abort(.nothingToAbort))
        #expect(callback.baseOutcome == .nothingToAbort)
        #expect(callback.message == "nothing to abort")
    }

    @Test(
        "Android messages with bracketed codes are failures of their transaction",
        arguments: [
            ("(-4) USER_CANCEL", -4), ("(-62) RESELLER_ORDER_DECLINED", -62), ("(-23) REFUND_SERVER_ERROR", -23),
            ("(-999) UNEXPECTED", -999),
        ])
    func androidCodes(message: String, code: Int) throws {
        let callback = try Fixture.callback(
            "mycallbackscheme://result?status=fail&message=\(message)&action=sale&clientTransactionId=pos7-1&amount=1200"
        )
        #expect(callback.kind == .transaction(.sale))
        #expect(callback.baseOutcome == .failure)
        #expect(callback.messageCode == code)
        #expect(callback.message == message)
        #expect(callback.clientTransactionId == "pos7-1")
    }

    @Test("Android transactionDetails answer carries the sale's fields")
    func transactionDetails() throws {
        let callback = try Fixture.callback(
            "mycallbackscheme://result?status=success&message=Transaction Details Fetched&action=transactionDetails&clientTransactionId=pos7-000123&amount=1200&tipAmount=0&verificationMethod=CONTACTLESS&rrn=123456833121&cardType=Debit Mastercard&accountNumber=537489******1831&referenceNumber=833121&authorisationCode=690882&tid=16016684&orderCode=1091166300000136&shortOrderCode=1091166300&transactionDate=2019-09-13T12:14:19.8703452+03:00&transactionId=a78e045c-49c3-4743-9071-f1e0ed71810c"
        )
        #expect(callback.kind == .transaction(.transactionDetails))
        #expect(callback.message == "Transaction Details Fetched")
        #expect(callback.baseOutcome == .success)
        #expect(callback.clientTransactionId == "pos7-000123")
        #expect(callback.result["cardType"] == "Debit Mastercard")
        #expect(callback.result["shortOrderCode"] == "1091166300")
        #expect(callback.result["amount"] == 1200)
    }

    @Test(
        "batch answers (viva-ios-batch.txt response table)",
        arguments: [
            (
                "interapp-callback://result?status=success&message=Batch opened&action=batch&command=open&batchName=morningShift&batchId=7885F4F1-59CA-42C2-81BB-6DB48AA138A6",
                "open"
            ),
            (
                "interapp-callback://result?status=success&message=Batch%20closed&action=batch&command=close&batchName=morningShift&batchId=7885F4F1-59CA-42C2-81BB-6DB48AA138A6",
                "close"
            ),
        ])
    func batch(url: String, command: String) throws {
        let callback = try Fixture.callback(url)
        #expect(callback.kind == .transaction(.batch))
        #expect(callback.baseOutcome == .success)
        #expect(
            callback.result == [
                "action": "batch", "command": .string(command), "batchName": "morningShift",
                "batchId": "7885F4F1-59CA-42C2-81BB-6DB48AA138A6",
            ])
    }

    @Test("summary: the decode command's JSON")
    func summary() throws {
        let summary = try Fixture.callback(Self.androidAborted).summary
        #expect(
            JSONValue.object(summary).serializedString
                == #"{"outcome":"success","message":"(-57) ABORTED","action":"abort","result":{"action":"ABORT","amount":10,"tipAmount":0}}"#
        )
    }
}
