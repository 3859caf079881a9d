import BridgeCore
import Foundation
import InterApp

/// How `journal export` writes its rows.
public enum JournalExportFormat: String, Sendable, CaseIterable {
    /// RFC 4180: a header row, then one row a command; CRLF line ends; a field holding a comma, a quote,
    /// CR or LF is quoted, its quotes doubled. Absent values are empty fields. A text cell a spreadsheet
    /// would take for a formula (it starts with `=`, `+`, `-`, `@`, a tab or CR) is prefixed with `'`
    /// (OWASP's advice against CSV injection); numbers (amounts, tips) are written as they are.
    case csv
    /// JSON Lines: one object a command (keys ``ExportedCommand/fieldNames``), absent values `null`.
    case jsonl

    /// What comes before the first row: the CSV header, or nothing.
    public var header: String {
        switch self {
        case .csv: ExportedCommand.fieldNames.map(Self.csvField).joined(separator: ",") + "\r\n"
        case .jsonl: ""
        }
    }

    /// One command's row, line end included.
    public func line(_ command: ExportedCommand) -> String {
        switch self {
        case .csv:
            return command.values.map(Self.csvText).joined(separator: ",") + "\r\n"
        case .jsonl:
            let object = JSONObject(Array(zip(ExportedCommand.fieldNames, command.values)))
            return JSONValue.object(object).serializedString + "\n"
        }
    }

    private static func csvText(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .string(let text): csvField(inert(text))
        default: value.serializedString
        }
    }

    /// The first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
    private static let formulaStarts: Set<UInt8> = [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D]  // = + - @ TAB CR

    /// `text`, prefixed with `'` when a spreadsheet would take it for a formula: the cell then shows the
    /// text as it is (the `'` is the spreadsheet's own "this is text" mark) and runs nothing.
    static func inert(_ text: String) -> String {
        guard let first = text.utf8.first, formulaStarts.contains(first) else { return text }
        return "'" + text
    }

    /// `text` as an RFC 4180 field.
    static func csvField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
