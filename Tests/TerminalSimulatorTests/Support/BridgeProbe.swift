import Foundation
import Testing
import ZeroMQ

@testable import TerminalSimulator

/// Plays the bridge's side of one lane's terminal link over TCP loopback: a DEALER that connects to the
/// relay, says hello, sends `open` frames with raw URLs and reads frames with poll timeouts.
///
/// Owned by the test's thread (tests using it are synchronous).
final class BridgeProbe {
    let socket: Socket
    let lane: String
    /// Watches the probe's own link, so a test can wait for a dropped link to come back before it
    /// speaks again (a frame sent into a connection that is still closing would be lost).
    private let linkMonitor: Socket
    private var nextReference = 0

    init(context: Context, endpoint: String, lane: String) throws {
        socket = try Socket(context, .dealer)
        self.lane = lane
        linkMonitor = try socket.openMonitor(events: [.disconnected, .handshakeSucceeded])
        try linkMonitor.setReceiveTimeout(5000)
        try socket.connect(endpoint)
    }

    deinit {
        linkMonitor.close()
        socket.close()
    }

    /// Waits until the link went down and then completed a new handshake.
    func awaitReconnection(sourceLocation: SourceLocation = #_sourceLocation) throws {
        var sawDisconnect = false
        while let event = try linkMonitor.receiveMonitorEvent() {
            if event.kind == .disconnected { sawDisconnect = true }
            if sawDisconnect && event.kind == .handshakeSucceeded { return }
        }
        Issue.record("the probe's link did not come back", sourceLocation: sourceLocation)
    }

    /// Sends the bridge's hello (a v1.1 one, without epoch, when `epoch` is nil) and returns the relay's answer.
    @discardableResult
    func hello(epoch: Int? = nil) throws -> [String] {
        try sendHello(epoch: epoch)
        let answer = try #require(try next(), "no hello answer")
        return answer
    }

    /// Sends the bridge's hello without waiting for an answer (a relay does not answer a lower epoch's).
    func sendHello(epoch: Int?) throws {
        let epochMember = epoch.map { #","epoch":\#($0)"# } ?? ""
        try socket.send(["hello", #"{"bridge":"test","lane":"\#(lane)"\#(epochMember)}"#])
    }

    /// Sends `["open", ref, url]`; returns the ref used.
    @discardableResult
    func open(_ url: String, ref: String? = nil) throws -> String {
        nextReference += 1
        let reference = ref ?? "ref-\(nextReference)"
        try socket.send(["open", reference, url])
        return reference
    }

    /// The next message, frames as text; nil when nothing arrives within `timeout` milliseconds.
    func next(timeout: Int = 3000) throws -> [String]? {
        let poller = Poller()
        poller.add(socket)
        guard try poller.poll(timeoutMilliseconds: timeout) > 0, let frames = try socket.receive(wait: false) else {
            return nil
        }
        return frames.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next message, which must be `["callback", url, n]`; returns the URL.
    func callback(timeout: Int = 3000, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try numberedCallback(timeout: timeout, sourceLocation: sourceLocation).url
    }

    /// The next message, which must be `["callback", url, n]`; returns the URL and the relay's number `n`.
    func numberedCallback(timeout: Int = 3000, sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        url: String, seq: String
    ) {
        let frames = try #require(try next(timeout: timeout), "no callback", sourceLocation: sourceLocation)
        try #require(
            frames.count == 3 && frames[0] == "callback", "not a numbered callback: \(frames)",
            sourceLocation: sourceLocation)
        return (frames[1], frames[2])
    }

    /// Sends `["received", n]`: the bridge journaled callback `n`.
    func received(_ seq: String) throws {
        try socket.send(["received", seq])
    }

    /// Sends `url`, expects `opened` with the same ref, then the callback; returns the callback URL.
    func request(_ url: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let reference = try open(url)
        try expectOpened(reference, sourceLocation: sourceLocation)
        return try callback(sourceLocation: sourceLocation)
    }

    /// Expects `["opened", reference]` next.
    func expectOpened(_ reference: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let frames = try #require(try next(), "no answer to open", sourceLocation: sourceLocation)
        #expect(frames == ["opened", reference], sourceLocation: sourceLocation)
    }
}

/// Request URLs as the bridge builds them (every value percent-encoded).
enum Requests {
    static func callback(for platform: SimulatorPlatform) -> String {
        platform == .ios ? "interapp-callback" : "mycallbackscheme://result"
    }

    static func sale(
        amount: Int, tip: Int? = nil, clientTransactionId: String? = "pos-1", platform: SimulatorPlatform,
        extra: [(String, String)] = []
    ) -> String {
        var parameters: [(String, String)] = [("amount", String(amount))]
        if let tip { parameters.append(("tipAmount", String(tip))) }
        if let clientTransactionId { parameters.append(("clientTransactionId", clientTransactionId)) }
        parameters.append(("protocol", "int_default"))
        parameters.append(contentsOf: extra)
        return url(action: "sale", parameters, platform: platform)
    }

    /// `vivapayclient://pay/v1?merchantKey=…&appId=…&action=<action>&<parameters>&callback=…`.
    static func url(action: String, _ parameters: [(String, String)] = [], platform: SimulatorPlatform) -> String {
        var text = "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=\(encode(action))"
        for (name, value) in parameters { text += "&\(encode(name))=\(encode(value))" }
        return text + "&callback=" + encode(callback(for: platform))
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
