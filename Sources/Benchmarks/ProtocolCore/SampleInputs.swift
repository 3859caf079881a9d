/// Inputs of the protocol-core section: callbacks as Viva's pages show them (quirks and all) and commands.
enum SampleInputs {
    /// Callback URLs from the examples of Viva's iOS pages and its Android dialect (as
    /// Tests/InterAppTests/CallbackSeedTests.swift holds them), verbatim:
    /// raw `+` in dates, `& accountNumber`, `amount=1200 &`, Android's raw spaces.
    static let callbackTexts = [
        "mycallbackscheme://result?status=success&message=Transaction%20successful.&action=sale&clientTransactionId=12345678901234567890123456789012&amount=1200&tipAmount=200&verificationMethod=CHIP-PIN&rrn=123456833121&cardType=VISA&accountNumber=479275******9999&referenceNumber=833121&authorisationCode=690882&tid=16016684&orderCode=9256110059000200&installments=10&transactionDate=2019-09-13T12:14:19.8703452+03:00&transactionId=a78e045c-49c3-4743-9071-f1e0ed71810c",
        "mycallbackscheme://result?status=failed&message=Transaction%20declined%20by%20host.&action=sale&clientTransactionId=12345678901234567890123456789012&amount=1200&tipAmount=200&verificationMethod=CHIP-PIN&rrn=123456833121&cardType=VISA& accountNumber=479275******9999&referenceNumber=&authorisationCode=&tid=16016684&orderCode=9256110059000200&transactionDate=2019-09-13T12:14:19.8703452+03:00",
        "mycallbackscheme://result?status=success&message=Transaction%20successful.&action=cancel&amount=1200 &cardType=VISA&accountNumber=479275******9999&tid=16016684&transactionDate=2019-09-13T12:14:19.8703452+03:00&transactionId=a78e045c-49c3-4743-9071-f1e0ed71810c",
        "mycallbackscheme://result?status=success&message=Transaction%20successful.&action=cancel&amount=1200& cardType=VISA&accountNumber=479275******9999&tid=16016684&transactionDate=2019-09-13T12:14:19.8703452+03:00",
        "mycallbackscheme://result?status=fail&message=(-57) ABORTED&action=ABORT&amount=10&tipAmount=0",
        "mycallbackscheme://result?status=fail&message=(-55) NOTHING_TO_ABORT&action=ABORT",
    ]
    static let callbacks: [[UInt8]] = callbackTexts.map { Array($0.utf8) }

    /// Sale commands as store middleware sends them: the benchmark's own, and richer ones.
    static let commandTexts = [
        Wire.saleJSON(id: Wire.sampleId, lane: 0),
        #"{"id":"pos7-000123","lane":"lane-1","action":"sale","amount":1200,"tipAmount":200,"clientTransactionId":"pos7-000123-a","show_receipt":false,"show_rating":false}"#,
        #"{"id":"pos7-000124","lane":"lane-2","action":"sale","amount":4599,"withInstallments":true,"preferredInstallments":3,"ISV_amount":50,"ISV_clientId":"isv-client","ISV_clientSecret":"s3cr3t","ISV_sourceCode":"1234","ISV_customerTrns":"Café & crème, table 7"}"#,
        #"{"id":"pos7-000125","lane":"lane-1","action":"cancel","amount":1200,"referenceNumber":"833121","orderCode":"9256110059000200"}"#,
    ]
    static let commands: [[UInt8]] = commandTexts.map { Array($0.utf8) }
}
