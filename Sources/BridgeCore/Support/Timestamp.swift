/// ISO 8601 timestamps with an offset (`2026-11-21T17:38:25.123+00:00`), made without Foundation's
/// formatters: events carry one each, so this is on the hot path.
package enum Timestamp {
    /// Formats milliseconds since 1970 in UTC.
    package static func iso8601(ms: Int64) -> String {
        var out = [UInt8]()
        out.reserveCapacity(29)
        appendISO8601(ms: ms, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the UTF-8 of ``iso8601(ms:)`` to `out`, allocating nothing else.
    static func appendISO8601(ms: Int64, to out: inout [UInt8]) {
        let millis = Int(((ms % 1000) + 1000) % 1000)
        let seconds = (ms - Int64(millis)) / 1000
        let days = Int(floorDiv(seconds, 86_400))
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = civil(fromDays: days)
        append(year, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        append(month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        append(day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        append(millis, width: 3, to: &out)
        out.append(contentsOf: "+00:00".utf8)
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }

    private static func append(_ value: Int, width: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// Howard Hinnant's days-to-civil algorithm.
    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
