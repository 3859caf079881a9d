/// Parses callback URLs from the terminal app, both dialects, as they really arrive.
///
/// Accepted: any `scheme://host?query` (scheme compared ignoring case) whose query has a `status` field.
/// The query is split on `&`, each part on its first `=`; names and values are trimmed of surrounding
/// whitespace (`amount=1200 &cardType=VISA`, `& accountNumber=…`, `tid= 16016684`), then percent-decoded
/// exactly once (`%2520` is `%20`); an invalid escape stays as written, and `+` is a plus, never a space
/// (`+03:00` in dates). `#` is data, not a fragment. Rejected, with a message saying why: empty input, bytes
/// that are not UTF-8, control characters other than tab, CR and LF, no scheme, no `?`, no `status`, and
/// `status`, `action`, `message`, `clientTransactionId`, `amount` or `tipAmount` given twice with different
/// values.
public enum CallbackParser {
    /// Parses a callback URL.
    /// - Throws: ``CallbackParseError`` saying why the text is not a callback.
    public static func parse(_ url: String) throws(CallbackParseError) -> Callback {
        var text = url
        return try text.withUTF8 { parseResult($0, knownValid: true) }.get()
    }

    /// Parses a callback URL from its UTF-8 bytes (for example a frame from the relay).
    /// - Throws: ``CallbackParseError`` saying why the bytes are not a callback.
    public static func parse(_ bytes: [UInt8]) throws(CallbackParseError) -> Callback {
        try bytes.withUnsafeBufferPointer { parseResult($0, knownValid: false) }.get()
    }

    private static func parseResult(
        _ input: UnsafeBufferPointer<UInt8>, knownValid: Bool
    ) -> Result<Callback, CallbackParseError> {
        do throws(CallbackParseError) {
            var reader = CallbackReader(input: input)
            return .success(try reader.read(knownValid: knownValid))
        } catch {
            return .failure(error)
        }
    }
}
