/// The live lanes page served at `/`: one self-contained document (`lanes.html`, embedded in the binary;
/// inline CSS and JavaScript, nothing fetched from elsewhere, no build step) that follows `/events` and is
/// meant for a wall screen.
///
/// A row per lane (link, command in flight and its age, last result in the words of ``LastResultLabel``,
/// open batch), today's money outcomes per kind (sales approved, payments declined, refunds, aborted, unknown,
/// not delivered: a batch opened, an abort or a reprint is no sale approved; each card carries `data-kind`),
/// and banners when the bridge restarted (a new `epoch`) or went silent (no heartbeat for two intervals). Each
/// lane's row carries `data-lane`, `data-link`, `data-outcome` and, for a result that came on the stream (not in
/// the snapshot), `data-result-seq`, for scripts and tests; `?beats=N` stops following after N heartbeats,
/// `?beats=0` right after the first snapshot (scripts/page-check). The header names the bridge's `instance` and
/// `role` (from `/readyz`, every 2 s; `#role` carries `data-role`), and a standby says so instead of "no
/// contact".
enum LanesPage {
    /// The page, with the bridge's own tables written where `lanes.html` holds their placeholders
    /// (`/*name*/null`, so that the file alone is valid JavaScript for an editor or a linter).
    static let html: String = {
        var page = String(decoding: PackageResources.lanes_html, as: UTF8.self)
        let tables = [
            ("badges", LastResultLabel.badgesTable), ("words", LastResultLabel.wordsTable),
            ("actions", LastResultLabel.namesTable), ("moneyKinds", LastResultLabel.moneyKindsTable),
        ]
        for (name, table) in tables {
            let placeholder = "/*\(name)*/null"
            precondition(page.contains(placeholder), "lanes.html lost its \(placeholder)")
            page = page.replacingOccurrences(of: placeholder, with: table)
        }
        return page
    }()
}
