import Foundation
import Testing
import ZeroMQ

@Suite("Operator commands: --version and check")
struct OperatorCommandTests {
    @Test("--version prints the version and exits 0")
    func version() throws {
        let child = try ChildProcess(["--version"])
        #expect(child.waitForExit(timeout: 20) == 0)
        #expect(child.output.hasPrefix("vivabridge 1."))
    }

    @Test("check accepts a good file (exit 0) and names the problem of a bad one (exit 2), binding nothing")
    func check() throws {
        let folder = try ConfigFolder()
        defer { folder.remove() }
        let good = try folder.good(head: "command: tcp://127.0.0.1:5555\nevents: tcp://127.0.0.1:5556\n")
        let ok = try ChildProcess(["check", "--config", good.path])
        #expect(ok.waitForExit(timeout: 20) == 0)
        #expect(ok.output.contains("configuration OK"))
        #expect(!FileManager.default.fileExists(atPath: folder.journal.path))
        let bad = try folder.write("bad.yaml", "lanes: []\n")
        let refused = try ChildProcess(["check", "--config", bad.path])
        #expect(refused.waitForExit(timeout: 20) == 2)
        #expect(refused.errorOutput.contains("lanes: must list at least one lane"))
    }

    @Test("check ignores VIVABRIDGE_ variables that are no key (a client's own) and warns of a misspelt one, exit 0")
    func checkIgnoresOthersVariables() throws {
        let folder = try ConfigFolder()
        defer { folder.remove() }
        let good = try folder.good()
        let others = try ChildProcess(
            ["check", "--config", good.path],
            environment: ["VIVABRIDGE_KEY_FILE": "till.key", "VIVABRIDGE_SERVER_KEY": "bridge.pub"])
        #expect(others.waitForExit(timeout: 20) == 0)
        #expect(others.output.contains("configuration OK"))
        #expect(others.errorOutput.isEmpty, "\(others.errorOutput)")
        let misspelt = try ChildProcess(
            ["check", "--config", good.path], environment: ["VIVABRIDGE_TERMINAL_APPIDD": "com.example.till"])
        #expect(misspelt.waitForExit(timeout: 20) == 0)
        #expect(
            misspelt.errorOutput.contains(
                "warning: VIVABRIDGE_TERMINAL_APPIDD: names no configuration key and is ignored; did you mean "
                    + "VIVABRIDGE_TERMINAL_APP_ID?"), "\(misspelt.errorOutput)")
    }

    @Test("check lists every problem of a file, one a line, not only the first")
    func checkListsEveryProblem() throws {
        let folder = try ConfigFolder()
        defer { folder.remove() }
        let bad = try folder.write(
            "bad.yaml",
            """
            command: tcp://127.0.0.1:5555
            abortGraceMs: soon
            journalSync: sometimes
            terminal: {merchantKey: K}
            lanes:
              - {id: lane-1, endpoint: "tcp://127.0.0.1:6001", platform: ios}
              - {id: lane-2, endpoint: "tcp://127.0.0.1:6001", platform: windows}
              - {id: lane-3, endpoint: "tcp://127.0.0.1:5555", platform: android}
            """)
        let refused = try ChildProcess(["check", "--config", bad.path], environment: ["VIVABRIDGE_TERMINL_APPID": "x"])
        #expect(refused.waitForExit(timeout: 20) == 2)
        let lines = refused.errorOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("4 problem(s)") })
        for expected in [
            "abortGraceMs: must be a whole number", "journalSync: must be normal or full",
            "warning: VIVABRIDGE_TERMINL_APPID: names no configuration key and is ignored; did you mean "
                + "VIVABRIDGE_TERMINAL_APP_ID?", "lanes[1].platform: must be ios or android",
            "lanes[2].endpoint: uses tcp://127.0.0.1:5555, which command already uses",
        ] {
            #expect(lines.contains { $0.contains(expected) }, "missing: \(expected)")
        }
    }
}

@Suite("vivabridge keygen")
struct KeygenTests {
    @Test(
        "keygen prints a pair whose public key derives from its secret; --out writes .key 0600 and .pub, never overwrites"
    )
    func keygen() throws {
        let printed = try ChildProcess(["keygen"])
        #expect(printed.waitForExit(timeout: 20) == 0)
        let lines = printed.output.split(separator: "\n").map(String.init)
        let publicKey = try #require(lines.first { $0.hasPrefix("public: ") }).dropFirst(8)
        let secretKey = try #require(lines.first { $0.hasPrefix("secret: ") }).dropFirst(8)
        #expect(try CurveKeyPair.publicKey(forSecretKey: String(secretKey)) == String(publicKey))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = folder.appendingPathComponent("pos-7").path
        let written = try ChildProcess(["keygen", "--out", name])
        #expect(written.waitForExit(timeout: 20) == 0)
        let secret = try String(contentsOfFile: name + ".key", encoding: .utf8).trimmingCharacters(in: .newlines)
        let pub = try String(contentsOfFile: name + ".pub", encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(try CurveKeyPair.publicKey(forSecretKey: secret) == pub)
        #expect(!written.output.contains(secret), "the secret key was printed")
        let mode = try FileManager.default.attributesOfItem(atPath: name + ".key")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let again = try ChildProcess(["keygen", "--out", name])
        #expect(again.waitForExit(timeout: 20) == 1)
        #expect(again.errorOutput.contains("never overwrites"))
        #expect(try String(contentsOfFile: name + ".key", encoding: .utf8).contains(secret))
    }
}
