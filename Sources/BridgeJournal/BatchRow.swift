import BridgeCore

/// A row of `batches`: a lane's open batch. Written when a batch opens or closes (rare), so through GRDB's
/// own insert and delete.
package struct BatchRow {
    package static let databaseTableName = "batches"

    package enum Columns: String, JournalColumns {
        case lane, name
        case batchId = "batch_id"
        case openedMs = "opened_ms"
        case automatic

        package var kind: ColumnKind {
            switch self {
            case .openedMs: .integer
            case .automatic: .flag
            case .lane, .name, .batchId: .text
            }
        }
    }

    /// The columns in the order of ``values``.
    package static let columns = Columns.allCases

    package var lane: String
    package var batch: OpenBatch

    package init(lane: String, batch: OpenBatch) {
        self.lane = lane
        self.batch = batch
    }

    /// What it holds in `column`.
    package func value(_ column: Columns) -> ColumnValue {
        switch column {
        case .lane: .text(lane)
        case .name: .text(batch.name)
        case .batchId: .text(batch.id)
        case .openedMs: .integer(batch.openedAtMs)
        case .automatic: .flag(batch.automatic)
        }
    }

    /// Its values in the order of ``columns``.
    package var values: [ColumnValue] { Self.columns.map(value) }
}
