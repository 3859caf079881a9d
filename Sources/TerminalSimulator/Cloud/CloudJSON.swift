import Foundation

/// The JSON the simulated back office answers, in Viva's shapes: PascalCase and amounts in euros for the
/// older list, camelCase and euros for `/checkout/v2`.
enum CloudJSON {
    static func response(_ status: Int, _ object: [String: Any]) -> CloudResponse {
        CloudResponse(status: status, body: encode(object))
    }

    static func dayList(_ entries: [CloudLedgerEntry]) -> CloudResponse {
        let transactions: [[String: Any]] = entries.map { entry in
            [
                "TransactionId": entry.transactionId, "StatusId": entry.statusId, "Amount": euros(entry.amount),
                "MerchantTrns": entry.merchantTrns ?? NSNull(),
                "OrderCode": Int64(entry.orderCode).map { $0 as Any } ?? entry.orderCode,
                "InsDate": entry.insDate,
                "SourceTerminalId": Int64(entry.terminalId).map { $0 as Any } ?? entry.terminalId,
                "TransactionTypeId": entry.typeId,
            ]
        }
        return response(200, ["Transactions": transactions, "ErrorCode": 0, "ErrorText": NSNull(), "Success": true])
    }

    static func transaction(_ entry: CloudLedgerEntry) -> CloudResponse {
        response(
            200,
            [
                "statusId": entry.statusId, "amount": euros(entry.amount),
                "orderCode": Int64(entry.orderCode).map { $0 as Any } ?? entry.orderCode,
                "merchantTrns": entry.merchantTrns ?? NSNull(), "cardNumber": entry.cardNumber ?? NSNull(),
                "insDate": entry.insDate, "currencyCode": "978", "transactionTypeId": entry.typeId,
            ])
    }

    /// Cents as a JSON number of euros (`1234` → `12.34`), exact.
    private static func euros(_ cents: Int) -> NSDecimalNumber {
        NSDecimalNumber(decimal: Decimal(cents) / 100)
    }

    private static func encode(_ object: [String: Any]) -> [UInt8] {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map(Array.init) ?? []
    }
}
