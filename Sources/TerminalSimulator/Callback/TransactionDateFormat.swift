import Foundation

/// Writes dates the way the apps do: `2026-11-21T12:14:19.8703452+02:00` (seven fraction digits, the
/// offset with a colon), without a Foundation formatter, which would cost more than the rest of a sale.
struct TransactionDateFormat: Sendable {
    /// The offset from UTC, in minutes.
    let offsetMinutes: Int
    private let suffix: [UInt8]

    /// Creates a format for a fixed offset from UTC.
    init(offsetMinutes: Int) {
        self.offsetMinutes = offsetMinutes
        let magnitude = abs(offsetMinutes)
        let sign: UInt8 = offsetMinutes < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        var suffix: [UInt8] = [sign]
        TransactionDateFormat.append(magnitude / 60, width: 2, to: &suffix)
        suffix.append(UInt8(ascii: ":"))
        TransactionDateFormat.append(magnitude % 60, width: 2, to: &suffix)
        self.suffix = suffix
    }

    /// The ISO 8601 text of `date` in this offset.
    func string(from date: Date) -> String {
        let ticks = Int64((date.timeIntervalSince1970 * 10_000_000).rounded(.down)) + Int64(offsetMinutes) * 600_000_000
        let fraction = Int(ticks.modulo(10_000_000))
        let seconds = (ticks - Int64(fraction)) / 10_000_000
        let secondOfDay = Int(seconds.modulo(86_400))
        let days = (seconds - Int64(secondOfDay)) / 86_400
        let (year, month, day) = TransactionDateFormat.civil(fromDays: days)

        var bytes: [UInt8] = []
        bytes.reserveCapacity(33)
        TransactionDateFormat.append(Int(year), width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        TransactionDateFormat.append(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        TransactionDateFormat.append(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        TransactionDateFormat.append(secondOfDay / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        TransactionDateFormat.append(secondOfDay / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        TransactionDateFormat.append(secondOfDay % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        TransactionDateFormat.append(fraction, width: 7, to: &bytes)
        bytes.append(contentsOf: suffix)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A compact local date-time (`20261121-121419`), for batch names the app makes up.
    func compactString(from date: Date) -> String {
        let text = string(from: date)
        let digits = text.utf8.prefix(19).filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ":") }
        var bytes = Array(digits)
        if let t = bytes.firstIndex(of: UInt8(ascii: "T")) { bytes[t] = UInt8(ascii: "-") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Howard Hinnant's days-to-civil conversion (proleptic Gregorian calendar).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func append(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        // In place: an array of digits a field cost seven allocations a callback.
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var rest = value
        var index = start + width - 1
        while index >= start {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
    }
}

extension Int64 {
    /// The mathematical modulo (never negative for a positive divisor).
    fileprivate func modulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
