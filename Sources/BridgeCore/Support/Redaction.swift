import InterApp

/// Keeps card numbers and secrets out of what the bridge stores, logs and publishes.
enum Redaction {
    /// Cuts track data to its masked card number (``Masking/cutTrackData(_:)``), then masks every run of 13
    /// to 19 digits in `text` to its first 6 and last 4 digits.
    static func maskDigitRuns(_ text: String) -> String {
        let text = Masking.cutTrackData(text)
        var out = [UInt8]()
        var run = [UInt8]()
        func flush() {
            if run.count >= 13 && run.count <= 19 {
                out.append(contentsOf: run.prefix(6))
                out.append(contentsOf: [UInt8](repeating: UInt8(ascii: "*"), count: run.count - 10))
                out.append(contentsOf: run.suffix(4))
            } else {
                out.append(contentsOf: run)
            }
            run.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                run.append(byte)
            } else {
                flush()
                out.append(byte)
            }
        }
        flush()
        return String(decoding: out, as: UTF8.self)
    }

    /// A short, quoted form of bytes from outside for a log line: control characters escaped (a peer
    /// cannot forge a line), digit runs that could be card numbers masked.
    static func printable(_ bytes: [UInt8]) -> String {
        maskDigitRuns(Quote.printable(bytes))
    }
}
