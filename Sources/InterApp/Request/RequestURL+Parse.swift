extension RequestURL {
    /// The parameters of a request URL's query, in order, each name and value percent-decoded exactly once.
    ///
    /// The inverse of ``build(_:lane:)``, for the terminal simulator and for tests: everything after the first
    /// `?` (nothing if there is none), split on `&`; a part without `=` is a name with an empty value; empty
    /// parts are skipped. `+` stays a plus, an invalid `%` escape stays as written, and a value whose escapes
    /// decode to bytes that are not UTF-8 is kept as written. Nothing is trimmed.
    public static func parse(_ url: String) -> [Parameter] {
        var text = url
        return text.withUTF8 { bytes in
            guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return [] }
            var parameters: [Parameter] = []
            var scratch: [UInt8] = []
            var start = question + 1
            while start <= bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "&") { end += 1 }
                if end > start {
                    var equals = start
                    while equals < end && bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                    let name = PercentEncoding.decodedString(
                        UnsafeBufferPointer(rebasing: bytes[start..<equals]), scratch: &scratch)
                    let value =
                        equals < end
                        ? PercentEncoding.decodedString(
                            UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), scratch: &scratch) : ""
                    parameters.append(Parameter(name, value))
                }
                start = end + 1
            }
            return parameters
        }
    }

    /// The value of the first parameter called `name` in a request URL, decoded; `nil` if absent.
    public static func value(of name: String, in url: String) -> String? {
        parse(url).first { $0.name == name }?.value
    }
}
