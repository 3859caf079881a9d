/// The terminal keys of one lane, from the configuration: what the bridge adds to every request URL.
///
/// Printing it (`description`, `debugDescription`, `dump`) never shows ``merchantKey``.
public struct LaneSettings: Sendable, Equatable {
    /// The merchant's key; a secret, never printed.
    public var merchantKey: String
    /// The store app's id as the terminal app knows it (`com.example.pos`).
    public var appId: String
    /// The callback as configured: a scheme (`interapp-callback`) or a full URI (`mycallbackscheme://result`).
    public var callback: String
    /// The terminal app's platform, which decides the callback's form in requests.
    public var platform: Platform

    /// Creates lane settings.
    public init(merchantKey: String, appId: String, callback: String = "interapp-callback", platform: Platform) {
        self.merchantKey = merchantKey
        self.appId = appId
        self.callback = callback
        self.platform = platform
    }

    /// The `callback` value of a request URL on this lane.
    ///
    /// iOS: the configured callback as given (`interapp-callback`). Android: a full URI; a configured callback
    /// without `://` becomes `<callback>://result`.
    public var callbackParameter: String {
        platform == .android ? Self.callbackURI(callback) : callback
    }

    /// A callback as a full URI: as given when it has `://`, else `<callback>://result` (how the Android app
    /// takes a bare scheme, and how the simulator answers one).
    public static func callbackURI(_ callback: String) -> String {
        hasSchemeSeparator(callback) ? callback : callback + "://result"
    }

    /// Whether `text` holds `://`, by its bytes: `String.contains(String)` goes through Foundation, and this is
    /// read for every Android request (about 2% of the bridge loop's samples).
    public static func hasSchemeSeparator(_ text: String) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in text.utf8 {
            if byte == UInt8(ascii: "/"), previous == (UInt8(ascii: ":"), UInt8(ascii: "/")) { return true }
            previous = (previous.1, byte)
        }
        return false
    }
}

extension LaneSettings: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The settings with the merchant key as `***`.
    public var description: String {
        "LaneSettings(merchantKey: \(Masking.redacted), appId: \(appId.debugDescription), "
            + "callback: \(callback.debugDescription), platform: \(platform.rawValue))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// Children with the merchant key as `***`, so that `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["merchantKey": Masking.redacted, "appId": appId, "callback": callback, "platform": platform])
    }
}
