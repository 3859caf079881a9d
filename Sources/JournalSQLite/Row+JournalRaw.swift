import BridgeCore
import BridgeJournal
import GRDB

extension Row {
    /// The value of `column`, stored by its raw value (the journal's enums are).
    ///
    /// - Throws: ``JournalRowError`` when the column holds a raw value `Value` has no case for; GRDB's decoding
    ///   error when it holds no text.
    func decodeRaw<Value: RawRepresentable>(
        _ type: Value.Type = Value.self, forColumn column: some ColumnExpression & RawRepresentable<String>
    )
        throws -> Value where Value.RawValue == String
    {
        try Value(journal: try decode(forColumn: column), column: column)
    }

    /// The value of `column`, stored by its raw value, or nil for NULL.
    ///
    /// - Throws: ``JournalRowError`` when the column holds a raw value `Value` has no case for.
    func decodeRawIfPresent<Value: RawRepresentable>(
        _ type: Value.Type = Value.self, forColumn column: some ColumnExpression & RawRepresentable<String>
    ) throws -> Value? where Value.RawValue == String {
        guard let raw: String = try decode(forColumn: column) else { return nil }
        return try Value(journal: raw, column: column)
    }
}
