/// Keeping card numbers and secrets out of everything the bridge stores, publishes, replies or logs.
///
/// Secrets are the parameters `merchantKey` and `ISV_clientSecret` (names compared ignoring case). Card-number
/// fields are `accountNumber`, `cardNumber`, `primaryAccountNumber` and every name ending in `pan`
/// (`merchantReceiptPAN`, `cardholderReceiptPAN`, as Viva's Android sample reads them), compared ignoring case,
/// `_` and `-`: all their card numbers are masked. In every other field a run of 12 to 19 digits that passes
/// the Luhn check is masked too, except in the identifier fields (``identifierFields``: `orderCode`, `rrn`, a
/// `clientTransactionId`, …), which are not card numbers and must reach the caller unchanged for cancels and
/// reconciliation. Expiry dates are dropped; a cardholder's name is cut to initials. Track data (track 1,
/// track 2, the chip's track 2 equivalent) is cut to its masked card number in every field
/// (``cutTrackData(_:)``).
public enum Masking {
    /// What a redacted secret prints as.
    public static let redacted = "***"

    private static let secretNames: [StaticString] = ["merchantkey", "isv_clientsecret"]
    private static let cardNumberNames: [StaticString] = ["accountnumber", "pan", "cardnumber", "primaryaccountnumber"]

    /// Fields that hold the terminal's or the host's identifiers, never a card number: content masking
    /// leaves them alone (a 16-digit `orderCode` passes the Luhn check one time in ten).
    public static let identifierFields: Set<String> = [
        "orderCode", "shortOrderCode", "rrn", "referenceNumber", "transactionId", "tid", "clientTransactionId",
        "authorisationCode", "batchId", "batchName", "sourceTerminalId", "transactionDate", "amount", "tipAmount",
        "installments", "ISV_amount",
    ]

    /// Whether the parameter called `name` holds a secret that must never be printed, stored or logged.
    public static func isSecret(_ name: String) -> Bool {
        let first = name.utf8.first.map(ASCII.lower)
        guard first == UInt8(ascii: "m") || first == UInt8(ascii: "i") else { return false }
        return secretNames.contains { matches(name, $0, skippingSeparators: false) }
    }

    /// Whether the field called `name` holds a card number (PAN), masked before anything sees it.
    public static func isCardNumberField(_ name: String) -> Bool {
        let utf8 = name.utf8
        if utf8.count >= 3 {
            let tail = utf8.suffix(3).map(ASCII.lower)
            if tail == Array("pan".utf8) { return true }
        }
        let first = utf8.first.map(ASCII.lower)
        guard first == UInt8(ascii: "a") || first == UInt8(ascii: "p") || first == UInt8(ascii: "c") else {
            return false
        }
        return cardNumberNames.contains { matches(name, $0, skippingSeparators: true) }
    }

    /// Whether the field called `name` holds a card's expiry date (`cardExpirationDate`, `expiryDate`, …):
    /// such a field is dropped, never stored or passed on.
    public static func isExpiryField(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.contains("expir") || lower.contains("expdate") || lower == "exp"
    }

    /// Whether the field called `name` holds the cardholder's name (`cardholderName`, `cardHolderName`).
    public static func isCardholderNameField(_ name: String) -> Bool {
        String(name.lowercased().filter { $0 != "_" }) == "cardholdername"
    }

    /// A cardholder's name cut to initials: `JOHN A SMITH` → `J. A. S.`.
    public static func initials(_ name: String) -> String {
        name.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "." })
            .compactMap { $0.first.map { "\($0)." } }
            .joined(separator: " ")
    }

    /// Masks, in a field that is neither a card-number nor an identifier field, every run of 12 to 19
    /// digits (single spaces or dashes between digits allowed) that passes the Luhn check.
    public static func maskLuhnRuns(_ text: String) -> String {
        maskDigitRuns(in: text) { digits in digits.count <= 19 && passesLuhn(digits) }
    }

    /// `text` with every run of 12 or more digits (single spaces or dashes between digits allowed) that
    /// `isCardNumber` accepts masked to its first 6 and last 4 digits; `text` itself when nothing changed.
    private static func maskDigitRuns(in text: String, where isCardNumber: ([UInt8]) -> Bool) -> String {
        guard digitCount(text) >= 12 else { return text }
        var bytes = Array(text.utf8)
        var changed = false
        var index = 0
        while index < bytes.count {
            guard ASCII.isDigit(bytes[index]) else {
                index += 1
                continue
            }
            let (positions, end) = digitRun(bytes, from: index)
            if positions.count >= 12 && isCardNumber(positions.map { bytes[$0] }) {
                for position in positions[6..<(positions.count - 4)] { bytes[position] = UInt8(ascii: "*") }
                changed = true
            }
            index = end
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
    }

    /// How many ASCII digits `text` holds, counted in its contiguous UTF-8 when it has it (native strings do).
    static func digitCount(_ text: String) -> Int {
        func count(_ bytes: some Sequence<UInt8>) -> Int {
            var digits = 0
            for byte in bytes where ASCII.isDigit(byte) { digits += 1 }
            return digits
        }
        return text.utf8.withContiguousStorageIfAvailable(count) ?? count(text.utf8)
    }

    /// The positions of the digits of the run starting at `start` (single spaces or dashes between
    /// digits belong to it), and where it ends.
    private static func digitRun(_ bytes: [UInt8], from start: Int) -> (positions: [Int], end: Int) {
        var positions: [Int] = []
        var cursor = start
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
        return (positions, cursor)
    }

    /// The Luhn check of ASCII digits.
    static func passesLuhn(_ digits: [UInt8]) -> Bool {
        var sum = 0
        for (offset, byte) in digits.reversed().enumerated() {
            var digit = Int(byte - UInt8(ascii: "0"))
            if offset % 2 == 1 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return sum % 10 == 0
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
        maskDigitRuns(in: text) { _ in true }
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
