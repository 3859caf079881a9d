import InterApp

/// Writes one callback URL the way the simulated app does, in its dialect and encoding.
///
/// The base comes from the request's `callback` parameter: iOS sends a bare scheme (`interapp-callback`),
/// which becomes `interapp-callback://result`; Android sends a whole URL (`mycallbackscheme://result`),
/// used as it is. Either way, a value with `://` is taken whole and a bare scheme gets `://result`.
struct CallbackBuilder {
    /// A raw-space quirk of real callbacks, written only with ``CallbackEncoding/realistic``.
    enum Quirk {
        case none
        /// `amount=1200 &cardType=…`: a space after the value.
        case spaceAfterValue
        /// `& accountNumber=…`: a space before the name.
        case spaceBeforeName
        /// `tid= 16016684`: a space before the value.
        case spaceBeforeValue
    }

    /// The URL's bytes so far: appended as bytes, made a `String` once (``url``).
    private var bytes: [UInt8] = []
    private let platform: SimulatorPlatform
    private let encoding: CallbackEncoding
    private var separator: UInt8

    /// Starts a callback URL on the request's `callback` value.
    init(callback: String, platform: SimulatorPlatform, encoding: CallbackEncoding) {
        // Byte scans: `String.contains(String)` goes through Foundation and costs more than the whole URL.
        let hasSchemeSeparator = LaneSettings.hasSchemeSeparator(callback)
        let base = LaneSettings.callbackURI(callback)
        bytes.reserveCapacity(base.utf8.count + 480)
        bytes.append(contentsOf: base.utf8)
        separator = UInt8(ascii: hasSchemeSeparator && callback.utf8.contains(UInt8(ascii: "?")) ? "&" : "?")
        self.platform = platform
        self.encoding = encoding
    }

    /// The callback URL as written so far.
    var url: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `name=value`.
    mutating func add(_ name: String, _ value: String, quirk: Quirk = .none) {
        let quirk = encoding == .realistic ? quirk : .none
        bytes.append(separator)
        separator = UInt8(ascii: "&")
        if quirk == .spaceBeforeName { bytes.append(UInt8(ascii: " ")) }
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: "="))
        if quirk == .spaceBeforeValue { bytes.append(UInt8(ascii: " ")) }
        appendEncoded(value)
        if quirk == .spaceAfterValue { bytes.append(UInt8(ascii: " ")) }
    }

    /// Appends `name=value` for an integer.
    mutating func add(_ name: String, _ value: Int, quirk: Quirk = .none) {
        add(name, String(value), quirk: quirk)
    }

    /// Appends `name=value` when `value` is not nil.
    mutating func add(_ name: String, ifPresent value: String?, quirk: Quirk = .none) {
        if let value { add(name, value, quirk: quirk) }
    }

    // MARK: - Encoding

    private mutating func appendEncoded(_ value: String) {
        let keepSpace = encoding == .realistic && platform == .android
        let clean = encoding == .clean
        for byte in value.utf8 {
            if CallbackBuilder.isKept(byte, clean: clean, keepSpace: keepSpace) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(CallbackBuilder.hexDigits[Int(byte >> 4)])
                bytes.append(CallbackBuilder.hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Whether `byte` is written as it is. Clean: RFC 3986 unreserved only. Realistic: any URL character but
    /// the ones that would break the query (`& = # %`), plus raw spaces on Android.
    @inline(__always)
    private static func isKept(_ byte: UInt8, clean: Bool, keepSpace: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        case UInt8(ascii: " "):
            return keepSpace
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"),
            UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return !clean
        default:
            return false
        }
    }
}
