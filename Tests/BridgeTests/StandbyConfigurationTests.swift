import Foundation
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// `instance` and `leaseMs` (docs/CONFIG.md): defaults, ranges, and `leaseMs` only with a PostgreSQL journal.
@Suite("Standby configuration: instance and leaseMs")
struct StandbyConfigurationTests {
    static let lanes = """
        terminal: {merchantKey: K}
        lanes:
          - {id: lane-1, endpoint: "tcp://127.0.0.1:6001", platform: ios}

        """

    @Test("defaults: the host name and pid, a 4 s lease; both read from the file")
    func defaults() throws {
        let plain = try BridgeConfiguration.load(yaml: Self.lanes + "journal: postgresql://u@db/j\n", environment: [:])
        #expect(plain.instance == nil && plain.leaseMs == 4000)
        #expect(plain.instanceName.hasSuffix("-\(ProcessInfo.processInfo.processIdentifier)"))
        #expect(plain.journalIsShared)
        let set = try BridgeConfiguration.load(
            yaml: Self.lanes + "journal: postgresql://u@db/j\ninstance: till-a\nleaseMs: 1500\n", environment: [:])
        #expect(set.instanceName == "till-a" && set.leaseMs == 1500)
    }

    @Test("leaseMs with a journal file, under 1000, and an instance with a space are refused, naming the key")
    func refusals() {
        let problems: [(String, String, String)] = [
            ("journal: /tmp/j.sqlite\nleaseMs: 4000\n", "leaseMs", "remove leaseMs"),
            ("journal: postgresql://u@db/j\nleaseMs: 500\n", "leaseMs", "between 1000 and 600000"),
            ("journal: postgresql://u@db/j\ninstance: till a\n", "instance", "one word"),
        ]
        for (yaml, key, words) in problems {
            let found = BridgeConfiguration.check(yaml: Self.lanes + yaml).problems.all
            #expect(found.count == 1, "\(yaml): \(found)")
            #expect(found.first?.key == key, "\(yaml)")
            #expect(found.first?.description.contains(words) == true, "\(String(describing: found.first))")
        }
    }
}
