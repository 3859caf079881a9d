extension Correlator {
    /// `record` is no longer in flight: it leaves its lane's slot or aborts. Every command that ends passes
    /// here, after the store let it go (``finalize(_:_:event:)``, ``endLookup(_:)``,
    /// ``rollBack(ids:because:)``).
    func release(_ record: CommandRecord) { lanes[record.lane]?.inFlight.end(record) }

    /// The bridge's own look-up ends (answered, not sent, not opened, or past its deadline): it leaves
    /// memory and its lane with no outcome, as it was never journaled.
    func endLookup(_ record: CommandRecord) {
        store.forget(record.id)
        release(record)
    }
}
