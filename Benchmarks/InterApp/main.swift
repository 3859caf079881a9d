// Throughput of the InterApp hot paths, compiled with -O by run.sh (no SwiftPM target needed).
import Dispatch

func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func measure(_ label: String, iterations: Int, _ body: () -> Int) {
    var sink = 0
    let start = seconds()
    for _ in 0..<iterations { sink &+= body() }
    let rate = Double(iterations) / (seconds() - start)
    print("\(label): \(Int(rate)) per second (\(sink % 7))")
}

let approvedSale =
    "mycallbackscheme://result?status=success&message=Transaction%20successful.&action=sale&clientTransactionId=12345678901234567890123456789012&amount=1200&tipAmount=200&verificationMethod=CHIP-PIN&rrn=123456833121&cardType=VISA&accountNumber=479275******9999&referenceNumber=833121&authorisationCode=690882&tid=16016684&orderCode=9256110059000200&installments=10&transactionDate=2019-09-13T12:14:19.8703452+03:00&transactionId=a78e045c-49c3-4743-9071-f1e0ed71810c"
let approvedSaleBytes = Array(approvedSale.utf8)
let frame = Array(#"{"id":"pos7-000123","lane":"lane-1","action":"sale","amount":1200,"tipAmount":200,"show_receipt":false}"#.utf8)
let lane = LaneSettings(merchantKey: "SG23323424EXS3", appId: "com.example.pos", platform: .ios)
let command = try! CommandDecoder().decode(frame).terminal!
let callback = try! CallbackParser.parse(approvedSale)

measure("callback parse (String)", iterations: 1_000_000) { try! CallbackParser.parse(approvedSale).fields.count }
measure("callback parse ([UInt8])", iterations: 1_000_000) { try! CallbackParser.parse(approvedSaleBytes).fields.count }
measure("callback result", iterations: 500_000) { callback.result.count }
measure("request URL build", iterations: 1_000_000) { RequestURL.build(command, lane: lane).utf8.count }
measure("command decode", iterations: 300_000) { try! CommandDecoder().decode(frame).fingerprint.utf8.count }
