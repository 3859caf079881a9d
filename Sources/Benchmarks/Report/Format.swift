import Foundation

/// Number formats of the report.
enum Format {
    /// 12,345 (no decimals).
    static func count(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        let rounded = Int(value.rounded())
        let digits = String(abs(rounded))
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return (rounded < 0 ? "-" : "") + out
    }

    static func rate(_ perSecond: Double) -> String { "\(count(perSecond))/s" }

    static func micros(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        return value >= 100 ? "\(count(value)) µs" : String(format: "%.1f µs", value)
    }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }

    static func percent(_ fraction: Double) -> String { String(format: "%.2f%%", fraction * 100) }

    static func ratio(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "-" }
        return value >= 100 ? String(format: "%.0fx", value) : String(format: "%.2fx", value)
    }
}
