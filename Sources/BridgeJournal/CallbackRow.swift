import BridgeCore

/// A row of `callbacks`: a callback received, with the command it matched and what it did.
///
/// Appended as ``CommandLogRow`` is: ``append`` and ``bind(into:)`` both follow ``Columns``; its `seq` is
/// the store's.
@usableFromInline package struct CallbackRow {
    @usableFromInline package static let databaseTableName = "callbacks"

    /// The columns the bridge writes (not `seq`).
    @usableFromInline package enum Columns: String, JournalColumns {
        case lane
        case receivedMs = "received_ms"
        case fields
        case matchedId = "matched_id"
        case commandSeq = "command_seq"
        case disposition
        case relaySeq = "relay_seq"
        case relayUrlHash = "relay_url_hash"

        package var kind: ColumnKind {
            switch self {
            case .receivedMs, .commandSeq, .relaySeq, .relayUrlHash: .integer
            case .lane, .fields, .matchedId, .disposition: .text
            }
        }
    }

    @usableFromInline package var lane: String
    @usableFromInline package var receivedMs: Int64
    /// Its fields as JSON, card data masked.
    @usableFromInline package var fields: String
    /// The id of the command it matched, if any.
    @usableFromInline package var matchedId: String?
    /// That command's sequence, when the journal holds it.
    @usableFromInline package var commandSeq: Int64?
    @usableFromInline package var disposition: CallbackDisposition
    /// The relay's number for it and its URL's hash (``RelayCallbackKey``), when the relay numbered it (v1.3).
    @usableFromInline package var relay: RelayCallbackKey?

    @inlinable @inline(__always) package init(
        lane: String, receivedMs: Int64, fields: String, matchedId: String?, commandSeq: Int64?,
        disposition: CallbackDisposition, relay: RelayCallbackKey?
    ) {
        self.lane = lane
        self.receivedMs = receivedMs
        self.fields = fields
        self.matchedId = matchedId
        self.commandSeq = commandSeq
        self.disposition = disposition
        self.relay = relay
    }

    /// The columns in the order of ``append``.
    package static let columns = Columns.allCases
    /// The statement that appends one.
    package static let append = JournalSQL.insert(into: databaseTableName, columns)

    /// What it holds in `column`.
    @inlinable @inline(__always) package func value(_ column: Columns) -> ColumnValue {
        switch column {
        case .lane: .text(lane)
        case .receivedMs: .integer(receivedMs)
        case .fields: .text(fields)
        case .matchedId: .text(matchedId)
        case .commandSeq: .integer(commandSeq)
        case .disposition: .text(disposition.rawValue)
        case .relaySeq: .integer(relay?.columns?.seq)
        case .relayUrlHash: .integer(relay?.columns?.urlHash)
        }
    }

    /// Its values in the order of ``columns``.
    package var values: [ColumnValue] { Self.columns.map(value) }
}
