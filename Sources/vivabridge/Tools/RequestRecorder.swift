import Foundation
import InterApp
import TerminalSimulator

/// `simulate --record FILE`: appends one line per request URL the relays receive, written (not buffered)
/// before the relay answers, so that a tool reading the file sees every request even if it kills the bridge.
///
/// A line is tab-separated: lane, the bridge's reference (its command id), the request's
/// `clientTransactionId` (`-` when it has none), then the URL with its secrets (`merchantKey`,
/// `ISV_clientSecret`) redacted.
final class RequestRecorder: Sendable {
    private let handle: FileHandle

    /// Opens `path` for appending, creating it when missing.
    init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }

    /// Appends one request's line.
    func record(_ request: ObservedRequest) {
        let transaction = Self.clientTransactionId(in: request.url) ?? "-"
        let fields = [request.lane, request.reference, transaction, Self.redacted(request.url)]
        let line = fields.map(Self.oneLine).joined(separator: "\t")
        handle.write(Data((line + "\n").utf8))
    }

    /// The percent-decoded `clientTransactionId` of a request URL, if it has one.
    static func clientTransactionId(in url: String) -> String? {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for part in query.split(separator: "&") {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if pair.count == 2, pair[0] == "clientTransactionId" {
                return String(pair[1]).removingPercentEncoding ?? String(pair[1])
            }
        }
        return nil
    }

    /// The URL with the value of every secret parameter replaced by `***`.
    static func redacted(_ url: String) -> String {
        let halves = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return url }
        let parts = halves[1].split(separator: "&", omittingEmptySubsequences: false).map { part in
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, Masking.isSecret(String(pair[0])) else { return String(part) }
            return "\(pair[0])=\(Masking.redacted)"
        }
        return "\(halves[0])?\(parts.joined(separator: "&"))"
    }

    /// Tabs and line breaks would break the line format; they are escaped.
    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\r")
    }
}
