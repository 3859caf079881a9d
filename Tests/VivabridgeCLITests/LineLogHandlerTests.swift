import Logging
import Testing

@testable import vivabridge

/// A logger's level is its own (v1.1: setting one logger's level set the whole process's, so the HTTP
/// listener's quiet logger silenced every info and notice line).
@Suite("Log lines: each logger's level")
struct LineLogHandlerTests {
    @Test(
        "quietening one logger leaves the process's threshold and every other logger alone; a reload still reaches it")
    func ownLevel() {
        let threshold = LogThreshold(.info)
        let bridge = Logger(label: "vivabridge") { LineLogHandler(label: $0, format: .text, threshold: threshold) }
        var quiet = bridge
        quiet.logLevel = .warning
        #expect(threshold.level == .info)
        #expect(bridge.logLevel == .info)
        #expect(quiet.logLevel == .warning)
        // A reload (SIGHUP) moves the process's threshold: every logger follows, none goes below its own.
        threshold.level = .debug
        #expect(bridge.logLevel == .debug)
        #expect(quiet.logLevel == .warning)
        threshold.level = .error
        #expect(quiet.logLevel == .error, "a logger's own level only ever quietens it")
        var loud = bridge
        loud.logLevel = .trace
        #expect(loud.logLevel == .error, "nor makes it louder than the process")
    }
}
