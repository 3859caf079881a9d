import InterApp
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The lane link's state machine on its own (issue 10): each event moves it, or is refused, as its rule says.
@Suite("Lane link state: each event and each refused one")
struct LaneLinkStateTests {
    static let newSettings = LaneConfiguration(id: "lane-1", endpoint: "tcp://127.0.0.1:2", platform: .ios)

    /// A state whose link is up: connected, and its relay answered hello.
    static func up() -> LaneLinkState {
        var state = LaneLinkState()
        _ = state.linkUp(atMs: 0)
        _ = state.helloAnswered()
        return state
    }

    /// A state whose link is up and a reload asked `change` of it.
    static func waiting(_ change: LaneChange) -> LaneLinkState {
        var state = up()
        state.reloadAsked(change)
        return state
    }

    /// A state whose link closes for `change`.
    static func closing(_ change: LaneChange) -> LaneLinkState {
        var state = waiting(change)
        _ = state.laneIdle()
        return state
    }

    @Test("a new lane is down and steady: every command is taken (and ends undeliverable while down)")
    func fresh() {
        let state = LaneLinkState()
        #expect(state.connection == .down && state.reload == .steady)
        #expect(!state.isUp && state.change == nil && !state.isRemoved)
        #expect(state.takes(.sale) && state.takes(.abort))
        #expect(!state.mayStartLookup, "no look-up on a link that is down")
    }

    @Test("up is announced once its relay answered hello, down once; a repeat of either is ignored")
    func upAndDown() {
        var state = LaneLinkState()
        let neverUp = state.linkDown()
        #expect(neverUp == .ignore, "a link that never came up does not go down")
        let unasked = state.helloAnswered()
        #expect(unasked == .ignore, "a hello read while down does not bring the lane up")
        #expect(!state.isUp)
        let connected = state.linkUp(atMs: 1000)
        #expect(connected == .greet, "the handshake makes the bridge say hello")
        #expect(state.connection == .greeting(sinceMs: 1000, warned: false))
        #expect(!state.isUp && !state.mayStartLookup, "not up before the relay answered")
        let first = state.helloAnswered()
        #expect(first == .announce)
        #expect(state.isUp && state.mayStartLookup)
        let repeated = state.helloAnswered()
        #expect(repeated == .ignore, "a second hello says nothing new")
        let second = state.linkUp(atMs: 2000)
        #expect(second == .ignore, "a second handshake says nothing new")
        let wentDown = state.linkDown()
        #expect(wentDown == .announce)
        #expect(!state.isUp)
        let again = state.linkDown()
        #expect(again == .ignore)
    }

    @Test("greeting: not up; down before the answer is quiet (never announced); one warning when overdue")
    func greeting() {
        var state = LaneLinkState()
        _ = state.linkUp(atMs: 1000)
        #expect(state.helloWarningDueMs == 1000 + LaneLinkState.helloAnswerWarningMs)
        let early = state.greetingOverdue(nowMs: 1000 + LaneLinkState.helloAnswerWarningMs - 1)
        #expect(!early, "not overdue before 5 s")
        let overdue = state.greetingOverdue(nowMs: 1000 + LaneLinkState.helloAnswerWarningMs)
        #expect(overdue, "overdue at 5 s: warned once")
        #expect(state.connection == .greeting(sinceMs: 1000, warned: true))
        #expect(state.helloWarningDueMs == nil)
        let twice = state.greetingOverdue(nowMs: 60_000)
        #expect(!twice, "warned only once a connection")
        #expect(!state.isUp && state.takes(.sale), "commands are taken (and end undeliverable)")
        let wentDown = state.linkDown()
        #expect(wentDown == .quiet, "never announced up, so its going down is not announced")
        #expect(state.connection == .down)
        _ = state.linkUp(atMs: 70_000)
        let nextConnection = state.greetingOverdue(nowMs: 75_000)
        #expect(nextConnection, "a new connection is warned of anew")
        _ = state.helloAnswered()
        let afterUp = state.greetingOverdue(nowMs: 90_000)
        #expect(!afterUp && state.helloWarningDueMs == nil, "an answered hello is never overdue")

        var closing = LaneLinkState()
        _ = closing.linkUp(atMs: 0)
        let closure = closing.linkClosed()
        #expect(closure == LaneLinkState.Closure(wasUp: false, then: nil), "a greeting link was never up")
    }

    @Test("a reload's change waits: only an abort is taken, no look-up starts, the link stays up")
    func waitingTakesOnlyAborts() {
        let state = Self.waiting(.replace(Self.newSettings))
        #expect(state.reload == .waiting(.replace(Self.newSettings)))
        #expect(state.takes(.abort))
        #expect(!state.takes(.sale) && !state.takes(.cancel) && !state.takes(.batch))
        #expect(!state.mayStartLookup)
        #expect(state.isUp)
        #expect(!state.isRemoved)
        #expect(Self.waiting(.remove).isRemoved)
    }

    @Test("a later reload's change replaces the waiting one")
    func laterChangeReplaces() {
        var state = Self.waiting(.replace(Self.newSettings))
        state.reloadAsked(.remove)
        #expect(state.reload == .waiting(.remove))
    }

    @Test("idle with a change waiting: the link closes and no command is taken, not even an abort")
    func idleCloses() {
        var state = Self.waiting(.remove)
        let closes = state.laneIdle()
        #expect(closes)
        #expect(state.reload == .closing(then: .remove))
        #expect(!state.takes(.abort) && !state.takes(.sale))
        #expect(!state.mayStartLookup)
        let closesTwice = state.laneIdle()
        #expect(!closesTwice, "a link already closing is not closed twice")
    }

    @Test("idle with nothing asked: the link is left alone")
    func idleSteady() {
        var state = Self.up()
        let closes = state.laneIdle()
        #expect(!closes)
        #expect(state.reload == .steady)
    }

    @Test("a withdrawn change: a waiting lane stays steady, a closing one is made anew once closed")
    func withdrawn() {
        var waiting = Self.waiting(.remove)
        let withdrawal = waiting.reloadWithdrawn()
        #expect(withdrawal == .stay)
        #expect(waiting.reload == .steady && waiting.takes(.sale))

        var closing = Self.closing(.replace(Self.newSettings))
        let whileClosing = closing.reloadWithdrawn()
        #expect(whileClosing == .reopenOnceClosed)
        #expect(closing.reload == .closing(then: nil))
        #expect(!closing.takes(.sale), "a link that closes takes no command, even once its change is withdrawn")
        let twice = closing.reloadWithdrawn()
        #expect(twice == .ignore)

        var steady = LaneLinkState()
        let nothingAsked = steady.reloadWithdrawn()
        #expect(nothingAsked == .ignore)
        #expect(steady.reload == .steady)
    }

    @Test("a change asked while the link closes is what follows the closing")
    func changeWhileClosing() {
        var state = Self.closing(.replace(Self.newSettings))
        state.reloadAsked(.remove)
        #expect(state.reload == .closing(then: .remove))
        #expect(state.isRemoved)
    }

    @Test("the link closed: the lane is down and steady, and the closure says whether it was up and what follows")
    func closed() {
        var up = Self.closing(.replace(Self.newSettings))
        let replaced = up.linkClosed()
        #expect(replaced == LaneLinkState.Closure(wasUp: true, then: .replace(Self.newSettings)))
        #expect(up.connection == .down && up.reload == .steady)

        var down = Self.closing(.remove)
        _ = down.linkDown()
        let removed = down.linkClosed()
        #expect(removed == LaneLinkState.Closure(wasUp: false, then: .remove))

        var withdrawn = Self.closing(.remove)
        _ = withdrawn.reloadWithdrawn()
        let reopened = withdrawn.linkClosed()
        #expect(reopened == LaneLinkState.Closure(wasUp: true, then: nil))
    }

    @Test("the link goes down and up while a change waits: the change stays")
    func linkEventsKeepTheChange() {
        var state = Self.waiting(.remove)
        let wentDown = state.linkDown()
        #expect(wentDown == .announce)
        #expect(state.reload == .waiting(.remove))
        let cameUp = state.linkUp(atMs: 0)
        #expect(cameUp == .greet)
        #expect(state.reload == .waiting(.remove))
    }
}
