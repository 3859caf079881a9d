/// Prints rows as one aligned table (Markdown-compatible, so it can be pasted into docs/PERFORMANCE.md).
enum Table {
    static let header = ["section", "figure", "value", "baseline", "ratio", "target", "met?"]

    static func render(_ rows: [Row]) -> String {
        let cells = rows.map { row in
            [
                row.section, row.figure, row.value, row.baseline, Format.ratio(row.ratio), row.target,
                row.verdict.rawValue,
            ]
        }
        var widths = header.map(\.count)
        for line in cells {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { index, cell in cell.padding(widths[index]) }.joined(separator: " | ") + " |"
        }
        var out = [
            line(header), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|",
        ]
        out += cells.map(line)
        return out.joined(separator: "\n")
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
