/// Keeping card numbers and secrets out of everything the bridge stores, publishes, replies or logs.
///
/// Secrets are the parameters `merchantKey` and `ISV_clientSecret` (names compared ignoring case). Card-number
/// fields are `accountNumber`, `pan`, `cardNumber` and `primaryAccountNumber`, compared ignoring case, `_` and `-`.
/// Only those fields are masked: other long digit strings (`orderCode`, `rrn`, a `clientTransactionId`) are not
/// card numbers and must reach the caller unchanged.
public enum Masking {
    /// What a redacted secret prints as.
    public static let redacted = "***"

    private static let secretNames: [StaticString] = ["merchantkey", "isv_clientsecret"]
    private static let cardNumberNames: [StaticString] = ["accountnumber", "pan", "cardnumber", "primaryaccountnumber"]

    /// Whether the parameter called `name` holds a secret that must never be printed, stored or logged.
    public static func isSecret(_ name: String) -> Bool {
        let first = name.utf8.first.map(ASCII.lower)
        guard first == UInt8(ascii: "m") || first == UInt8(ascii: "i") else { return false }
        return secretNames.contains { matches(name, $0, skippingSeparators: false) }
    }

    /// Whether the field called `name` holds a card number (PAN), masked before anything sees it.
    public static func isCardNumberField(_ name: String) -> Bool {
        let first = name.utf8.first.map(ASCII.lower)
        guard first == UInt8(ascii: "a") || first == UInt8(ascii: "p") || first == UInt8(ascii: "c") else {
            return false
        }
        return cardNumberNames.contains { matches(name, $0, skippingSeparators: true) }
    }

    /// `name` equals the lower-case ASCII `target` ignoring case (and `_`, `-` when skipping separators).
    private static func matches(_ name: String, _ target: StaticString, skippingSeparators: Bool) -> Bool {
        let count = target.utf8CodeUnitCount
        let bytes = target.utf8Start
        var position = 0
        for byte in name.utf8 {
            if skippingSeparators && (byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")) { continue }
            guard position < count, ASCII.lower(byte) == bytes[position] else { return false }
            position += 1
        }
        return position == count
    }

    /// Masks every card number in `text`: all digits but the first 6 and the last 4 become `*`.
    ///
    /// A card number is a run of 12 or more digits, possibly grouped by single spaces or dashes
    /// (`4792 7512 3456 9999`); separators are kept. PANs have 12 to 19 digits; longer runs are masked too, since
    /// this only runs on card-number fields, where over-masking is harmless and under-masking is a leak. Already
    /// masked text (`479275******9999`) has no such run and comes back unchanged.
    public static func maskCardNumber(_ text: String) -> String {
        var digitCount = 0
        for byte in text.utf8 where ASCII.isDigit(byte) { digitCount += 1 }
        guard digitCount >= 12 else { return text }
        var bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            guard ASCII.isDigit(bytes[index]) else {
                index += 1
                continue
            }
            // A run: digits, with single separators between digits.
            var positions: [Int] = []
            var cursor = index
            while cursor < bytes.count {
                if ASCII.isDigit(bytes[cursor]) {
                    positions.append(cursor)
                    cursor += 1
                } else if (bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "-"))
                    && cursor + 1 < bytes.count && ASCII.isDigit(bytes[cursor + 1])
                {
                    cursor += 1
                } else {
                    break
                }
            }
            if positions.count >= 12 {
                for position in positions[6..<(positions.count - 4)] { bytes[position] = UInt8(ascii: "*") }
            }
            index = cursor
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `url` with the values of `merchantKey` and `ISV_clientSecret` replaced by `***` and card numbers in
    /// card-number fields masked: a form safe for logs and journals.
    ///
    /// Works on the query (after the first `?`; on the whole text if there is none), whatever the URL's
    /// spelling: names are compared after percent-decoding, with surrounding spaces ignored.
    public static func redactSecrets(in url: String) -> String {
        let bytes = Array(url.utf8)
        let queryStart = (bytes.firstIndex(of: UInt8(ascii: "?")).map { $0 + 1 }) ?? 0
        var out: [UInt8] = Array(bytes[..<queryStart])
        out.reserveCapacity(bytes.count)
        var scratch: [UInt8] = []
        var segmentStart = queryStart
        var changed = false
        while segmentStart <= bytes.count {
            let segmentEnd = bytes[segmentStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            let segment = bytes[segmentStart..<segmentEnd]
            if let equals = segment.firstIndex(of: UInt8(ascii: "=")) {
                let name = bytes.withUnsafeBufferPointer { buffer in
                    PercentEncoding.decodedString(
                        UnsafeBufferPointer(rebasing: buffer[segmentStart..<equals]), scratch: &scratch)
                }
                let trimmedName = String(name.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
                let rawValue = bytes[(equals + 1)..<segmentEnd]
                if isSecret(trimmedName) {
                    out.append(contentsOf: bytes[segmentStart...equals])
                    out.append(contentsOf: redacted.utf8)
                    changed = true
                } else if isCardNumberField(trimmedName) {
                    let value = bytes.withUnsafeBufferPointer { buffer in
                        PercentEncoding.decodedString(
                            UnsafeBufferPointer(rebasing: buffer[(equals + 1)..<segmentEnd]), scratch: &scratch)
                    }
                    let masked = maskCardNumber(value)
                    out.append(contentsOf: bytes[segmentStart...equals])
                    if masked != value {
                        out.append(
                            contentsOf: rawValue.contains(UInt8(ascii: "%"))
                                ? PercentEncoding.encode(masked).utf8 : masked.utf8)
                        changed = true
                    } else {
                        out.append(contentsOf: rawValue)
                    }
                } else {
                    out.append(contentsOf: segment)
                }
            } else {
                out.append(contentsOf: segment)
            }
            if segmentEnd < bytes.count { out.append(UInt8(ascii: "&")) }
            segmentStart = segmentEnd + 1
        }
        return changed ? String(decoding: out, as: UTF8.self) : url
    }
}
