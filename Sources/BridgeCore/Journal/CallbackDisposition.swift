/// What a received callback did, as the `callbacks` table's `disposition` column holds it (by raw value).
@usableFromInline package enum CallbackDisposition: String, Sendable, CaseIterable {
    /// It completed a command in flight (or an abort, or a sale in its abort grace).
    case matched
    /// It named an action this version does not know, and completed the command in flight by its
    /// `clientTransactionId`.
    case matchedUnknownAction = "matched-unknown-action"
    /// It completed the sale in flight by an id the terminal app echoed back unencoded.
    case matchedUnencodedEcho = "matched-unencoded-echo"
    /// It completed a command already answered (a late result).
    case late
    /// It answered the bridge's own look-up of an earlier sale.
    case lookup
    /// It matched nothing.
    case orphan
    /// A summary row of orphans counted but not kept, during a flood.
    case orphansSuppressed = "orphans-suppressed"
}
