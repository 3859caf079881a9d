import BridgeCore

/// A `--from` or `--to` bound of `journal export`: an RFC 3339 timestamp (`2026-11-24T17:30:00Z`,
/// `2026-11-24T18:30:00.250+01:00`) or a date (`2026-11-24`, a whole day in UTC).
public enum JournalTimeBound {
    /// The bound's milliseconds since 1970, or nil when `text` is neither form.
    ///
    /// A date is its day's first millisecond (UTC), or with `endOfDay` the next day's first: `--to` is
    /// exclusive, so `--to 2026-11-24` includes the whole of the 24th, and `--from D --to D` is day D.
    public static func milliseconds(_ text: String, endOfDay: Bool = false) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, let year = number(bytes, 0, 4), bytes[4] == dash, let month = number(bytes, 5, 2),
            bytes[7] == dash, let day = number(bytes, 8, 2), (1...12).contains(month),
            (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let dayMs = Int64(daysFromCivil(year: year, month: month, day: day)) * 86_400_000
        if bytes.count == 10 { return endOfDay ? dayMs + 86_400_000 : dayMs }
        return time(bytes).map { dayMs + $0 }
    }

    private static let dash = UInt8(ascii: "-")
    private static let colon = UInt8(ascii: ":")

    /// `THH:MM:SS[.fraction](Z|±HH:MM)` after the date: milliseconds into the day, offset applied.
    private static func time(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count >= 20, [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[10]),
            let hour = number(bytes, 11, 2), bytes[13] == colon, let minute = number(bytes, 14, 2),
            bytes[16] == colon, let second = number(bytes, 17, 2), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var millis = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, (48...57).contains(bytes[index]) {
                if digits < 3 { millis = millis * 10 + Int(bytes[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in min(digits, 3)..<3 { millis *= 10 }
        }
        guard index < bytes.count else { return nil }
        var offsetMinutes = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), dash:
            guard index + 6 == bytes.count, let hours = number(bytes, index + 1, 2), bytes[index + 3] == colon,
                let minutes = number(bytes, index + 4, 2), hours < 24, minutes < 60
            else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (bytes[index] == dash ? -1 : 1)
        default:
            return nil
        }
        let local = Int64(((hour * 60 + minute) * 60 + second) * 1000 + millis)
        return local - Int64(offsetMinutes) * 60_000
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Howard Hinnant's days-from-civil algorithm: days since 1970-01-01.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
