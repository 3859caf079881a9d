import BridgeCore
import BridgeJournal
import Yams

/// A YAML document reduced to what configuration needs: scalars, mappings and sequences, with the
/// key path of every node so that errors can name it.
indirect enum ConfigTree: Equatable {
    case scalar(String)
    case mapping([(key: String, value: ConfigTree)])
    case sequence([ConfigTree])

    static func == (lhs: ConfigTree, rhs: ConfigTree) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a), .scalar(let b)): a == b
        case (.sequence(let a), .sequence(let b)): a == b
        case (.mapping(let a), .mapping(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// Reads YAML text; an empty document is an empty mapping.
    static func parse(yaml: String) throws(ConfigurationError) -> ConfigTree {
        guard !YAMLExpansion.exceeds(yaml, limit: maxNodes) else { throw expansionError }
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml)
        } catch {
            throw ConfigurationError(key: "", "the file is not valid YAML: \(error)")
        }
        guard let node else {
            throw ConfigurationError(key: "", "the file is empty; config/ has examples to start from")
        }
        var budget = maxNodes
        return try convert(node, path: "", budget: &budget)
    }

    /// The most values a configuration may hold once YAML anchors are expanded: far above any real
    /// store's (a thousand lanes take about ten thousand), far below what an alias bomb expands to.
    static let maxNodes = 200_000

    private static var expansionError: ConfigurationError {
        ConfigurationError(
            key: "", "the file expands to more than \(maxNodes) values (YAML anchors and aliases repeated?); refused")
    }

    private static func convert(_ node: Node, path: String, budget: inout Int) throws(ConfigurationError)
        -> ConfigTree
    {
        budget -= 1
        guard budget >= 0 else { throw expansionError }
        switch node {
        case .scalar(let scalar):
            return .scalar(scalar.string)
        case .sequence(let sequence):
            var items: [ConfigTree] = []
            for (index, item) in sequence.enumerated() {
                items.append(try convert(item, path: "\(path)[\(index)]", budget: &budget))
            }
            return .sequence(items)
        case .mapping(let mapping):
            var pairs: [(key: String, value: ConfigTree)] = []
            for (key, value) in mapping {
                guard let name = key.scalar?.string else {
                    throw ConfigurationError(key: path, "keys must be plain words")
                }
                let childPath = path.isEmpty ? name : "\(path).\(name)"
                if pairs.contains(where: { $0.key == name }) {
                    throw ConfigurationError(key: childPath, "appears twice")
                }
                pairs.append((name, try convert(value, path: childPath, budget: &budget)))
            }
            return .mapping(pairs)
        case .alias:
            throw ConfigurationError(key: path, "YAML aliases are not supported here")
        }
    }

    subscript(key: String) -> ConfigTree? {
        guard case .mapping(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// Sets the scalar at `path`, creating mappings on the way; a number in the path indexes a sequence.
    mutating func set(_ path: ArraySlice<String>, to value: String) -> Bool {
        guard let head = path.first else {
            self = .scalar(value)
            return true
        }
        let rest = path.dropFirst()
        switch self {
        case .mapping(var pairs):
            if let index = pairs.firstIndex(where: { $0.key == head }) {
                guard pairs[index].value.set(rest, to: value) else { return false }
            } else {
                var child: ConfigTree = .mapping([])
                guard child.set(rest, to: value) else { return false }
                pairs.append((head, child))
            }
            self = .mapping(pairs)
            return true
        case .sequence(var items):
            guard let index = Int(head), items.indices.contains(index) else { return false }
            guard items[index].set(rest, to: value) else { return false }
            self = .sequence(items)
            return true
        case .scalar:
            return false
        }
    }
}
