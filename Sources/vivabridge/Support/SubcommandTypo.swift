import ArgumentParser
import Foundation
import InterApp

/// The entry point: a word where a subcommand is expected that names none (`vivabridge sned sale …`) is
/// answered with the nearest subcommand before ArgumentParser reads the rest (it would otherwise complain
/// of the first option it cannot place, such as `--lane`); everything else is ``VivabridgeCommand``'s.
@main
enum VivabridgeMain {
    static func main() async {
        if let problem = SubcommandTypo.problem(in: Array(CommandLine.arguments.dropFirst())) {
            FileHandle.standardError.write(Data("Error: \(problem)\n".utf8))
            exit(ExitCode.validationFailure.rawValue)
        }
        await VivabridgeCommand.main()
    }
}

/// Finds a misspelt subcommand in a command line.
enum SubcommandTypo {
    /// What is wrong with the first word of `arguments` when `command` expects one of its subcommands there
    /// and the word names none; nil when the words name subcommands all the way (or an option comes first).
    static func problem(
        in arguments: [String], command: any ParsableCommand.Type = VivabridgeCommand.self,
        path: [String] = ["vivabridge"]
    ) -> String? {
        let subcommands = command.configuration.subcommands
        guard !subcommands.isEmpty, let word = arguments.first, !word.hasPrefix("-"), word != "help" else {
            return nil
        }
        let names = subcommands.map { $0._commandName }
        if let index = names.firstIndex(of: word) {
            return problem(in: Array(arguments.dropFirst()), command: subcommands[index], path: path + [word])
        }
        let name = path.joined(separator: " ")
        if let near = nearest(to: word, among: names) {
            return "'\(word)' is not a command of \(name); did you mean '\(near)'? (see: \(name) \(near) --help)"
        }
        return
            "'\(word)' is not a command of \(name), which takes: \(names.joined(separator: ", ")) (see: \(name) --help)"
    }

    /// The name within two edits of `word` (one for words of three letters or fewer), the nearest first.
    static func nearest(to word: String, among names: [String]) -> String? {
        let letters = Array(word.lowercased().unicodeScalars)
        let allowance = letters.count <= 3 ? 1 : 2
        let scored = names.map { ($0, Suggestion.editDistance(letters, Array($0.lowercased().unicodeScalars))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= allowance else { return nil }
        return best.0
    }
}
