/// What `vivabridge journal prune` removed (or, in a dry run, would remove).
public struct PruneResult: Sendable, Equatable {
    /// Finished commands removed.
    public var commands: Int
    /// Callbacks removed: those received before the cutoff, but for the callbacks of a command that stays.
    public var callbacks: Int

    package init(commands: Int, callbacks: Int) {
        self.commands = commands
        self.callbacks = callbacks
    }
}
