import InterApp
import VivaCloudModels

/// Something the correlator decided and the loop carries out: journal writes first, in one commit,
/// then the network effects in order.
package enum Effect {
    /// A journal write.
    case journal(JournalEntry)
    /// A message for a lane's relay; `recordId` names the command whose URL this is, if any.
    case send(lane: String, message: RelayMessage, recordId: String?)
    /// A request for Viva's Cloud Terminal API, for a cloud lane's session; `recordId` names the command it
    /// starts, if any (a command that ended before its commit is not sent).
    case cloud(CloudLaneRequest, recordId: String?)
    /// A reply to a command's sender, serialized; `id` is the command's (what a rollback drops).
    case reply(ReplyTarget, id: String?, [UInt8])
    /// A snapshot's reply (`lanes`): the loop writes the event stream's position into its result as it
    /// sends it, `epoch` and the `seq` of the last event published before it, so that a subscriber can
    /// join the snapshot with the stream exactly.
    case snapshotReply(ReplyTarget, Reply)
    /// An event; the loop stamps `seq`, `epoch` and `time` when it publishes.
    case publish(PublishedEvent)
    /// An outcome recorded (or moved by a late result or a resolve): the loop counts it in today's outcomes
    /// once its turn is committed, with the event that tells it.
    case countOutcome(TodayOutcomes.Change)
    /// A reload added a lane, or its new settings apply: the loop makes its link and polls it.
    case openLink(LaneConfiguration)
    /// A lane a reload removed or changed is idle: the loop reads what its link still holds, closes it,
    /// stops polling it, then tells the correlator (``Correlator/linkClosed(_:)``).
    case closeLink(lane: String)
}

extension Correlator {
    /// Answers `target` with `reply`: on the command socket, or as an event on `pullTopic` for a command
    /// that came on the PULL socket (which has nobody to reply to).
    func answer(_ reply: Reply, to target: ReplyTarget, pullTopic: @autoclosure () -> Topic) {
        let bytes = reply.serialized
        switch target {
        case .router: emit(.reply(target, id: reply.id, bytes))
        case .pull: emit(.publish(.answer(on: pullTopic(), id: reply.id, bytes)))
        }
    }
}

/// What the loop hands to the cloud lanes' poller (``CloudSessionPoller``), in order.
package enum CloudLaneRequest: Sendable, Equatable {
    /// Post a new command's session (journaled).
    case begin(CloudTerminalRequest)
    /// Take up a command journaled before a restart: its session is asked for before anything is posted.
    case resume(CloudTerminalRequest)
    /// The client's `abort`: delete the session; it ends by its own answer.
    case abort(sessionId: String)
    /// The command's deadline passed: delete the session and ask for it until it ends.
    case deadlinePassed(sessionId: String)
    /// The command ended here without its session (past every bound): stop asking for it.
    case forget(sessionId: String)
}
