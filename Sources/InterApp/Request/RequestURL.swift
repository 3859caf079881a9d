/// The request URLs that drive the Viva Terminal app: `vivapayclient://pay/v1?…`.
public enum RequestURL {
    /// The scheme, host and version every request starts with.
    public static let base = "vivapayclient://pay/v1"

    /// Builds the URL for `command` on a lane.
    ///
    /// Order: `merchantKey`, `appId`, `action`, the command's parameters in their order, the action's fixed
    /// parameters (`protocol=int_default` for a sale), `callback`. Every name and value is percent-encoded:
    /// only RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`) stay, every other byte of the UTF-8 text
    /// becomes `%XX`, so no value can add, remove or change a parameter.
    public static func build(_ command: TerminalCommand, lane: LaneSettings) -> String {
        let form = command.action.spec.request(for: lane.platform)
        var size = 64 + lane.merchantKey.utf8.count + lane.appId.utf8.count + lane.callback.utf8.count
        for parameter in command.parameters { size += parameter.name.utf8.count + 3 * parameter.value.utf8.count + 2 }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        out.append(contentsOf: base.utf8)
        out.append(UInt8(ascii: "?"))
        appendPair("merchantKey", lane.merchantKey, to: &out, first: true)
        appendPair("appId", lane.appId, to: &out)
        appendPair("action", form.action, to: &out)
        for parameter in command.parameters { appendPair(parameter.name, parameter.value, to: &out) }
        for parameter in form.trailing { appendPair(parameter.name, parameter.value, to: &out) }
        appendPair("callback", lane.callbackParameter, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always)
    private static func appendPair(_ name: String, _ value: String, to out: inout [UInt8], first: Bool = false) {
        if !first { out.append(UInt8(ascii: "&")) }
        PercentEncoding.append(name, to: &out)
        out.append(UInt8(ascii: "="))
        PercentEncoding.append(value, to: &out)
    }
}
