/// Quoting of user-supplied text inside error messages, bounded so a hostile input cannot bloat a reply.
enum Quote {
    /// `"text"`, cut to `limit` characters with `…` when longer; control characters shown as `\u{..}`.
    static func short(_ text: String, limit: Int = 64) -> String {
        var out = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out + "\""
    }
}
