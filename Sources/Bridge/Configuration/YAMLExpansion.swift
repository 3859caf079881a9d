import BridgeCore
import BridgeJournal
import CYaml

/// How many values a YAML text holds once every alias is expanded, counted on libyaml's events before
/// anything is composed.
///
/// Yams composes aliases by sharing, which is cheap, but checks each mapping for duplicate keys by hashing
/// the keys whole: a key that is an alias of a large collection (`[?*a7]`) is hashed expanded, exponential
/// in the nesting of anchors. Counting first, in linear time, lets an alias bomb be refused before Yams
/// sees it, wherever its aliases stand. (`CYaml` is the libyaml that Yams builds and links; its module is
/// visible to Yams' dependants.)
enum YAMLExpansion {
    /// Whether `yaml` expands to more than `limit` values (scalars, sequences and mappings). Text that
    /// libyaml cannot parse counts what it held up to the error (Yams then reports the error).
    static func exceeds(_ yaml: String, limit: Int) -> Bool {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return false }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(yaml.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var counter = Counter(limit: limit)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                counter.take(event)
                if counter.total > limit { return true }
            }
            return false
        }
    }

    /// The running count: one frame per open collection, the expanded size of every anchor.
    private struct Counter {
        let limit: Int
        var total = 0
        var frames: [(anchor: String?, size: Int)] = []
        var anchors: [String: Int] = [:]

        mutating func take(_ event: yaml_event_t) {
            switch event.type {
            case YAML_SCALAR_EVENT:
                count(1)
                close(size: 1, anchor: name(event.data.scalar.anchor))
            case YAML_ALIAS_EVENT:
                let size = name(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1
                count(size)
                close(size: size, anchor: nil)
            case YAML_SEQUENCE_START_EVENT:
                count(1)
                frames.append((name(event.data.sequence_start.anchor), 1))
            case YAML_MAPPING_START_EVENT:
                count(1)
                frames.append((name(event.data.mapping_start.anchor), 1))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                if let frame = frames.popLast() { close(size: frame.size, anchor: frame.anchor) }
            default:
                break
            }
        }

        /// Every value is counted once, as it starts; an alias counts everything its anchor holds.
        private mutating func count(_ size: Int) {
            total = min(total + size, limit + 1)
        }

        /// A value of `size` is complete: its collection holds that much more; its anchor is remembered.
        private mutating func close(size: Int, anchor: String?) {
            if let anchor { anchors[anchor] = size }
            if !frames.isEmpty { frames[frames.count - 1].size = min(frames[frames.count - 1].size + size, limit + 1) }
        }

        private func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            anchor.map { String(cString: $0) }
        }
    }
}
