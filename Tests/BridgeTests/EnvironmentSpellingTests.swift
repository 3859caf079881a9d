import Bridge
import Testing

/// One spelling rule for the variables derived from keys (docs/CONFIG.md): camelCase words split by `_`.
@Suite("Environment spelling: one rule, the old spelling read with a warning, the nearest variable named")
struct EnvironmentSpellingTests {
    /// The warnings for `environment`, each as `NAME -> the variable it stands for`.
    static func named(_ environment: [String: String]) -> [String] {
        BridgeConfiguration.environmentWarnings(environment).map { "\($0.name) -> \($0.resembles)" }
    }

    @Test(
        "a key's variable splits its camelCase words",
        arguments: [
            (["terminal", "merchantKey"], "VIVABRIDGE_TERMINAL_MERCHANT_KEY"),
            (["journalPasswordFile"], "VIVABRIDGE_JOURNAL_PASSWORD_FILE"),
            (["lanes", "0", "relayPublicKeyFile"], "VIVABRIDGE_LANES_0_RELAY_PUBLIC_KEY_FILE"),
            (["terminal", "timeoutMs", "pre_auth"], "VIVABRIDGE_TERMINAL_TIMEOUT_MS_PRE_AUTH"),
            (["httpHosts"], "VIVABRIDGE_HTTP_HOSTS"),
        ])
    func variable(path: [String], name: String) {
        #expect(EnvironmentSpelling.variable(path) == name)
    }

    @Test(
        "VIVABRIDGE_JOURNAL_PASSWORD_FILE sets journalPasswordFile (the password itself stays VIVABRIDGE_JOURNAL_PASSWORD)"
    )
    func passwordFile() {
        let environment = ["VIVABRIDGE_JOURNAL_PASSWORD_FILE": "/nonexistent/journal.password"]
        let (configuration, problems) = BridgeConfiguration.check(
            yaml: ConfigurationTests.valid, environment: environment)
        #expect(configuration.journalPasswordFile == "/nonexistent/journal.password")
        #expect(Set(problems.all.map(\.key)) == ["journalPasswordFile"])
        #expect(BridgeConfiguration.environmentWarnings(environment).isEmpty)
    }

    @Test("the current spelling sets camelCase keys with no warning")
    func currentSpelling() throws {
        let environment = [
            "VIVABRIDGE_TERMINAL_MERCHANT_KEY": "FROM-ENV", "VIVABRIDGE_HTTP_HOSTS": "wall.local",
            "VIVABRIDGE_LANES_1_APP_ID": "com.lane2", "VIVABRIDGE_HEARTBEAT_EVENT_MS": "5000",
        ]
        let configuration = try BridgeConfiguration.load(yaml: ConfigurationTests.valid, environment: environment)
        #expect(configuration.terminal.merchantKey == "FROM-ENV")
        #expect(configuration.httpHosts == ["wall.local"])
        #expect(configuration.lanes[1].terminal.appId == "com.lane2")
        #expect(configuration.heartbeatEventMs == 5000)
        #expect(BridgeConfiguration.environmentWarnings(environment).isEmpty)
    }

    @Test("the old spelling (words run together) is still read, with a warning naming the variable to use")
    func oldSpelling() throws {
        let environment = [
            "VIVABRIDGE_TERMINAL_MERCHANTKEY": "SECRET-K3Y", "VIVABRIDGE_TERMINAL_TIMEOUTMS_SALE": "60000",
            "VIVABRIDGE_JOURNALPASSWORDFILE": "/nonexistent/p",
        ]
        let (configuration, _) = BridgeConfiguration.check(yaml: ConfigurationTests.valid, environment: environment)
        #expect(configuration.terminal.merchantKey == "SECRET-K3Y")
        #expect(configuration.lanes[0].timeout(for: .sale) == 60000)
        #expect(configuration.journalPasswordFile == "/nonexistent/p")
        let warnings = BridgeConfiguration.environmentWarnings(environment)
        #expect(
            Self.named(environment) == [
                "VIVABRIDGE_JOURNALPASSWORDFILE -> VIVABRIDGE_JOURNAL_PASSWORD_FILE",
                "VIVABRIDGE_TERMINAL_MERCHANTKEY -> VIVABRIDGE_TERMINAL_MERCHANT_KEY",
                "VIVABRIDGE_TERMINAL_TIMEOUTMS_SALE -> VIVABRIDGE_TERMINAL_TIMEOUT_MS_SALE",
            ])
        #expect(warnings.allSatisfy { $0.kind == .oldSpelling })
        #expect(warnings[1].description.contains("rename it VIVABRIDGE_TERMINAL_MERCHANT_KEY"))
        #expect(!warnings.map(\.description).joined().contains("SECRET-K3Y"))
    }

    @Test(
        "a misspelt variable is ignored and the nearest valid one named",
        arguments: [
            ("VIVABRIDGE_JOURNAL_PASWORD_FILE", "VIVABRIDGE_JOURNAL_PASSWORD_FILE"),
            ("VIVABRIDGE_JOURNAL_PASSWORDFILE", "VIVABRIDGE_JOURNAL_PASSWORD_FILE"),
            ("VIVABRIDGE_TERMINAL_MERCHANT_KY", "VIVABRIDGE_TERMINAL_MERCHANT_KEY"),
            ("VIVABRIDGE_HEARTBEAT_EVENTMS", "VIVABRIDGE_HEARTBEAT_EVENT_MS"),
        ])
    func misspelt(name: String, nearest: String) throws {
        let configuration = try BridgeConfiguration.load(yaml: ConfigurationTests.valid, environment: [name: "5000"])
        #expect(configuration.terminal.merchantKey == "SG23323424EXS3")
        #expect(configuration.journalPasswordFile == nil)
        let warnings = BridgeConfiguration.environmentWarnings([name: "5000"])
        #expect(warnings.map(\.resembles) == [nearest])
        #expect(warnings.map(\.kind) == [.misspelt])
    }
}
