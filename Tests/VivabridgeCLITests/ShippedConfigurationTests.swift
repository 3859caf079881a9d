import Foundation
import Testing

/// Every configuration the project ships passes `vivabridge check`, with the variables its first lines say
/// must be set (and only those).
@Suite("Shipped configurations")
struct ShippedConfigurationTests {
    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `config/*.yaml`, the Debian package's configuration and the standby pair's (`deploy/standby/*.yaml`).
    static var shipped: [String] {
        func yaml(in folder: String) -> [String] {
            let names =
                (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "\(folder)/\($0)" }
        }
        return yaml(in: "config") + ["deploy/debian/vivabridge.yaml"] + yaml(in: "deploy/standby")
    }

    /// The variables the file's leading comment lines say to set, as `#   VIVABRIDGE_NAME=...`.
    static func documentedVariables(_ text: String) -> [String] {
        text.split(separator: "\n").prefix { $0.hasPrefix("#") }.compactMap { line in
            let words = line.dropFirst().split(separator: " ")
            guard let first = words.first, first.hasPrefix("VIVABRIDGE_"), let equals = first.firstIndex(of: "=")
            else { return nil }
            return String(first[..<equals])
        }
    }

    @Test("the shipped files are found: config/*.yaml, the Debian package's and the standby pair's")
    func found() {
        #expect(Self.shipped.count >= 6, "\(Self.shipped)")
    }

    @Test("each shipped configuration passes check with the variables its first lines name", arguments: shipped)
    func passesCheck(file: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
        var environment: [String: String] = [:]
        for name in Self.documentedVariables(text) { environment[name] = "SET-AS-THE-FILE-SAYS" }
        let child = try ChildProcess(
            ["check", "--config", Self.root.appendingPathComponent(file).path], environment: environment)
        #expect(child.waitForExit(timeout: 20) == 0, "\(file): \(child.errorOutput)")
        #expect(child.output.contains("configuration OK"), "\(file)")
    }

    @Test("the standby pair's files each name their own instance, and say where the relay's real address goes")
    func standbyPair() throws {
        let files = Self.shipped.filter { $0.hasPrefix("deploy/standby/") }
        #expect(files.count == 2, "\(files)")
        var instances: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n")
            let instance = lines.first { $0.hasPrefix("instance: ") }?.dropFirst("instance: ".count)
            instances += instance.map { [String($0.split(separator: " ")[0])] } ?? []
            #expect(text.contains("documentation address"), "\(file) does not say where the relay's address goes")
        }
        #expect(instances.count == 2 && Set(instances).count == 2, "instances: \(instances)")
    }
}
