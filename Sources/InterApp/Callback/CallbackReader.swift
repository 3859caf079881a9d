/// One pass over a callback URL's bytes; see ``CallbackParser`` for the rules.
///
/// Built for speed: the query is scanned eight bytes at a time for the bytes that matter (`&`, `=`, `%`,
/// control characters), known field names become no strings, and escapes are decoded straight into the value's
/// string storage.
struct CallbackReader {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private var fields: [Parameter] = []
    private var status: String?
    private var action: String?
    private var message: String?
    private var clientTransactionId: String?
    private var amount: String?
    private var tipAmount: String?

    init(input: UnsafeBufferPointer<UInt8>) {
        // An empty buffer may have no address; any valid pointer will do since nothing is read.
        base = input.baseAddress ?? UnsafePointer(bitPattern: 1)!
        count = input.count
    }

    mutating func read(knownValid: Bool) throws(CallbackParseError) -> Callback {
        var start = 0
        var end = count
        while start < end && ASCII.isSpace(base[start]) { start += 1 }
        while end > start && ASCII.isSpace(base[end - 1]) { end -= 1 }
        guard start < end else { throw CallbackParseError("it is empty") }
        if !knownValid,
            let bad = UTF8Scan.firstInvalidOffset(UnsafeBufferPointer(start: base + start, count: end - start))
        {
            throw CallbackParseError("it is not UTF-8 text (invalid byte at offset \(start + bad))")
        }
        let (scheme, afterScheme) = try readScheme(start: start, end: end)
        var index = afterScheme
        while index < end && base[index] != UInt8(ascii: "?") {
            try checkControl(at: index)
            index += 1
        }
        guard index < end else {
            throw CallbackParseError(
                "no '?' and query after \(scheme)://; a callback looks like interapp-callback://result?status=success&…"
            )
        }
        let host = string(afterScheme, index)
        fields.reserveCapacity(20)
        try readQuery(start: index + 1, end: end)
        guard let rawStatus = status else {
            let names = fields.prefix(8).map(\.name).joined(separator: ", ")
            throw CallbackParseError(
                "no status field; a Viva callback always has status=success or status=failed"
                    + (names.isEmpty ? "" : " (fields seen: \(Quote.short(names, limit: 80)))"))
        }
        let message = self.message ?? ""
        let kind: Callback.Kind
        if let action, let known = TerminalAction(callbackAction: action) {
            kind = known == .abort ? .abort(Callback.abortAnswer(message: message)) : .transaction(known)
        } else {
            kind = .other(action ?? "")
        }
        return Callback(
            scheme: scheme, host: host, fields: fields, kind: kind, status: Callback.normalizedStatus(rawStatus),
            message: message)
    }

    /// Rejects binary: control characters other than tab, line feed and carriage return (a message may carry
    /// a raw line break; losing a payment's result over it would be worse than keeping it).
    private func checkControl(at index: Int) throws(CallbackParseError) {
        let byte = base[index]
        if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F {
            throw CallbackParseError("control character \(UTF8Scan.describe(byte)) at offset \(index)")
        }
    }

    /// Reads `scheme://`; returns the lower-cased scheme and the offset after `//`.
    private func readScheme(start: Int, end: Int) throws(CallbackParseError) -> (String, Int) {
        var index = start
        @inline(__always) func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }
        if isLetter(base[index]) {
            index += 1
            while index < end {
                let byte = base[index]
                guard isLetter(byte) || ASCII.isDigit(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E else {
                    break
                }
                index += 1
            }
        }
        guard index > start, end - index >= 3, base[index] == UInt8(ascii: ":"),
            base[index + 1] == UInt8(ascii: "/"), base[index + 2] == UInt8(ascii: "/")
        else {
            throw CallbackParseError(
                "it does not start with scheme:// (like interapp-callback://result?status=success&…)")
        }
        var lower = true
        for position in start..<index where base[position] &- 0x41 < 26 { lower = false }
        let scheme: String
        if lower {
            scheme = string(start, index)
        } else {
            scheme = String(unsafeUninitializedCapacity: index - start) { buffer in
                for offset in 0..<(index - start) { buffer[offset] = ASCII.lower(base[start + offset]) }
                return index - start
            }
        }
        return (scheme, index + 3)
    }

    @inline(__always)
    private func string(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
    }

    /// A mask whose lowest set bit marks the first of the 8 bytes in `word` (little-endian order) that is `&`,
    /// `=`, `%`, DEL or below 0x20; zero if there is none. Bits above the lowest may be false alarms.
    @inline(__always)
    private static func specialByteMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & high }
        let below20 = (word &- ones &* 0x20) & ~word & high
        return hasZero(word ^ (ones &* 0x26)) | hasZero(word ^ (ones &* 0x3D)) | hasZero(word ^ (ones &* 0x25))
            | hasZero(word ^ (ones &* 0x7F)) | below20
    }

    private mutating func readQuery(start: Int, end: Int) throws(CallbackParseError) {
        let base = self.base
        var segmentStart = start
        var equals = -1
        var firstPercent = -1
        var lastPercent = -1
        var cursor = start
        while true {
            if end - cursor >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + cursor).loadUnaligned(as: UInt64.self))
                let mask = Self.specialByteMask(word)
                if mask == 0 {
                    cursor += 8
                    continue
                }
                cursor += mask.trailingZeroBitCount >> 3
            }
            let byte = cursor == end ? UInt8(ascii: "&") : base[cursor]
            switch byte {
            case UInt8(ascii: "&"):
                if cursor > segmentStart {
                    try field(
                        start: segmentStart, equals: equals, end: cursor, firstPercent: firstPercent,
                        lastPercent: lastPercent)
                }
                if cursor == end { return }
                segmentStart = cursor + 1
                equals = -1
                firstPercent = -1
                lastPercent = -1
            case UInt8(ascii: "="):
                if equals < 0 { equals = cursor }
            case UInt8(ascii: "%"):
                if firstPercent < 0 { firstPercent = cursor }
                lastPercent = cursor
            case 0..<0x20, 0x7F:
                try checkControl(at: cursor)
            default:
                break
            }
            cursor += 1
        }
    }

    private mutating func field(
        start: Int, equals: Int, end: Int, firstPercent: Int, lastPercent: Int
    ) throws(CallbackParseError) {
        let nameEnd = equals < 0 ? end : equals
        var low = start
        var high = nameEnd
        while low < high && ASCII.isSpace(base[low]) { low += 1 }
        while high > low && ASCII.isSpace(base[high - 1]) { high -= 1 }
        guard low < high else { return }
        let nameHasPercent = firstPercent >= 0 && firstPercent < nameEnd
        let known = nameHasPercent ? nil : KnownField.match(base + low, high - low)
        var name: String
        if let known {
            name = known.rawValue
        } else {
            name = text(low, high, decode: nameHasPercent)
            if name.isEmpty { return }
        }
        var value = ""
        if equals >= 0 {
            low = equals + 1
            high = end
            while low < high && ASCII.isSpace(base[low]) { low += 1 }
            while high > low && ASCII.isSpace(base[high - 1]) { high -= 1 }
            if low < high { value = text(low, high, decode: lastPercent > equals) }
            // Track data is cut in every field but the id the bridge itself sent (it must match). The raw
            // bytes tell most values at once that they hold none; an escaped one is looked at decoded.
            if known != .clientTransactionId, high - low >= 13,
                lastPercent > equals
                    || Masking.mayHoldTrackData(UnsafeBufferPointer(start: base + low, count: high - low))
            {
                value = Masking.cutTrackData(value)
            }
            if known == .accountNumber {
                // Most card numbers arrive masked (10 digits): skip the masking pass when it cannot apply.
                var digits = 0
                for index in low..<high where ASCII.isDigit(base[index]) { digits += 1 }
                if digits >= 12 || lastPercent > equals { value = Masking.maskCardNumber(value) }
            }
        }
        if known == nil, Masking.holdsCardNumber(name) {
            // A name holding a card number, masked or not, is no field of Viva's but card data, such as a
            // bare track 2 segment (`;4222222222222222=25121010000?` splits at its `=`): the segment is
            // masked whole, then split again.
            let whole = Masking.maskCardNumber(Masking.cutTrackData(equals >= 0 ? name + "=" + value : name))
            let parts = whole.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            name = String(parts[0])
            value = parts.count > 1 ? String(parts[1]) : ""
        }
        if known == .message { value = Masking.maskLuhnRuns(value) }
        switch known {
        case .status: try Self.keep(&status, name, value)
        case .action: try Self.keep(&action, name, value)
        case .message: try Self.keep(&message, name, value)
        case .clientTransactionId: try Self.keep(&clientTransactionId, name, value)
        case .amount: try Self.keep(&amount, name, value)
        case .tipAmount: try Self.keep(&tipAmount, name, value)
        case nil:
            if Masking.isCardNumberField(name) {
                value = Masking.maskCardNumber(value)
            } else if Masking.isSecret(name) {
                value = Masking.redacted
            } else if Masking.isExpiryField(name) {
                return
            } else if Masking.isCardholderNameField(name) {
                value = Masking.initials(value)
            } else if nameHasPercent {
                // A decoded name may spell a field the outcome depends on.
                switch name {
                case "status": try Self.keep(&status, name, value)
                case "action": try Self.keep(&action, name, value)
                case "message": try Self.keep(&message, name, value)
                case "clientTransactionId": try Self.keep(&clientTransactionId, name, value)
                case "amount": try Self.keep(&amount, name, value)
                case "tipAmount": try Self.keep(&tipAmount, name, value)
                default: break
                }
            }
        default:
            break
        }
        if known == nil, !Masking.isCardNumberField(name), !Masking.identifierFields.contains(name) {
            value = Masking.maskLuhnRuns(value)
        }
        fields.append(Parameter(name: name, value: value))
    }

    /// Records a field the outcome or the correlation depends on; a second, different value is an error.
    private static func keep(_ slot: inout String?, _ name: String, _ value: String) throws(CallbackParseError) {
        if let existing = slot {
            guard existing == value else {
                throw CallbackParseError("\(name) appears twice with different values; the answer is ambiguous")
            }
        } else {
            slot = value
        }
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        if byte &- 0x30 < 10 { return byte &- 0x30 }
        let lower = byte | 0x20
        if lower &- 0x61 < 6 { return lower &- 0x61 &+ 10 }
        return nil
    }

    /// The text of the trimmed range `low..<high`; when `decode`, escapes are decoded once straight into the
    /// string and the result is trimmed again, unless the decoded bytes are not UTF-8: then the raw text stays.
    @inline(__always)
    private func text(_ low: Int, _ high: Int, decode: Bool) -> String {
        guard decode else { return string(low, high) }
        let base = self.base
        return String(unsafeUninitializedCapacity: high - low) { buffer in
            var written = 0
            var index = low
            while index < high {
                let byte = base[index]
                if byte == UInt8(ascii: "%") && index + 2 < high, let upper = Self.hexValue(base[index + 1]),
                    let lower = Self.hexValue(base[index + 2])
                {
                    buffer[written] = upper << 4 | lower
                    index += 3
                } else {
                    buffer[written] = byte
                    index += 1
                }
                written += 1
            }
            let decoded = UnsafeBufferPointer(rebasing: buffer[0..<written])
            if UTF8Scan.firstInvalidOffset(decoded) != nil {
                for offset in 0..<(high - low) { buffer[offset] = base[low + offset] }
                return high - low
            }
            var first = 0
            var last = written
            while first < last && ASCII.isSpace(buffer[first]) { first += 1 }
            while last > first && ASCII.isSpace(buffer[last - 1]) { last -= 1 }
            if first > 0 {
                for offset in 0..<(last - first) { buffer[offset] = buffer[first + offset] }
            }
            return last - first
        }
    }
}
