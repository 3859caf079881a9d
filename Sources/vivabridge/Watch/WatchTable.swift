/// The text `vivabridge watch` shows: one row per lane, then what it noticed. A pure function of the state.
enum WatchTable {
    static let headers = ["LANE", "LINK", "IN FLIGHT", "LAST RESULT", "BATCH", "LAST EVENT"]
    /// The columns that give up characters when the table is wider than the terminal (the widest first; on a
    /// tie, the first here), each with its minimum width.
    static let shrinkable: [(column: Int, minimum: Int)] = [(3, 12), (2, 9), (4, 6), (0, 6)]

    /// The table for `state`, at most `width` columns wide (notes may wrap).
    static func render(_ state: WatchState, width: Int) -> String {
        var lines: [String] = []
        if state.silent {
            lines.append("!! THE BRIDGE IS SILENT: no heartbeat for two intervals; it stopped or cannot be reached.")
            lines.append("!! The rows below are what was last heard, not the lanes' state now.")
        }
        if state.lanes.isEmpty {
            lines.append(
                state.laneFilter.map { "(no event from lane \($0) yet, no lanes snapshot)" }
                    ?? "(no lanes yet: waiting for the bridge's lanes snapshot or an event)")
        } else {
            let rows = state.lanes.map(cells)
            lines += table([headers] + rows, width: width)
        }
        var footer = "\(state.eventCount) event\(state.eventCount == 1 ? "" : "s")"
        if let epoch = state.epoch, let seq = state.lastSeq { footer += ", epoch \(epoch), last seq \(seq)" }
        lines.append(footer)
        lines += state.notes.map { "note: \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One lane's cells, in the order of ``headers``.
    static func cells(_ lane: WatchState.Lane) -> [String] {
        let link: String
        switch lane.connected {
        case true?: link = "up"
        case false?: link = "down"
        case nil: link = "?"
        }
        let inFlight = lane.inFlight.map { "\($0.action) \($0.id)" } ?? "-"
        let last =
            lane.lastResult.map { result in
                "\(result.action) \(result.outcome)\(result.late ? " (late)" : "") \(result.id)"
            } ?? "-"
        return [lane.id, link, inFlight, last, lane.openBatch ?? "-", clock(lane.lastEventTime)]
    }

    /// `HH:MM:SS` of an ISO 8601 time (`2024-05-01T10:42:03.120+03:00`), or `-`.
    static func clock(_ time: String?) -> String {
        guard let time, let t = time.firstIndex(of: "T") else { return time ?? "-" }
        return String(time[time.index(after: t)...].prefix(8))
    }

    /// Aligned rows, two spaces apart; the widest `shrinkable` columns are cut (with `~`) to fit `width`.
    static func table(
        _ rows: [[String]], width: Int, shrinkable: [(column: Int, minimum: Int)] = WatchTable.shrinkable
    ) -> [String] {
        let count = rows.first?.count ?? 0
        var widths = (0..<count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let gaps = 2 * (count - 1)
        while widths.reduce(0, +) + gaps > width {
            var widest: Int?
            for (column, minimum) in shrinkable where widths[column] > minimum {
                if widest == nil || widths[column] > widths[widest!] { widest = column }
            }
            guard let widest else { break }
            widths[widest] -= 1
        }
        return rows.map { row in
            var line = ""
            for column in 0..<count {
                let cell = fit(row[column], widths[column])
                line +=
                    column == count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            return line
        }
    }

    /// `text` cut to `width` characters, its end replaced by `~` when cut.
    static func fit(_ text: String, _ width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        return String(text.prefix(width - 1)) + "~"
    }
}
