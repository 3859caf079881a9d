/// Quoting of text from outside inside error messages and log lines, bounded so a hostile input
/// cannot bloat a reply, and escaped so it cannot forge a line.
public enum Quote {
    /// `"text"`, cut to `limit` characters with `…` when longer; control characters (newlines
    /// included) shown as `\u{..}`.
    public static func short(_ text: String, limit: Int = 64) -> String {
        var out = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) || scalar.value == 0x2028
                || scalar.value == 0x2029
            {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out + "\""
    }

    /// ``short(_:limit:)`` of bytes from a peer, read as UTF-8 (invalid sequences become U+FFFD).
    public static func printable(_ bytes: some Collection<UInt8>, limit: Int = 64) -> String {
        short(String(decoding: bytes.prefix(limit * 4), as: UTF8.self), limit: limit)
    }
}
