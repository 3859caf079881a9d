import InterApp

/// Shared helpers for the InterApp tests.
enum Fixture {
    static let decoder = CommandDecoder()
    static let iosLane = LaneSettings(
        merchantKey: "SG23323424EXS3", appId: "com.example.pos", callback: "interapp-callback", platform: .ios)
    static let androidLane = LaneSettings(
        merchantKey: "SG23323424EXS3", appId: "com.example.pos", callback: "mycallbackscheme", platform: .android)

    /// Decodes a command from JSON text.
    static func decode(_ json: String) throws(Rejection) -> Command {
        try decoder.decode(Array(json.utf8))
    }

    /// The rejection for a command, or `nil` if it was accepted.
    static func rejection(_ json: String) -> Rejection? {
        do {
            _ = try decode(json)
            return nil
        } catch {
            return error
        }
    }

    /// The terminal command in a valid command.
    static func terminal(_ json: String) throws -> TerminalCommand {
        let command = try decode(json)
        guard let terminal = command.terminal else { throw TestFailure("not a terminal command: \(json)") }
        return terminal
    }

    /// Parses a callback, failing the test on error.
    static func callback(_ url: String) throws -> Callback {
        try CallbackParser.parse(url)
    }
}

/// A thrown failure with a message.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A small deterministic random generator (SplitMix64) for fuzz tests that must be reproducible.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
