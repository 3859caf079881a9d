import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `vivabridge run` with its HTTP listener: the embedded default turns it on, VIVABRIDGE_HTTP moves it,
/// a port in use ends the start naming the key.
@Suite("vivabridge run: the HTTP listener")
struct HTTPRunTests {
    @Test("the embedded default serves /healthz and /readyz where VIVABRIDGE_HTTP says, and stops on SIGTERM")
    func embeddedDefault() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-http-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let child = try ChildProcess(
            ["run"],
            environment: [
                "VIVABRIDGE_COMMAND": "tcp://127.0.0.1:*", "VIVABRIDGE_EVENTS": "tcp://127.0.0.1:*",
                "VIVABRIDGE_HTTP": "127.0.0.1:0", "VIVABRIDGE_STATE": state.path,
                "VIVABRIDGE_SIMULATOR_BASEPORT": String(try Self.freePortBase()),
            ])
        let line = try #require(
            child.waitForLine(containing: "vivabridge http: "), "no HTTP line: \(child.errorOutput)")
        let url = try #require(line.split(separator: " ").dropFirst(2).first.map(String.init))
        #expect(child.waitForLine(containing: "commands (ROUTER):") != nil)
        #expect(url.hasPrefix("http://127.0.0.1:") && !url.hasSuffix(":9556/"))
        let health = try Self.get(url + "healthz")
        #expect(health.status == 200)
        #expect(health.body.contains(#""status":"ok""#))
        var ready = try Self.get(url + "readyz")
        for _ in 0..<100 where !ready.body.contains(#""lane-3":"up""#) {
            Thread.sleep(forTimeInterval: 0.1)
            ready = try Self.get(url + "readyz")
        }
        #expect(ready.status == 200)
        #expect(ready.body == #"{"lanes":{"lane-1":"up","lane-2":"up","lane-3":"up"}}"# + "\n")
        child.signal(SIGTERM)
        #expect(child.waitForExit(timeout: 20) == 0)
    }

    @Test("an HTTP port in use ends the start with exit 1 and a line naming http and VIVABRIDGE_HTTP")
    func portInUse() throws {
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(holder, pointer, length) == 0 && listen(holder, 1) == 0
                    && getsockname(holder, pointer, &length) == 0
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-http-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let child = try ChildProcess(
            ["run"],
            environment: [
                "VIVABRIDGE_COMMAND": "tcp://127.0.0.1:*", "VIVABRIDGE_EVENTS": "tcp://127.0.0.1:*",
                "VIVABRIDGE_HTTP": "127.0.0.1:\(port)", "VIVABRIDGE_STATE": state.path,
                "VIVABRIDGE_SIMULATOR_BASEPORT": String(try Self.freePortBase()),
            ])
        #expect(child.waitForExit(timeout: 20) == 1)
        #expect(
            child.errorOutput.contains(
                "http: 127.0.0.1:\(port): address already in use; set \"http\" or VIVABRIDGE_HTTP"),
            "\(child.errorOutput)")
    }

    /// Three ports in a row below Linux's ephemeral range (32768 on), where no `*` bind of a parallel
    /// test can land, and away from the embedded default's 6001.
    static func freePortBase() throws -> Int { Int.random(in: 20_000...32_000) }

    /// A blocking GET; status and body.
    static func get(_ url: String) throws -> (status: Int, body: String) {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        URLSession.shared.dataTask(with: URL(string: url)!) { data, response, error in
            box.set(
                (
                    (response as? HTTPURLResponse)?.statusCode ?? 0,
                    data.map { String(decoding: $0, as: UTF8.self) } ?? "\(String(describing: error))"
                ))
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 10) == .success, let result = box.get() else { throw URLError(.timedOut) }
        return result
    }
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (Int, String)?
    func set(_ value: (Int, String)) {
        lock.lock()
        self.value = value
        lock.unlock()
    }
    func get() -> (Int, String)? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
