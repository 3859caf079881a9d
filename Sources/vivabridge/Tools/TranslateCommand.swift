import ArgumentParser
import Foundation
import InterApp

/// `vivabridge translate`: turns a JSON command into the terminal URL the bridge would open, or its rejection.
struct TranslateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Print the terminal URL for a JSON command, or the contract's rejection.",
        discussion: """
            Reads the command from the argument, or from standard input when there is none. The lane comes from \
            the command's "lane"; the lane settings from the options. Prints the URL and exits 0, or prints \
            {"id":…,"outcome":"rejected","error":{"code":…,"message":…}} and exits 2.
            """
    )

    @Argument(
        help: "The JSON command, for example '{\"id\":\"a\",\"lane\":\"l\",\"action\":\"sale\",\"amount\":1200}'.")
    var json: String?

    @Option(name: .customLong("merchant-key"), parsing: .unconditional, help: "The lane's merchant key.")
    var merchantKey = "SG23323424EXS3"

    @Option(name: .customLong("app-id"), help: "The store app's id.")
    var appId = "com.example.pos"

    @Option(help: "The callback: a scheme (interapp-callback) or a full URI.")
    var callback = "interapp-callback"

    @Option(
        help: "The terminal app's platform: ios or android.",
        transform: { text in
            guard let platform = Platform(rawValue: text.lowercased()) else {
                throw ValidationError("--platform must be ios or android, not \"\(text)\"")
            }
            return platform
        })
    var platform: Platform = .ios

    func run() throws {
        let frame = json.map { Array($0.utf8) } ?? [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        let lane = LaneSettings(merchantKey: merchantKey, appId: appId, callback: callback, platform: platform)
        do {
            print(try Self.translate(frame, lane: lane))
        } catch {
            print(JSONValue.object(error.reply).serializedString)
            throw ExitCode(2)
        }
    }

    /// The URL for the command in `frame` on a lane with `lane`'s settings.
    static func translate(_ frame: [UInt8], lane: LaneSettings) throws(Rejection) -> String {
        let command = try CommandDecoder().decode(frame)
        guard let terminal = command.terminal else {
            throw Rejection(
                .unknownAction, "\(command.action) is a bridge query: it is answered by the bridge, not by a terminal",
                id: command.id, action: command.action)
        }
        do {
            try terminal.check(platform: lane.platform)
        } catch {
            var rejection = error
            rejection.id = command.id
            throw rejection
        }
        return RequestURL.build(terminal, lane: lane)
    }
}
