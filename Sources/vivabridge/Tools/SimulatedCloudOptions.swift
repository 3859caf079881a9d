import ArgumentParser
import Dispatch
import Synchronization
import TerminalSimulator

/// `vivabridge simulate --cloud PORT` and its faults: Viva's simulated back office on loopback (docs/CLOUD.md),
/// recording what the simulated lanes do, with the demo credentials (``CloudCredentials/demo``).
struct SimulatedCloudOptions: ParsableArguments {
    @Option(
        name: .customLong("cloud"),
        help: ArgumentHelp(
            "Serve Viva's calls (token, day's transactions, cloud sessions) on 127.0.0.1:PORT from the lanes' ledger (0: any port; "
                + "printed as \"viva-cloud URL\").", valueName: "PORT"))
    var port: Int?

    @Option(name: .customLong("cloud-token-expires-ms"), help: "Tokens stop working this long after they are issued.")
    var tokenExpiresMs: Int?

    @Option(name: .customLong("cloud-5xx-rate"), help: "The share of calls answered 500 (0 to 1).")
    var serverErrorRate = 0.0

    @Option(name: .customLong("cloud-429-rate"), help: "The share of calls answered 429 (0 to 1).")
    var tooManyRequestsRate = 0.0

    @Option(name: .customLong("cloud-latency-ms"), help: "How long every answer waits.")
    var latencyMs = 0

    @Option(name: .customLong("cloud-appear-after-ms"), help: "How long a new transaction stays out of the lists.")
    var appearAfterMs = 0

    @Option(name: .customLong("cloud-session-ms"), help: "How long a cloud lane's session runs before it ends.")
    var sessionMs = 200

    @Option(
        name: .customLong("cloud-lost-posts"),
        help: "How many session POSTs are applied and then answered 502, as when the answer is lost on the way.")
    var lostPosts = 0

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--cloud takes a port, 0 to 65535") }
        guard (0...1).contains(serverErrorRate), (0...1).contains(tooManyRequestsRate) else {
            throw ValidationError("--cloud-5xx-rate and --cloud-429-rate are shares, 0 to 1")
        }
        guard latencyMs >= 0, appearAfterMs >= 0, (tokenExpiresMs ?? 0) >= 0, sessionMs >= 0, lostPosts >= 0 else {
            throw ValidationError("the --cloud-…-ms options must not be negative")
        }
    }

    /// The faults asked for.
    var faults: CloudFaults {
        var faults = CloudFaults()
        faults.tokenExpiresAfterMs = tokenExpiresMs
        faults.serverErrorRate = serverErrorRate
        faults.tooManyRequestsRate = tooManyRequestsRate
        faults.latencyMs = latencyMs
        faults.appearAfterMs = appearAfterMs
        faults.sessionMs = sessionMs
        faults.lostPostAnswers = lostPosts
        return faults
    }

    /// The back office, listening on ``port`` (waited for: `simulate` is synchronous).
    func start(ledger: CloudLedger, seed: UInt64, sessionPosted: RequestObserver? = nil) throws -> RunningBackOffice {
        let server = CloudBackOfficeServer(
            backOffice: CloudBackOffice(
                credentials: .demo, ledger: ledger, faults: faults, seed: seed, sessionPosted: sessionPosted),
            port: port ?? 0)
        let bound = RunningBackOffice.Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                bound.set(.success(try await server.start()))
            } catch {
                bound.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        return RunningBackOffice(server: server, port: try bound.get())
    }
}

/// A started back office: its URL, and a way to stop it.
struct RunningBackOffice {
    let server: CloudBackOfficeServer
    let port: Int

    var url: String { "http://127.0.0.1:\(port)" }

    /// Stops it (waited for).
    func stop() {
        let done = DispatchSemaphore(value: 0)
        Task { [server] in
            await server.stop()
            done.signal()
        }
        done.wait()
    }

    /// The port a start gave, handed across the task.
    final class Box: Sendable {
        private let value = Mutex<Result<Int, any Error>>(.success(0))
        func set(_ new: Result<Int, any Error>) { value.withLock { $0 = new } }
        func get() throws -> Int { try value.withLock { $0 }.get() }
    }
}
