import Foundation
import TerminalSimulator
import Testing

@testable import vivabridge

@Suite("simulate --record: one line per request, secrets redacted")
struct RequestRecorderTests {
    @Test("a line per request: lane, reference, clientTransactionId, URL; appended, merchant key redacted")
    func lines() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString).tsv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let url =
            "vivapayclient://pay/v1?merchantKey=SECRET-KEY&appId=a&action=sale&amount=5&clientTransactionId=pos%207"
            + "&ISV_clientSecret=s3&callback=interapp-callback"
        try RequestRecorder(path: path).record(ObservedRequest(lane: "lane-1", reference: "pos 7", url: url))
        try RequestRecorder(path: path).record(
            ObservedRequest(lane: "lane-2", reference: "x\ty", url: "vivapayclient://pay/v1?action=abort"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(lines.count == 2)
        #expect(lines[0][0...2] == ["lane-1", "pos 7", "pos 7"])
        #expect(lines[0][3].contains("merchantKey=***&"))
        #expect(lines[0][3].contains("ISV_clientSecret=***&"))
        #expect(!text.contains("SECRET-KEY") && !text.contains("s3"))
        #expect(lines[1][0...2] == ["lane-2", "x\\ty", "-"])
    }
}
