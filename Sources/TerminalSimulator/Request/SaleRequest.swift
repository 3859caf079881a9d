/// A sale request the app accepted: the values it goes on with.
struct SaleRequest: Sendable, Equatable {
    /// A sale, or a pre-authorisation (v1.1), which runs the same way and names itself `pre_auth`.
    var kind: SimulatedTransaction.Kind = .sale
    var amount: Int
    var tipAmount: Int
    var clientTransactionId: String?
    var withInstallments: Bool
    var preferredInstallments: Int?
}

/// Why the app refused a request before starting it; the text is the callback's message.
struct ValidationFailure: Error, Equatable {
    var reason: String
}

/// The checks the apps make before they start anything (Viva's sale pages: "for successful validation…").
enum RequestValidation {
    /// Checks the keys every request needs: `merchantKey` and `appId` not empty.
    static func checkCommon(_ request: RequestURL) -> ValidationFailure? {
        if (request.value("merchantKey") ?? "").isEmpty {
            return ValidationFailure(reason: "merchantKey must not be empty.")
        }
        if (request.value("appId") ?? "").isEmpty {
            return ValidationFailure(reason: "appId must not be empty.")
        }
        return nil
    }

    /// Reads and checks a sale: amount, tip, installments, ISV fields.
    static func sale(_ request: RequestURL) -> Result<SaleRequest, ValidationFailure> {
        guard let amountText = request.value("amount"), !amountText.isEmpty else {
            return .failure(ValidationFailure(reason: "Amount must not be empty."))
        }
        guard let amount = cents(amountText), amount > 0 else {
            return .failure(ValidationFailure(reason: "Amount must be an integer larger than zero."))
        }
        var tip = 0
        if let tipText = request.value("tipAmount") {
            guard let value = cents(tipText) else {
                return .failure(ValidationFailure(reason: "Tip amount must be an integer."))
            }
            guard value <= amount else {
                return .failure(ValidationFailure(reason: "Tip amount must be less than or equal to the amount."))
            }
            tip = value
        }
        let withInstallments = request.value("withInstallments")?.lowercased() == "true"
        var preferred: Int?
        if withInstallments {
            guard let text = request.value("preferredInstallments"), !text.isEmpty else {
                return .failure(
                    ValidationFailure(reason: "preferredInstallments is required when withInstallments is set."))
            }
            guard let value = cents(text) else {
                return .failure(ValidationFailure(reason: "preferredInstallments must be an integer."))
            }
            preferred = value
        }
        if request.hasParameter(prefixed: "ISV_") {
            let clientId = request.value("ISV_clientId") ?? ""
            let secret = request.value("ISV_clientSecret") ?? ""
            guard !clientId.isEmpty, !secret.isEmpty, let isvText = request.value("ISV_amount"), !isvText.isEmpty
            else {
                return .failure(
                    ValidationFailure(reason: "ISV_clientId, ISV_clientSecret and ISV_amount are required together."))
            }
            guard let isvAmount = cents(isvText) else {
                return .failure(ValidationFailure(reason: "ISV_amount must be an integer."))
            }
            guard isvAmount <= amount else {
                return .failure(ValidationFailure(reason: "ISV_amount must not exceed the amount."))
            }
        }
        let clientTransactionId = request.value("clientTransactionId").flatMap { $0.isEmpty ? nil : $0 }
        return .success(
            SaleRequest(
                amount: amount, tipAmount: tip, clientTransactionId: clientTransactionId,
                withInstallments: withInstallments, preferredInstallments: preferred))
    }

    /// An amount in cents as the apps accept it: decimal digits only, at most 2147483647 (int32).
    static func cents(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 10,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int(text), value <= Int(Int32.max)
        else { return nil }
        return value
    }
}
