import Foundation
import InterApp

/// Section 4: the protocol core on one core. Each figure is set against a plain pass over the same bytes
/// (a memchr-like scan for separators plus a copy into a fresh array): the least any parser or builder of
/// those bytes must do.
struct ProtocolSection {
    var seconds: Double
    var log: (String) -> Void

    func run() -> SectionResult {
        var out = SectionResult()
        let decoder = CommandDecoder()
        let terminals: [TerminalCommand]
        do {
            terminals = try SampleInputs.commands.compactMap { try decoder.decode($0).terminal }
            for callback in SampleInputs.callbacks { _ = try CallbackParser.parse(callback) }
        } catch {
            out.failures.append("protocol: a sample input is refused: \(error)")
            return out
        }
        let urls = terminals.map { Array(RequestURL.build($0, lane: Wire.settings).utf8) }
        out.notes.append(
            "protocol: one thread, \(seconds) s per figure; inputs rotate over \(SampleInputs.callbacks.count) seed "
                + "callbacks (\(SampleInputs.callbacks.map(\.count).min()!)-\(SampleInputs.callbacks.map(\.count).max()!) B), "
                + "\(SampleInputs.commands.count) commands, \(urls.count) URLs "
                + "(\(urls.map(\.count).min()!)-\(urls.map(\.count).max()!) B)")

        log("  protocol: RequestURL.build ...")
        let built = rate { index in RequestURL.build(terminals[index % terminals.count], lane: Wire.settings).utf8.count
        }
        let copiedURLs = rate { index in Self.scanAndCopy(urls[index % urls.count], separator: UInt8(ascii: "&")) }
        out.rows.append(
            Row(
                section: "protocol", figure: "URLs built (RequestURL.build)", value: Format.rate(built),
                baseline: "\(Format.rate(copiedURLs)) scan+copy", ratio: built / copiedURLs))

        log("  protocol: CallbackParser.parse ...")
        let callbacks = SampleInputs.callbacks
        let parsed = rate { index in
            (try? CallbackParser.parse(callbacks[index % callbacks.count]))?.fields.count ?? 0
        }
        let scannedCallbacks = rate { index in
            Self.scanAndCopy(callbacks[index % callbacks.count], separator: UInt8(ascii: "&"))
        }
        out.rows.append(
            Row(
                section: "protocol", figure: "callbacks parsed (CallbackParser.parse, seeds)",
                value: Format.rate(parsed),
                baseline: "\(Format.rate(scannedCallbacks)) scan+copy", ratio: parsed / scannedCallbacks,
                target: ">= 1,000,000/s/core", verdict: parsed >= 1_000_000 ? .met : .notMet))

        log("  protocol: CallbackParser.parse + result ...")
        let typed = rate { index in
            (try? CallbackParser.parse(callbacks[index % callbacks.count]))?.result.count ?? 0
        }
        out.rows.append(
            Row(
                section: "protocol", figure: "callbacks parsed + typed result (as the bridge uses them)",
                value: Format.rate(typed), baseline: "\(Format.rate(scannedCallbacks)) scan+copy",
                ratio: typed / scannedCallbacks))

        log("  protocol: reply built and serialized ...")
        let parsedCallbacks = callbacks.compactMap { try? CallbackParser.parse($0) }
        let finals = parsedCallbacks.map { callback in
            Reply(
                id: Wire.sampleId, lane: "lane-1", action: callback.actionName, outcome: callback.baseOutcome,
                message: callback.message)
        }
        let results = parsedCallbacks.map(\.result)
        let replyBytes = finals.indices.map { Array(Self.replyText(finals[$0], result: results[$0]).utf8) }
        let replied = rate { index in
            Self.replyText(finals[index % finals.count], result: results[index % results.count]).utf8.count
        }
        let copiedReplies = rate { index in
            Self.scanAndCopy(replyBytes[index % replyBytes.count], separator: UInt8(ascii: ","))
        }
        out.rows.append(
            Row(
                section: "protocol", figure: "replies built + serialized (Reply.json, as finalize does per final)",
                value: Format.rate(replied), baseline: "\(Format.rate(copiedReplies)) scan+copy",
                ratio: replied / copiedReplies))
        out.notes.append(
            "protocol: replies of the \(finals.count) seed callbacks with their typed result, "
                + "\(replyBytes.map(\.count).min()!)-\(replyBytes.map(\.count).max()!) B")

        log("  protocol: CommandDecoder.decode ...")
        let commands = SampleInputs.commands
        let decoded = rate { index in
            (try? decoder.decode(commands[index % commands.count]))?.fingerprint.utf8.count ?? 0
        }
        let scannedCommands = rate { index in
            Self.scanAndCopy(commands[index % commands.count], separator: UInt8(ascii: "\""))
        }
        out.rows.append(
            Row(
                section: "protocol", figure: "commands decoded (CommandDecoder.decode)", value: Format.rate(decoded),
                baseline: "\(Format.rate(scannedCommands)) scan+copy", ratio: decoded / scannedCommands))
        return out
    }

    /// Calls `body` with 0, 1, 2, ... for `seconds`, reading the clock every 256 calls; returns calls per second.
    private func rate(_ body: (Int) -> Int) -> Double {
        var sink = 0
        for index in 0..<1000 { sink &+= body(index) }  // warm caches and lazy state
        var calls = 0
        let start = Monotonic.now()
        let end = start + UInt64(seconds * 1e9)
        var now = start
        while now < end {
            for _ in 0..<256 {
                sink &+= body(calls)
                calls += 1
            }
            now = Monotonic.now()
        }
        blackHole(sink)
        return Double(calls) / Monotonic.seconds(now - start)
    }

    /// What `Correlator.finalize` makes of an outcome: the reply object, its bytes, and its text for the journal.
    @inline(never)
    static func replyText(_ final: Reply, result: JSONObject) -> String {
        var reply = final
        reply.result = result
        return String(decoding: reply.serialized, as: UTF8.self)
    }

    /// The baseline: finds every `separator` with memchr and copies the bytes into a new array.
    @inline(never)
    static func scanAndCopy(_ bytes: [UInt8], separator: UInt8) -> Int {
        var copy = [UInt8]()
        copy.reserveCapacity(bytes.count)
        var found = 0
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                guard let hit = memchr(base + offset, Int32(separator), buffer.count - offset) else { break }
                found += 1
                offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
            }
            copy.append(contentsOf: buffer)
        }
        return found &+ copy.count
    }
}
