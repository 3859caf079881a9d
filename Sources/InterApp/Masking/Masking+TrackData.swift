extension Masking {
    /// `text` with every piece of magnetic-stripe track data in it cut down to its card number, masked
    /// (`;4222222222222222=25121010000?` → `422222******2222`); `text` itself when it holds none.
    ///
    /// Track data is sensitive authentication data (PCI DSS requirement 3.3): after authorisation nothing
    /// of it may be kept but the PAN, and that masked. Recognized anywhere in the text, its separators and
    /// sentinels written plain or percent-encoded once (`%3D`, `%5E`, `%3F`, …):
    /// - track 2, `;PAN=YYMMSSS…?`, with or without its sentinels, and the chip's track 2 equivalent with
    ///   `D` as separator and `F` as padding (`4222222222222222D25121010000F`; 4 digits at least after `D`);
    /// - track 1, `%BPAN^NAME^YYMMSSS…?`, with or without its sentinel and format code: everything from the
    ///   first `^` to the end sentinel `?` is cut, to the end of the text when there is no `?`.
    ///
    /// The PAN is a whole run of 12 to 19 digits, or of digits and the masking characters `*`, `X` and `#`
    /// whose first and last characters are digits (`422222******2222=25121010000` still holds the expiry
    /// and the service code).
    /// What is left is looked at again until nothing more is cut (`4222222222222222=4222222222222222=2512`
    /// would otherwise leave a track behind): each cut shortens the text.
    public static func cutTrackData(_ text: String) -> String {
        var text = text
        while mayHoldTrackData(text), let cut = cutOnce(text) { text = cut }
        return text
    }

    /// `text` with every track found in one pass cut, or nil when there is none.
    private static func cutOnce(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var copied = 0
        var index = 0
        while index < bytes.count {
            guard isPANCharacter(bytes[index]) else {
                index += 1
                continue
            }
            // A whole run of PAN characters: masking its digits (`*`) then never makes a track of it.
            var panEnd = index
            while panEnd < bytes.count && isPANCharacter(bytes[panEnd]) { panEnd += 1 }
            guard ASCII.isDigit(bytes[index]), (12...19).contains(panEnd - index), ASCII.isDigit(bytes[panEnd - 1]),
                let (track, trackEnd) = trackAfterPAN(bytes, at: panEnd)
            else {
                index = panEnd
                continue
            }
            let start = trackStart(bytes, pan: index, track: track, notBefore: copied)
            out.append(contentsOf: bytes[copied..<start])
            let pan = bytes[index..<panEnd]
            for (offset, byte) in pan.enumerated() {
                out.append(offset >= 6 && offset < pan.count - 4 && ASCII.isDigit(byte) ? UInt8(ascii: "*") : byte)
            }
            copied = trackEnd
            index = trackEnd
        }
        guard copied > 0 else { return nil }
        out.append(contentsOf: bytes[copied...])
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `text` may hold a card number: 12 digits or more, or a run of 12 PAN characters or more
    /// (digits and masking characters: `422222******2222`).
    static func holdsCardNumber(_ text: String) -> Bool {
        guard text.utf8.count >= 12 else { return false }
        if digitCount(text) >= 12 { return true }
        var run = 0
        for byte in text.utf8 {
            run = isPANCharacter(byte) ? run + 1 : 0
            if run >= 12 { return true }
        }
        return false
    }

    /// The two kinds of track.
    private enum Track { case one, two }

    /// A character of a PAN as cards and terminals print it: a digit, or a masking character.
    @inline(__always)
    private static func isPANCharacter(_ byte: UInt8) -> Bool {
        // One bit per ASCII byte: `#` (0x23), `*` (0x2A), `0`-`9` (0x30-0x39); `X` (0x58), `x` (0x78).
        let low: UInt64 = 0x03FF_0408_0000_0000
        let high: UInt64 = 0x0100_0000_0100_0000
        return byte < 64 ? (low >> byte) & 1 == 1 : byte < 128 && (high >> (byte &- 64)) & 1 == 1
    }

    /// Whether `text` has a run of 12 or more PAN characters followed by a byte that may begin a track's
    /// separator (``mayHoldTrackData(_:)-(UnsafeBufferPointer<UInt8>)``).
    private static func mayHoldTrackData(_ text: String) -> Bool {
        guard text.utf8.count >= 13 else { return false }
        return text.utf8.withContiguousStorageIfAvailable(mayHoldTrackData)
            ?? Array(text.utf8).withUnsafeBufferPointer(mayHoldTrackData)
    }

    /// Whether `bytes` have a run of 12 or more PAN characters followed by a byte that may begin a track's
    /// separator (`=`, `^`, `D`, or `%` of an escape). Allocates nothing and looks at every 12th byte
    /// only, as long as it is no PAN character (such a run covers one of them): a field without track
    /// data costs the callback parser a few comparisons.
    static func mayHoldTrackData(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var probe = 11
        while probe < bytes.count {
            guard isPANCharacter(bytes[probe]) else {
                probe += 12
                continue
            }
            // The run's end first: only a run followed by a separator is measured.
            var end = probe + 1
            while end < bytes.count && isPANCharacter(bytes[end]) { end += 1 }
            if end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "=") || byte == UInt8(ascii: "^") || ASCII.lower(byte) == UInt8(ascii: "d")
                    || byte == UInt8(ascii: "%")
                {
                    var start = probe
                    while start > 0 && isPANCharacter(bytes[start - 1]) { start -= 1 }
                    if end - start >= 12 { return true }
                }
            }
            probe = end + 12
        }
        return false
    }

    /// How many bytes at `index` spell `character`, plain (1) or percent-encoded (3); nil when they do not.
    @inline(__always)
    private static func spelled(_ character: UInt8, in bytes: [UInt8], at index: Int) -> Int? {
        guard index < bytes.count else { return nil }
        if bytes[index] == character { return 1 }
        return isEscape(of: character, in: bytes, at: index) ? 3 : nil
    }

    /// Whether the three bytes at `index` are `%XX` spelling `character`.
    @inline(__always)
    private static func isEscape(of character: UInt8, in bytes: [UInt8], at index: Int) -> Bool {
        @inline(__always) func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x61 + value - 10 }
        return index >= 0 && index + 2 < bytes.count && bytes[index] == UInt8(ascii: "%")
            && ASCII.lower(bytes[index + 1]) == hexDigit(character >> 4)
            && ASCII.lower(bytes[index + 2]) == hexDigit(character & 0x0F)
    }

    /// The track whose separator follows a PAN ending at `panEnd`, and where its data ends (after its end
    /// sentinel when it has one); nil when no track follows.
    private static func trackAfterPAN(_ bytes: [UInt8], at panEnd: Int) -> (Track, Int)? {
        if let length = spelled(UInt8(ascii: "^"), in: bytes, at: panEnd) {
            var index = panEnd + length
            while index < bytes.count {
                if let end = spelled(UInt8(ascii: "?"), in: bytes, at: index) { return (.one, index + end) }
                index += 1
            }
            return (.one, bytes.count)
        }
        // Track 2 after `=`, or the chip's track 2 equivalent after `D` (its expiry at least, then `F` padding).
        let chip = panEnd < bytes.count && ASCII.lower(bytes[panEnd]) == UInt8(ascii: "d")
        guard let separator = chip ? 1 : spelled(UInt8(ascii: "="), in: bytes, at: panEnd) else { return nil }
        var index = panEnd + separator
        while index < bytes.count && ASCII.isDigit(bytes[index]) { index += 1 }
        guard index - (panEnd + separator) >= (chip ? 4 : 1) else { return nil }
        if chip {
            while index < bytes.count && ASCII.lower(bytes[index]) == UInt8(ascii: "f") { index += 1 }
        }
        if let end = spelled(UInt8(ascii: "?"), in: bytes, at: index) { index += end }
        return (.two, index)
    }

    /// Where a track whose PAN starts at `pan` begins: before its start sentinel (`;` for track 2; `%B`,
    /// or only the format code `B`, for track 1) when it has one, never before `notBefore`.
    private static func trackStart(_ bytes: [UInt8], pan: Int, track: Track, notBefore floor: Int) -> Int {
        func preceded(by character: UInt8, at end: Int) -> Int? {
            if end - 1 >= floor, bytes[end - 1] == character { return end - 1 }
            if end - 3 >= floor, isEscape(of: character, in: bytes, at: end - 3) { return end - 3 }
            return nil
        }
        switch track {
        case .two:
            return preceded(by: UInt8(ascii: ";"), at: pan) ?? pan
        case .one:
            guard pan - 1 >= floor, ASCII.lower(bytes[pan - 1]) == UInt8(ascii: "b") else { return pan }
            return preceded(by: UInt8(ascii: "%"), at: pan - 1) ?? pan - 1
        }
    }
}
