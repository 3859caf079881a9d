/// The field names Viva's callbacks use, recognized from raw bytes so that the parser makes no string for them
/// and knows at once which fields decide the outcome.
enum KnownField: String {
    case status, message, action, clientTransactionId, amount, tipAmount, verificationMethod, rrn, cardType
    case accountNumber, referenceNumber, authorisationCode, tid, orderCode, shortOrderCode, installments
    case transactionDate, transactionId, command, batchName, batchId, sourceTerminalId

    /// The known field spelt exactly by the `count` bytes at `bytes`, if any.
    @inline(__always)
    static func match(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> KnownField? {
        @inline(__always) func equals(_ spelling: StaticString) -> Bool {
            let expected = spelling.utf8Start
            for index in 1..<count where bytes[index] != expected[index] { return false }
            return true
        }
        let candidate: (KnownField, StaticString)?
        switch (count, bytes[0]) {
        case (3, UInt8(ascii: "r")): candidate = (.rrn, "rrn")
        case (3, UInt8(ascii: "t")): candidate = (.tid, "tid")
        case (6, UInt8(ascii: "s")): candidate = (.status, "status")
        case (6, UInt8(ascii: "a")):
            candidate = bytes[1] == UInt8(ascii: "c") ? (.action, "action") : (.amount, "amount")
        case (7, UInt8(ascii: "m")): candidate = (.message, "message")
        case (7, UInt8(ascii: "c")): candidate = (.command, "command")
        case (7, UInt8(ascii: "b")): candidate = (.batchId, "batchId")
        case (8, UInt8(ascii: "c")): candidate = (.cardType, "cardType")
        case (9, UInt8(ascii: "t")): candidate = (.tipAmount, "tipAmount")
        case (9, UInt8(ascii: "o")): candidate = (.orderCode, "orderCode")
        case (9, UInt8(ascii: "b")): candidate = (.batchName, "batchName")
        case (12, UInt8(ascii: "i")): candidate = (.installments, "installments")
        case (13, UInt8(ascii: "a")): candidate = (.accountNumber, "accountNumber")
        case (13, UInt8(ascii: "t")): candidate = (.transactionId, "transactionId")
        case (14, UInt8(ascii: "s")): candidate = (.shortOrderCode, "shortOrderCode")
        case (15, UInt8(ascii: "r")): candidate = (.referenceNumber, "referenceNumber")
        case (15, UInt8(ascii: "t")): candidate = (.transactionDate, "transactionDate")
        case (16, UInt8(ascii: "s")): candidate = (.sourceTerminalId, "sourceTerminalId")
        case (17, UInt8(ascii: "a")): candidate = (.authorisationCode, "authorisationCode")
        case (18, UInt8(ascii: "v")): candidate = (.verificationMethod, "verificationMethod")
        case (19, UInt8(ascii: "c")): candidate = (.clientTransactionId, "clientTransactionId")
        default: candidate = nil
        }
        guard let candidate, equals(candidate.1) else { return nil }
        return candidate.0
    }
}
