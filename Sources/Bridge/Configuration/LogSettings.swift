import BridgeCore
import BridgeJournal

/// `log:` in the configuration: how verbose the bridge is and how its lines look (docs/CONFIG.md).
public struct LogSettings: Sendable, Equatable {
    /// How a log line looks.
    public enum Format: String, Sendable, CaseIterable {
        /// `2026-11-24T07:40:01.123Z notice vivabridge: message key=value`.
        case text
        /// One JSON object a line: `time`, `level`, `label`, `message`, `metadata`.
        case json
    }

    /// swift-log's level names, least to most severe.
    public static let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// The least severe level written.
    public var level = "info"
    /// How lines look.
    public var format = Format.text

    /// Defaults: `info`, text.
    public init() {}
}
