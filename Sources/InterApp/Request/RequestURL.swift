/// The request URLs that drive the Viva Terminal app: `vivapayclient://pay/v1?…`.
public enum RequestURL {
    /// The scheme, host and version every request starts with.
    public static let base = "vivapayclient://pay/v1"

    /// Builds the URL for `command` on a lane.
    ///
    /// Order: `merchantKey`, `appId`, `action` (as the lane's platform spells it), the action's leading fixed
    /// parameters (`command=reprint` for an Android reprint), the command's parameters in their order, the
    /// action's trailing fixed parameters (`protocol=int_default` for a sale), `callback`. Every name and value is percent-encoded:
    /// only RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`) stay, every other byte of the UTF-8 text
    /// becomes `%XX`, so no value can add, remove or change a parameter.
    public static func build(_ command: TerminalCommand, lane: LaneSettings) -> String {
        let form = command.action.spec.request(for: lane.platform)
        let callback = lane.callbackParameter
        /// Calls `body` with every name and value of the URL, in order.
        func forEachPair(_ body: (String, String) -> Void) {
            body("merchantKey", lane.merchantKey)
            body("appId", lane.appId)
            body("action", form.action)
            for parameter in form.leading { body(parameter.name, parameter.value) }
            for parameter in command.parameters { body(parameter.name, parameter.value) }
            for parameter in form.trailing { body(parameter.name, parameter.value) }
            body("callback", callback)
        }
        return join(forEachPair)
    }

    /// `vivapayclient://pay/v1?` and the pairs, each name and value percent-encoded, written straight into the
    /// string's storage after measuring it (no array of pairs is made).
    private static func join(_ forEachPair: ((String, String) -> Void) -> Void) -> String {
        let prefix: StaticString = "vivapayclient://pay/v1?"
        var total = prefix.utf8CodeUnitCount - 1
        forEachPair { name, value in
            total += PercentEncoding.encodedCount(name) + PercentEncoding.encodedCount(value) + 2
        }
        return String(unsafeUninitializedCapacity: total) { buffer in
            for index in 0..<prefix.utf8CodeUnitCount { buffer[index] = prefix.utf8Start[index] }
            var offset = prefix.utf8CodeUnitCount
            var first = true
            forEachPair { name, value in
                if !first {
                    buffer[offset] = UInt8(ascii: "&")
                    offset += 1
                }
                first = false
                PercentEncoding.write(name, into: buffer, at: &offset)
                buffer[offset] = UInt8(ascii: "=")
                offset += 1
                PercentEncoding.write(value, into: buffer, at: &offset)
            }
            return offset
        }
    }
}
