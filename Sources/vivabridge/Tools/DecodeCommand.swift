import ArgumentParser
import Foundation
import InterApp

/// `vivabridge decode`: reads a terminal callback URL and prints its typed result.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print a callback URL's typed result as JSON.",
        discussion: """
            Prints {"outcome":…,"message":…,"action":…,"result":{…}} and exits 0, or explains on standard error \
            why the URL is not a callback and exits 2. The outcome is the callback's own, before the bridge \
            correlates it with a command. Card numbers are masked.
            """
    )

    @Argument(
        help: "The callback URL, for example 'interapp-callback://result?status=success&action=sale&amount=1200'.")
    var url: String

    func run() throws {
        do {
            let callback = try CallbackParser.parse(url)
            print(JSONValue.object(callback.summary).serializedString)
        } catch {
            FileHandle.standardError.write(Data("vivabridge decode: \(error.message)\n".utf8))
            throw ExitCode(2)
        }
    }
}
