import InterApp

/// A successful `pre_auth` on a lane, kept so that a later capture can name it (v1.1).
///
/// Kept in memory only: a capture answered after a restart of the bridge is not linked (its reply still
/// carries every field the terminal sent).
struct Authorisation {
    /// The `pre_auth` command's id.
    let id: String
    /// The identifiers the terminal gave the authorisation.
    let orderCode: String?
    let shortOrderCode: String?
    let referenceNumber: String?

    /// The identifiers of a successful `pre_auth` answer.
    init(id: String, result: JSONObject?) {
        func text(_ key: String) -> String? {
            guard let value = result?[key]?.stringValue, !value.isEmpty else { return nil }
            return value
        }
        self.id = id
        orderCode = text("orderCode")
        shortOrderCode = text("shortOrderCode")
        referenceNumber = text("referenceNumber")
    }

    /// Whether a capture's answer names this authorisation: the same `orderCode`, or without one the same
    /// `shortOrderCode`. A STAN alone is not enough (the capture gets its own).
    func isNamed(by result: JSONObject?) -> Bool {
        if let code = result?["orderCode"]?.stringValue, !code.isEmpty { return code == orderCode }
        if let code = result?["shortOrderCode"]?.stringValue, !code.isEmpty { return code == shortOrderCode }
        return false
    }
}
