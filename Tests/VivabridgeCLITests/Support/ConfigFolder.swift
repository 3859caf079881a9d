import Foundation

/// A temporary folder for the configuration files a test hands to `vivabridge check`; ``remove()``
/// deletes it.
struct ConfigFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The journal that ``good(head:)`` names, which `check` must never create.
    var journal: URL { url.appendingPathComponent("never-created.sqlite") }

    /// Writes `text` to the file `name` in the folder; its URL.
    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// `good.yaml`: `head` (whole lines), then a journal at ``journal``, a terminal and one iOS lane.
    func good(head: String = "") throws -> URL {
        try write(
            "good.yaml",
            head + """
                journal: \(journal.path)
                terminal: {merchantKey: K}
                lanes:
                  - {id: lane-1, endpoint: "tcp://127.0.0.1:6001", platform: ios}
                """)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
