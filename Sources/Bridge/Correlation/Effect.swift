import InterApp

/// Something the correlator decided and the loop carries out: journal writes first, in one commit,
/// then the network effects in order.
enum Effect {
    /// A journal write.
    case journal(JournalEntry)
    /// Frames for a lane's relay; `recordId` names the command whose URL this is, if any.
    case send(lane: String, frames: [[UInt8]], recordId: String?)
    /// A reply to a command's sender.
    case reply(ReplyTarget, JSONObject)
    /// An event; the loop stamps `seq`, `epoch` and `time` when it publishes.
    case publish(topic: String, body: JSONObject)
}
