import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The one rate rule: orphans a lane journals, refused peers the log names.
@Suite("Rate window")
struct RateWindowTests {
    @Test("at most limit a window; the rest are counted and handed back once, when the next window starts")
    func window() {
        var window = RateWindow(limit: 2, length: 1000)
        #expect(window.admit(at: 5000) == (true, 0))
        #expect(window.admit(at: 5100) == (true, 0))
        #expect(window.admit(at: 5200) == (false, 0))
        #expect(window.admit(at: 5999) == (false, 0))
        #expect(window.suppressed == 2)
        #expect(window.admit(at: 6000) == (true, 2), "a new window starts: the old one's count is handed back")
        #expect(window.admit(at: 6100) == (true, 0))
        #expect(window.admit(at: 6200) == (false, 0))
    }

    @Test("a summary taken before the next one leaves the window as it is")
    func takeSuppressed() {
        var window = RateWindow(limit: 1, length: 1000)
        _ = window.admit(at: 5000)
        _ = window.admit(at: 5001)
        #expect(!window.isOver(at: 5999))
        #expect(window.isOver(at: 6000))
        #expect(window.takeSuppressed() == 1)
        #expect(window.takeSuppressed() == 0)
        #expect(window.admit(at: 6500) == (true, 0), "the window that started at 5000 is over: a new one starts")
        #expect(window.admit(at: 6600) == (false, 0))
    }
}
