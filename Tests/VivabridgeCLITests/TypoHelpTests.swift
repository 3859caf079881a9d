import Foundation
import Testing

@testable import vivabridge

/// What the command line says to a typing mistake: the nearest subcommand, and the rule an amount breaks.
@Suite("vivabridge: help with typing mistakes")
struct TypoHelpTests {
    @Test("a misspelt subcommand is answered with the nearest one (exit 64), before any option is read")
    func misspeltSubcommand() throws {
        let send = try ChildProcess(["sned", "sale", "--lane", "lane-1", "--amount", "12.00"])
        #expect(send.waitForExit(timeout: 20) == 64)
        #expect(
            send.errorOutput.contains("'sned' is not a command of vivabridge; did you mean 'send'?"),
            "\(send.errorOutput)")
        #expect(!send.errorOutput.contains("Unknown option"))
        let journal = try ChildProcess(["journal", "unknwn"])
        #expect(journal.waitForExit(timeout: 20) == 64)
        #expect(journal.errorOutput.contains("did you mean 'unknown'?"), "\(journal.errorOutput)")
    }

    @Test("the nearest subcommand, or the list when none is near; words that name subcommands pass")
    func suggestions() {
        #expect(SubcommandTypo.problem(in: ["send", "sale", "--lane", "lane-1"]) == nil)
        #expect(SubcommandTypo.problem(in: ["journal", "export", "--journal", "j"]) == nil)
        #expect(SubcommandTypo.problem(in: ["help", "send"]) == nil)
        #expect(SubcommandTypo.problem(in: ["--version"]) == nil)
        #expect(SubcommandTypo.problem(in: []) == nil)
        #expect(SubcommandTypo.problem(in: ["wacth"])?.contains("did you mean 'watch'?") == true)
        #expect(
            SubcommandTypo.problem(in: ["journal", "bakup"])?.contains("vivabridge journal; did you mean 'backup'?")
                == true)
        let far = SubcommandTypo.problem(in: ["payment"])
        #expect(far?.contains("which takes: run, check, journal") == true, "\(String(describing: far))")
    }

    @Test("a negative amount is said to be one (amounts are positive), not a missing value")
    func negativeAmount() throws {
        let child = try ChildProcess(["send", "sale", "--lane", "lane-1", "--amount", "-5.00"])
        #expect(child.waitForExit(timeout: 20) == 64)
        #expect(child.errorOutput.contains("-5.00: amounts are positive"), "\(child.errorOutput)")
        #expect(!child.errorOutput.contains("Missing value"))
        let tip = try ChildProcess(["send", "sale", "--lane", "lane-1", "--amount", "5.00", "--tip", "-1"])
        #expect(tip.waitForExit(timeout: 20) == 64)
        #expect(tip.errorOutput.contains("-1: amounts are positive"), "\(tip.errorOutput)")
    }
}
