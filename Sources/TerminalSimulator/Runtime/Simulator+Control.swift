import Foundation
import InterApp

/// Driving the lanes: phases, behaviours, links, injected frames. Each call returns once the loop did it.
extension Simulator {
    /// Ends lane `lane`'s current manual phase (``PhaseDuration/manual``); false when it was not waiting.
    @discardableResult
    public func release(lane: String) -> Bool {
        perform(lane: lane) { loop, index in
            let released = loop.apps[index].release()
            loop.drainEffects(index)
            return released
        } ?? false
    }

    /// Changes lane `lane`'s behaviour (its script and fault included); before ``start()`` it replaces the
    /// configured one.
    public func setBehaviour(_ behaviour: LaneBehaviour, lane: String) {
        let applied = perform(lane: lane) { loop, index -> Bool in
            loop.apps[index].behaviour = behaviour
            return true
        }
        if applied == nil { updateConfiguredBehaviour(behaviour, lane: lane) }
    }

    /// Closes lane `lane`'s socket, as a relay that went down: the bridge's connection drops. The app keeps
    /// running; callbacks it produces meanwhile are lost.
    public func dropLink(lane: String) {
        _ = perform(lane: lane) { loop, index in loop.dropLink(index) }
    }

    /// Binds lane `lane` again at the same endpoint, as a relay (and app) restarted: what was in flight is
    /// forgotten and the bridge must say hello again. Returns once bound (true), or false after `timeout`.
    @discardableResult
    public func restoreLink(lane: String, timeout: Duration = .seconds(5)) -> Bool {
        guard perform(lane: lane, { loop, index in loop.restoreLink(index) }) != nil else { return false }
        return observations.wait(lane, timeout: timeout) { $0.linkUp }
    }

    /// Sends `["callback", url]` with any URL at all (orphans, duplicates, quirks), as the relay would.
    public func injectCallback(lane: String, url: String) {
        let message = RelayMessage.callback(url: Array(url.utf8))
        _ = perform(lane: lane) { loop, index in loop.inject(message, lane: index) }
    }

    /// Sends `["returned"]`: the store app came back to the foreground without a callback.
    public func sendReturned(lane: String) {
        _ = perform(lane: lane) { loop, index in loop.inject(.returned, lane: index) }
    }
}
