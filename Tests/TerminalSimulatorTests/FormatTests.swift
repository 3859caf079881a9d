import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Formats: dates, generated numbers, callback encoding")
struct FormatTests {
    @Test(
        "dates carry seven fraction digits and the offset",
        arguments: [
            (1_568_369_659.870_345_2, 180, "2019-09-13T13:14:19.8703452+03:00"),
            (0, 0, "1970-01-01T00:00:00.0000000+00:00"),
            (951_782_400.5, -330, "2000-02-28T18:30:00.5000000-05:30"),
            (4_107_542_399.5, 120, "2100-03-01T01:59:59.5000000+02:00"),
        ] as [(Double, Int, String)])
    func dates(seconds: Double, offset: Int, expected: String) {
        #expect(
            TransactionDateFormat(offsetMinutes: offset).string(from: Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test("dates agree with Foundation's formatter")
    func datesAgainstFoundation() {
        var random = SplitMix64(seed: 3)
        let format = TransactionDateFormat(offsetMinutes: 120)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 7200)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        for _ in 0..<1000 {
            let date = Date(timeIntervalSince1970: TimeInterval(random.below(4_000_000_000)))
            let ours = format.string(from: date)
            let theirs = formatter.string(from: date)
            #expect(ours.prefix(19) + ours.suffix(6) == theirs)
        }
    }

    @Test("SplitMix64 matches its reference values")
    func splitMix() {
        var random = SplitMix64(seed: 1_234_567)
        #expect(random.next() == 6_457_827_717_110_365_317)
        #expect(random.next() == 3_203_168_211_198_807_973)
    }

    @Test("generated UUIDs are version 4")
    func uuids() {
        var random = SplitMix64(seed: 9)
        for _ in 0..<100 {
            let text = random.uuid()
            let parsed = UUID(uuidString: text)
            #expect(parsed != nil)
            #expect(parsed?.uuidString.lowercased() == text)
            #expect(Array(text)[14] == "4")
        }
        let upper = random.uuid(uppercase: true)
        #expect(upper == upper.uppercased())
    }

    @Test("a bare callback scheme becomes scheme://result; a whole URL is kept")
    func callbackBase() {
        var ios = CallbackBuilder(callback: "interapp-callback", platform: .ios, encoding: .realistic)
        ios.add("status", "success")
        #expect(ios.url == "interapp-callback://result?status=success")
        var android = CallbackBuilder(callback: "mycallbackscheme://result", platform: .android, encoding: .realistic)
        android.add("status", "fail")
        android.add("message", "(-57) ABORTED")
        #expect(android.url == "mycallbackscheme://result?status=fail&message=(-57) ABORTED")
        var withQuery = CallbackBuilder(callback: "app://result?session=1", platform: .android, encoding: .clean)
        withQuery.add("message", "(-57) ABORTED")
        #expect(withQuery.url == "app://result?session=1&message=%28-57%29%20ABORTED")
    }

    @Test("quirks are written only when realistic")
    func quirks() {
        for encoding in [CallbackEncoding.realistic, .clean] {
            var url = CallbackBuilder(callback: "x://result", platform: .ios, encoding: encoding)
            url.add("amount", "1200", quirk: .spaceAfterValue)
            url.add("cardType", "VISA")
            url.add("accountNumber", "479275******9999", quirk: .spaceBeforeName)
            url.add("tid", "16016684", quirk: .spaceBeforeValue)
            #expect(
                url.url
                    == (encoding == .realistic
                        ? "x://result?amount=1200 &cardType=VISA& accountNumber=479275******9999&tid= 16016684"
                        : "x://result?amount=1200&cardType=VISA&accountNumber=479275%2A%2A%2A%2A%2A%2A9999"
                            + "&tid=16016684")
            )
        }
    }

    @Test("the outcome rule by amount")
    func outcomeRule() {
        #expect(OutcomeRule.outcome(forAmount: 1051) == .decline)
        #expect(OutcomeRule.outcome(forAmount: 51) == .decline)
        #expect(OutcomeRule.outcome(forAmount: 152) == .cardholderCancel)
        #expect(OutcomeRule.outcome(forAmount: 99953) == .hostError)
        #expect(OutcomeRule.outcome(forAmount: 1200) == .approve)
        #expect(OutcomeRule.outcome(forAmount: 1054) == .approve)
    }

    @Test("the timer queue pops in deadline order, ties in scheduling order")
    func timerQueue() {
        var queue = TimerQueue<Int>()
        for (event, deadline) in [(1, 50), (2, 10), (3, 50), (4, 30), (5, 10)] {
            queue.schedule(event, at: UInt64(deadline))
        }
        #expect(queue.pollTimeout(now: 0) == 1)
        #expect(queue.popDue(now: 5) == nil)
        var order: [Int] = []
        while let event = queue.popDue(now: 100) { order.append(event) }
        #expect(order == [2, 5, 4, 1, 3])
        #expect(queue.pollTimeout(now: 0) == -1)
    }
}
