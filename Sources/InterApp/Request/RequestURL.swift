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
        var pairs: [(String, String)] = []
        pairs.reserveCapacity(command.parameters.count + form.leading.count + form.trailing.count + 4)
        pairs.append(("merchantKey", lane.merchantKey))
        pairs.append(("appId", lane.appId))
        pairs.append(("action", form.action))
        for parameter in form.leading { pairs.append((parameter.name, parameter.value)) }
        for parameter in command.parameters { pairs.append((parameter.name, parameter.value)) }
        for parameter in form.trailing { pairs.append((parameter.name, parameter.value)) }
        pairs.append(("callback", callback))
        return join(pairs)
    }

    /// `vivapayclient://pay/v1?` and the pairs, each name and value percent-encoded, written straight into the
    /// string's storage after measuring it.
    private static func join(_ pairs: [(String, String)]) -> String {
        let prefix: StaticString = "vivapayclient://pay/v1?"
        var total = prefix.utf8CodeUnitCount + pairs.count * 2 - 1
        for (name, value) in pairs {
            total += PercentEncoding.encodedCount(name) + PercentEncoding.encodedCount(value)
        }
        return String(unsafeUninitializedCapacity: total) { buffer in
            var offset = 0
            for index in 0..<prefix.utf8CodeUnitCount { buffer[index] = prefix.utf8Start[index] }
            offset = prefix.utf8CodeUnitCount
            for (position, (name, value)) in pairs.enumerated() {
                if position > 0 {
                    buffer[offset] = UInt8(ascii: "&")
                    offset += 1
                }
                PercentEncoding.write(name, into: buffer, at: &offset)
                buffer[offset] = UInt8(ascii: "=")
                offset += 1
                PercentEncoding.write(value, into: buffer, at: &offset)
            }
            return offset
        }
    }
}
