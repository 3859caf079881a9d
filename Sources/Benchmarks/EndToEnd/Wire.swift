import Foundation
import InterApp
import TerminalSimulator
import ZeroMQ

/// The bytes every topology of a run shares: the lane settings, the sale commands, a request URL and a
/// callback exactly as the simulator writes them, so that the raw relay moves frames of the same sizes.
struct Wire: Sendable {
    static let merchantKey = "BENCH-MERCHANT-KEY-0001"
    static let amount = 1200
    /// Width of a lane number in lane ids and command ids.
    static let laneDigits = 4
    static let settings = LaneSettings(merchantKey: merchantKey, appId: "com.vivabridge.bench", platform: .ios)

    /// The request URL of a sale (a sample: the raw relay sends it as its `open` frame).
    let url: [UInt8]
    /// The simulator's callback for a sale, split around its `clientTransactionId` value.
    let callbackPrefix: [UInt8]
    let callbackSuffix: [UInt8]
    /// The callback whole, as the simulator sent it.
    var callback: [UInt8] { callbackPrefix + Array(Self.sampleId.utf8) + callbackSuffix }

    static let sampleId = CommandId.text(client: 0, lane: 0, sequence: 1)

    static func laneId(_ index: Int) -> String { "lane-" + pad(index, laneDigits) }

    static func saleJSON(id: String, lane: Int) -> String {
        #"{"id":"\#(id)","lane":"\#(laneId(lane))","action":"sale","amount":\#(amount)}"#
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// ``probe(encoding:)`` for a section of the report: nil when it failed, the failure then added to
    /// `result`'s, named by `section` (whose rows all need it).
    static func probe(encoding: CallbackEncoding, section: String, into result: inout SectionResult) -> Wire? {
        do {
            return try probe(encoding: encoding)
        } catch {
            result.failures.append("\(section): probing the simulator's callback failed: \(error)")
            return nil
        }
    }

    /// Builds the sample URL with the bridge's own code and asks a simulated lane for its callback.
    static func probe(encoding: CallbackEncoding) throws -> Wire {
        let command = try CommandDecoder().decode(Array(saleJSON(id: sampleId, lane: 0).utf8))
        guard let terminal = command.terminal else { throw BenchError("the sample sale did not decode as a sale") }
        let url = Array(RequestURL.build(terminal, lane: settings).utf8)

        let context = try Context()
        defer { context.terminate() }
        let simulator = Simulator(
            lanes: [SimulatedLane(id: laneId(0), platform: .ios, behaviour: LaneBehaviour(encoding: encoding))],
            context: context, historyLimit: 4)
        defer { simulator.stop() }
        let endpoints = try simulator.start()
        let socket = try Socket(context, .dealer)
        defer { socket.close() }
        try socket.setReceiveTimeout(5000)
        try socket.connect(endpoints[laneId(0)]!)
        try socket.send(RelayMessage.open(ref: Array(sampleId.utf8), url: url).frames)
        while let frames = try socket.receive() {
            guard case .callback(let callback, _)? = try? RelayMessage(frames: frames) else { continue }
            let id = Array(sampleId.utf8)
            guard let at = JSONScan.find(id, in: callback) else {
                throw BenchError(
                    "the simulator's callback does not name the sale: \(String(decoding: callback, as: UTF8.self))")
            }
            return Wire(
                url: url, callbackPrefix: Array(callback[..<at]), callbackSuffix: Array(callback[(at + id.count)...]))
        }
        throw BenchError("the simulator sent no callback for the sample sale within 5 s")
    }
}

/// Command ids of the load clients: `cKK-LLLL-SSSSSSSSS` (client, lane, sequence), fixed width, so that every
/// command, URL, callback and reply of a run has the same size and a reply names its lane at a fixed offset.
enum CommandId {
    static let length = 18
    static let laneOffset = 4

    static func text(client: Int, lane: Int, sequence: Int) -> String {
        "c" + Wire.pad(client, 2) + "-" + Wire.pad(lane, Wire.laneDigits) + "-" + Wire.pad(sequence, 9)
    }

    /// The lane number inside an id's bytes.
    static func lane(in id: ArraySlice<UInt8>) -> Int? {
        guard id.count == length else { return nil }
        var value = 0
        for byte in id.dropFirst(laneOffset).prefix(Wire.laneDigits) {
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }
}

/// Byte scans shared by the clients and the raw relay: the value of `"key":"…"` in a JSON frame.
enum JSONScan {
    static let idKey = Array(#""id":""#.utf8)
    static let laneKey = Array(#""lane":""#.utf8)
    static let success = Array(#""outcome":"success""#.utf8)

    static func stringValue(_ key: [UInt8], in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard let at = find(key, in: bytes) else { return nil }
        let start = at + key.count
        guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return bytes[start..<end]
    }

    /// The offset of the first `needle` in `bytes` (memchr on its first byte, then a compare).
    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        return bytes.withUnsafeBufferPointer { haystack -> Int? in
            needle.withUnsafeBufferPointer { pattern -> Int? in
                let base = haystack.baseAddress!
                var offset = 0
                let last = haystack.count - pattern.count
                while offset <= last {
                    guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return nil }
                    let position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + position, pattern.baseAddress!, pattern.count) == 0 { return position }
                    offset = position + 1
                }
                return nil
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
