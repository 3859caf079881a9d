extension Callback {
    /// The outcome this callback reports on its own, before the bridge correlates it.
    ///
    /// Transactions and unknown actions: `success` or `failure` from the status; a status this version does not
    /// recognize is `unknown`, never a failure, since the payment may have happened. Abort answers: `aborted`
    /// gives `success` (the abort itself succeeded; the bridge marks the stopped sale `aborted`), `nothing to
    /// abort` gives `nothingToAbort`, an unrecognized answer gives `unknown` (whether anything stopped is not
    /// known). The one home of these rules: the bridge, `vivabridge decode` and the simulator's checks use it.
    public var baseOutcome: Outcome {
        switch kind {
        case .abort(.aborted): .success
        case .abort(.nothingToAbort): .nothingToAbort
        case .abort(.unrecognized): .unknown
        case .other where isCardholderCancelAction: .failure
        case .transaction, .other:
            switch status {
            case "success": .success
            case "failure": .failure
            default: .unknown
            }
        }
    }

    /// `success`, `failure` or the raw status, from the text received.
    static func normalizedStatus(_ raw: String) -> String {
        if raw == "success" { return "success" }
        if raw == "failed" || raw == "fail" { return "failure" }
        if ASCII.equalsIgnoringCase(raw, "success") { return "success" }
        if ASCII.equalsIgnoringCase(raw, "failed") || ASCII.equalsIgnoringCase(raw, "fail")
            || ASCII.equalsIgnoringCase(raw, "failure")
        {
            return "failure"
        }
        return raw
    }

    /// Reads an abort answer from its message, in either dialect.
    ///
    /// The message is compared ignoring case, `_` versus space, a trailing period and a leading bracketed code;
    /// the Android codes -57 (aborted) and -55 (nothing to abort) decide on their own.
    static func abortAnswer(message: String) -> AbortAnswer {
        let parts = bracketedCode(in: message)
        if parts?.code == -55 { return .nothingToAbort }
        if parts?.code == -57 { return .aborted }
        var words = ""
        for scalar in (parts?.rest ?? Substring(message)).unicodeScalars {
            words.unicodeScalars.append(scalar == "_" ? " " : scalar)
        }
        let text = words.lowercased().split(separator: " ").joined(separator: " ")
        let bare = text.hasSuffix(".") ? String(text.dropLast()) : text
        switch bare {
        case "aborted": return .aborted
        case "nothing to abort": return .nothingToAbort
        default: return .unrecognized
        }
    }

    /// Splits `(-57) ABORTED` into -57 and `ABORTED`; `nil` without a leading bracketed integer.
    static func bracketedCode(in message: String) -> (code: Int, rest: Substring)? {
        let utf8 = message.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII, as Android's messages are: each byte is a Character, so the same reading on bytes.
            guard let open = utf8.firstIndex(where: { $0 != UInt8(ascii: " ") }), utf8[open] == UInt8(ascii: "("),
                let close = utf8[open...].firstIndex(of: UInt8(ascii: ")"))
            else { return nil }
            let inside = message[utf8.index(after: open)..<close]
            guard inside.utf8.count <= 12, let code = Int(inside) else { return nil }
            return (code, message[utf8.index(after: close)...].drop { $0 == " " })
        }
        let trimmed = message.drop { $0 == " " }
        guard trimmed.first == "(", let close = trimmed.firstIndex(of: ")") else { return nil }
        let inside = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
        guard inside.utf8.count <= 12, let code = Int(inside) else { return nil }
        return (code, trimmed[trimmed.index(after: close)...].drop { $0 == " " })
    }
}
