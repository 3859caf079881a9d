import Bridge
import InterApp
import Testing

@Suite("Configuration: the YAML of section 8, environment overrides, precise refusals")
struct ConfigurationTests {
    static let valid = """
        command: tcp://127.0.0.1:5555
        commandPull: tcp://127.0.0.1:5558
        events: tcp://127.0.0.1:5556
        journal: /tmp/j.sqlite
        terminal:
          merchantKey: SG23323424EXS3
          appId: com.example.pos
          callback: interapp-callback
          timeoutMs: {sale: 120000, cancel: 120000, batch: 30000, transactionDetails: 30000, abort: 30000}
        lanes:
          - id: lane-1
            endpoint: tcp://127.0.0.1:6001
            platform: ios
          - id: lane-2
            endpoint: tcp://127.0.0.1:6002
            platform: android
            appId: com.example.pos.lane2
        """

    @Test("the contract's example loads, lanes inherit terminal settings and may override them")
    func contractExample() throws {
        let config = try BridgeConfiguration.load(yaml: Self.valid)
        #expect(config.commandPull == "tcp://127.0.0.1:5558")
        #expect(config.lanes.map(\.id) == ["lane-1", "lane-2"])
        #expect(config.lanes[0].terminal.appId == "com.example.pos")
        #expect(config.lanes[1].terminal.appId == "com.example.pos.lane2")
        #expect(config.lanes[1].terminal.merchantKey == "SG23323424EXS3")
        #expect(config.lanes[1].platform == .android)
        #expect(config.lanes[0].timeout(for: .batch) == 30000)
    }

    @Test("environment variables override keys, secrets included")
    func environment() throws {
        let config = try BridgeConfiguration.load(
            yaml: Self.valid,
            environment: [
                "VIVABRIDGE_TERMINAL_MERCHANT_KEY": "FROM-ENV", "VIVABRIDGE_EVENTS": "tcp://127.0.0.1:7556",
                "VIVABRIDGE_LANES_1_ENDPOINT": "tcp://127.0.0.1:7002", "VIVABRIDGE_TERMINAL_TIMEOUT_MS_SALE": "60000",
                "VIVABRIDGE_LANES_0_APP_ID": "com.lane1", "OTHER": "ignored",
            ])
        #expect(config.terminal.merchantKey == "FROM-ENV")
        #expect(config.lanes[0].terminal.merchantKey == "FROM-ENV")
        #expect(config.events == "tcp://127.0.0.1:7556")
        #expect(config.lanes[1].endpoint == "tcp://127.0.0.1:7002")
        #expect(config.lanes[0].timeout(for: .sale) == 60000)
        #expect(config.lanes[0].terminal.appId == "com.lane1")
    }

    @Test("an action whose name holds `_` is reachable from the environment (v1.1: pre_auth, capture_pre_auth)")
    func environmentActionWithUnderscore() throws {
        let config = try BridgeConfiguration.load(
            yaml: Self.valid,
            environment: [
                "VIVABRIDGE_TERMINAL_TIMEOUT_MS_PRE_AUTH": "90000",
                "VIVABRIDGE_LANES_0_TIMEOUT_MS_CAPTURE_PRE_AUTH": "45000",
            ])
        #expect(config.lanes[0].timeout(for: .preAuth) == 90000)
        #expect(config.lanes[0].timeout(for: .capturePreAuth) == 45000)
        #expect(config.lanes[1].timeout(for: .capturePreAuth) == 120_000)
        #expect(config.lanes[0].timeout(for: .reprint) == 30000)
    }

    static let refusals: [(String, String, String)] = [
        ("comand: tcp://127.0.0.1:1\n", "comand", "unknown key"),
        (
            "lanes:\n  - {id: a, endpoint: \"tcp://127.0.0.1:1\", platform: ios}\n  - {id: a, endpoint: \"tcp://127.0.0.1:2\", platform: ios}\n",
            "lanes[1].id", "duplicate lane id"
        ),
        ("lanes:\n  - {id: a, endpoint: \"127.0.0.1:1\", platform: ios}\n", "lanes[0].endpoint", "transport://address"),
        (
            "lanes:\n  - {id: a, endpoint: \"tcp://127.0.0.1:99999\", platform: ios}\n", "lanes[0].endpoint",
            "1 to 65535"
        ),
        (
            "lanes:\n  - {id: a, endpoint: \"tcp://127.0.0.1:1\", platform: windows}\n", "lanes[0].platform",
            "ios or android"
        ),
        ("terminal:\n  timeoutMs: {sale: 10}\n", "terminal.timeoutMs.sale", "between 1000 and 600000"),
        ("terminal:\n  timeoutMs: {refund: 5000}\n", "terminal.timeoutMs.refund", "unknown action"),
        (
            "lanes:\n  - {id: a, endpoint: \"tcp://127.0.0.1:1\", platform: ios, merchantKee: x}\n",
            "lanes[0].merchantKee", "unknown key"
        ),
        ("events: tcp://127.0.0.1:5555\n", "events", "already uses"),
        ("command: [1, 2]\n", "command", "single value"),
        ("lanes: {}\n", "lanes", "list of lanes"),
        (": : :\n  - [", "", "not valid YAML"),
        ("", "", "the file is empty"),
        ("# nothing but a comment\n", "", "the file is empty"),
        ("lanes: []\n", "lanes", "at least one lane"),
        ("journal: /tmp/j.sqlite\n", "lanes", "at least one lane"),
        (
            "lanes:\n  - {id: a, endpoint: \"tcp://127.0.0.1:1\", platform: ios}\n  - {id: b, endpoint: \"tcp://127.0.0.1:1\", platform: ios}\n",
            "lanes[1].endpoint", "lanes[0].endpoint already uses"
        ),
        (
            "lanes:\n  - {id: a, endpoint: \"tcp://127.0.0.1:5555\", platform: ios}\n", "lanes[0].endpoint",
            "command already uses"
        ),
        (
            "events: tcp://localhost:7000\nlanes:\n  - {id: a, endpoint: \"tcp://127.0.0.1:7000\", platform: ios}\n",
            "lanes[0].endpoint", "events already uses"
        ),
        (Self.aliasBomb, "", "expands to more than"),
        ("log: {level: loud}\n", "log.level", "must be one of"),
        ("log: {format: xml}\n", "log.format", "text or json"),
        ("log: {colour: red}\n", "log.colour", "unknown key"),
        ("lanes:\n  - {id: a, endpoint: \"tcp://127.0.0.1:1\", platform: ios}\n", "lanes[0].merchantKey", "is empty"),
        (
            "terminal: {merchantKey: K}\nlanes:\n  - {id: a, endpoint: \"tcp://127.0.0.1:1\", platform: ios, merchantKey: \" \"}\n",
            "lanes[0].merchantKey", "is empty"
        ),
    ]

    /// A "billion laughs" document: nine levels of ten aliases each.
    static let aliasBomb: String = {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(refs)]\n"
        }
        return text
    }()

    @Test("a bad file is refused with the key and the rule", arguments: refusals)
    func refused(yaml: String, key: String, rule: String) {
        do {
            _ = try BridgeConfiguration.load(yaml: yaml)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.key == key)
            #expect(error.message.contains(rule), "\(error.message)")
        }
    }

    @Test("a VIVABRIDGE_ variable that names no key is ignored; one that resembles a key is named with the key")
    func unknownEnvironment() throws {
        let environment = [
            "VIVABRIDGE_TERMINAL_MERCHANTKY": "x", "VIVABRIDGE_KEY_FILE": "/home/pos/till.key",
            "VIVABRIDGE_SERVER_KEY": "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7", "VIVABRIDGE_STATE": "/tmp/s",
            "VIVABRIDGE_MERCHANTKEY_TERMINAL": "y", "VIVABRIDGE_LANES_1_APPDI": "z", "VIVABRIDGE_MERCHANT_KEY": "w",
            "VIVABRIDGE_HTTP": "off", "VIVABRIDGE_CONTRACT_RECORD": "/tmp/r.jsonl",
        ]
        let config = try BridgeConfiguration.load(yaml: Self.valid, environment: environment)
        #expect(config.lanes.count == 2)
        #expect(config.terminal.merchantKey != "x")
        #expect(config.http == nil)
        let warnings = BridgeConfiguration.environmentWarnings(environment)
        #expect(
            EnvironmentSpellingTests.named(environment) == [
                "VIVABRIDGE_LANES_1_APPDI -> VIVABRIDGE_LANES_1_APP_ID",
                "VIVABRIDGE_MERCHANTKEY_TERMINAL -> VIVABRIDGE_TERMINAL_MERCHANT_KEY",
                "VIVABRIDGE_MERCHANT_KEY -> VIVABRIDGE_TERMINAL_MERCHANT_KEY",
                "VIVABRIDGE_TERMINAL_MERCHANTKY -> VIVABRIDGE_TERMINAL_MERCHANT_KEY",
            ])
        #expect(warnings.first?.description.contains("did you mean VIVABRIDGE_LANES_1_APP_ID?") == true)
    }

    @Test("log level and format come from the file or from VIVABRIDGE_LOG_LEVEL and VIVABRIDGE_LOG_FORMAT")
    func logSettings() throws {
        let file = try BridgeConfiguration.load(yaml: Self.valid + "\nlog: {level: notice, format: json}\n")
        #expect(file.log.level == "notice")
        #expect(file.log.format == .json)
        let environment = try BridgeConfiguration.load(
            yaml: Self.valid, environment: ["VIVABRIDGE_LOG_LEVEL": "debug", "VIVABRIDGE_LOG_FORMAT": "json"])
        #expect(environment.log.level == "debug")
        #expect(environment.log.format == .json)
    }

    @Test("an environment override of a lane the file lacks is refused")
    func environmentForMissingLane() {
        #expect(throws: ConfigurationError.self) {
            try BridgeConfiguration.load(
                yaml: Self.valid, environment: ["VIVABRIDGE_LANES_5_ENDPOINT": "tcp://127.0.0.1:1"])
        }
    }
}
