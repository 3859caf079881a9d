import Dispatch
import Foundation
import Synchronization

/// Standard output as the tools use it: unbuffered writes, whether it is a terminal, and its width.
enum WatchTerminal {
    /// Writes `text` to standard output at once (no buffering: pipes see each line as it is printed).
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `text` to standard error.
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Whether standard output is a terminal (then `watch` redraws in place).
    static var isTTY: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The terminal's width in columns; `$COLUMNS` or 100 when standard output is not a terminal.
    static var width: Int {
        var size = winsize()
        if isTTY, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        return 100
    }

    /// ANSI: cursor home, clear screen.
    static let clearScreen = "\u{1B}[H\u{1B}[2J"
}

/// SIGINT and SIGTERM turned into a flag that a poll loop checks between polls (a poll has a timeout).
///
/// `@unchecked` only for the signal sources, which are written in `init` and never touched again.
final class WatchStopSignal: @unchecked Sendable {
    private let raised = Atomic<Bool>(false)
    private var sources: [any DispatchSourceSignal] = []

    /// Takes over SIGINT and SIGTERM for the rest of the process.
    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.raise() }
            source.resume()
            sources.append(source)
        }
    }

    private func raise() { raised.store(true, ordering: .releasing) }

    /// Whether SIGINT or SIGTERM arrived.
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}
