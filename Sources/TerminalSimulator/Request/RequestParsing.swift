// The one place where the simulator reads request URLs; swap it for InterApp's parser when that exists.
//
// Semantics are those of Foundation's `URLComponents(string:)` then `percentEncodedQueryItems`, each name
// and value decoded once with `removingPercentEncoding`: `+` stays a plus, never a space. It is written
// over bytes because `URLComponents` costs about 30 µs a URL, 15 times this parser, and the simulator must
// answer 20,000 sales a second (`RequestParsingTests` checks both agree).

/// One `name=value` pair of a request's query, decoded.
struct QueryParameter: Sendable, Equatable {
    var name: String
    var value: String
}

/// A request URL as the simulated app reads it: `vivapayclient://pay/v1?action=sale&amount=1200&…`.
struct RequestURL: Sendable, Equatable {
    /// The scheme, as written (compare it case-insensitively).
    var scheme: String
    /// The host, as written.
    var host: String
    /// The path, as written.
    var path: String
    /// The query parameters in order, decoded; segments without a name are left out.
    var parameters: [QueryParameter]

    /// Whether this is a request to the Viva Terminal app: `vivapayclient://pay/v1` (scheme and host in any
    /// case).
    var isVivaPayRequest: Bool {
        scheme.lowercased() == "vivapayclient" && host.lowercased() == "pay" && (path == "/v1" || path == "/v1/")
    }

    /// The first value of `name`, as the apps read a parameter; nil when absent.
    func value(_ name: String) -> String? {
        for parameter in parameters where parameter.name == name { return parameter.value }
        return nil
    }

    /// Whether any parameter's name starts with `prefix`.
    func hasParameter(prefixed prefix: String) -> Bool {
        parameters.contains { $0.name.hasPrefix(prefix) }
    }
}

/// Why a URL could not be read; the relay answers `not_opened` with ``description``.
enum RequestParseError: Error, Equatable, CustomStringConvertible {
    case missingScheme
    case invalidCharacter(UInt8)
    case invalidPercentEscape
    case notUTF8

    var description: String {
        switch self {
        case .missingScheme: "invalid URL: no scheme"
        case .invalidCharacter(let byte): "invalid URL: character 0x\(String(byte, radix: 16)) is not allowed"
        case .invalidPercentEscape: "invalid URL: malformed percent escape"
        case .notUTF8: "invalid URL: a percent-decoded value is not UTF-8"
        }
    }
}

/// Reads request URLs.
enum RequestParsing {
    /// Parses `url`, or says why it is not a URL the app could be opened with.
    static func parse(_ url: String) -> Result<RequestURL, RequestParseError> {
        var url = url
        return url.withUTF8 { parse(bytes: $0) }
    }

    /// Parses the UTF-8 bytes of a URL.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Result<RequestURL, RequestParseError> {
        let end = bytes.count
        var index = 0
        var fragmentSeen = false
        // The whole string must be made of URL characters with well-formed escapes, or iOS's URL(string:)
        // refuses it and the app is never opened.
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < end, hexValue(bytes[index + 1]) != nil, hexValue(bytes[index + 2]) != nil else {
                    return .failure(.invalidPercentEscape)
                }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                if fragmentSeen { return .failure(.invalidCharacter(byte)) }
                fragmentSeen = true
            } else if !isURLCharacter(byte) {
                return .failure(.invalidCharacter(byte))
            }
            index += 1
        }

        // scheme ":"
        guard let colon = firstIndex(of: UInt8(ascii: ":"), in: bytes, from: 0, to: end), colon > 0,
            isAlpha(bytes[0]), (1..<colon).allSatisfy({ isSchemeCharacter(bytes[$0]) })
        else { return .failure(.missingScheme) }
        let scheme = string(bytes, 0, colon)

        var cursor = colon + 1
        let queryStart = firstIndex(of: UInt8(ascii: "?"), in: bytes, from: cursor, to: end)
        let fragmentStart = firstIndex(of: UInt8(ascii: "#"), in: bytes, from: cursor, to: end) ?? end
        let hierEnd = min(queryStart ?? end, fragmentStart)

        // "//" authority, then path
        var host = ""
        if cursor + 1 < hierEnd, bytes[cursor] == UInt8(ascii: "/"), bytes[cursor + 1] == UInt8(ascii: "/") {
            cursor += 2
            let authorityEnd = firstIndex(of: UInt8(ascii: "/"), in: bytes, from: cursor, to: hierEnd) ?? hierEnd
            host = string(bytes, cursor, authorityEnd)
            cursor = authorityEnd
        }
        let path = string(bytes, cursor, hierEnd)

        var parameters: [QueryParameter] = []
        if let queryStart, queryStart < fragmentStart {
            parameters.reserveCapacity(16)
            var segmentStart = queryStart + 1
            while segmentStart <= fragmentStart {
                let segmentEnd =
                    firstIndex(of: UInt8(ascii: "&"), in: bytes, from: segmentStart, to: fragmentStart) ?? fragmentStart
                if segmentEnd > segmentStart {
                    let equals = firstIndex(of: UInt8(ascii: "="), in: bytes, from: segmentStart, to: segmentEnd)
                    let nameEnd = equals ?? segmentEnd
                    if nameEnd > segmentStart {
                        guard let name = decode(bytes, segmentStart, nameEnd) else { return .failure(.notUTF8) }
                        var value = ""
                        if let equals {
                            guard let decoded = decode(bytes, equals + 1, segmentEnd) else {
                                return .failure(.notUTF8)
                            }
                            value = decoded
                        }
                        parameters.append(QueryParameter(name: name, value: value))
                    }
                }
                segmentStart = segmentEnd + 1
            }
        }
        return .success(RequestURL(scheme: scheme, host: host, path: path, parameters: parameters))
    }

    // MARK: - Bytes

    private static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        var index = from
        while index < to {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
    }

    /// Percent-decodes once; nil when the result is not UTF-8 (as `removingPercentEncoding`).
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String? {
        let slice = UnsafeBufferPointer(rebasing: bytes[from..<to])
        guard slice.contains(UInt8(ascii: "%")) else { return String(decoding: slice, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
        var index = 0
        while index < slice.count {
            let byte = slice[index]
            if byte == UInt8(ascii: "%"), let high = hexValue(slice[index + 1]), let low = hexValue(slice[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    @inline(__always)
    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    @inline(__always)
    private static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isAlpha(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// RFC 3986 characters allowed outside escapes, but for `[` and `]` (IPv6 hosts only, never here).
    @inline(__always)
    private static func isURLCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),  // unreserved
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="),  // sub-delims
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            true
        default:
            false
        }
    }
}
