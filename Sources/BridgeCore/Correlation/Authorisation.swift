import InterApp

/// A successful `pre_auth` on a lane, kept so that a later capture can name it (v1.1).
///
/// The last ones are kept in memory (those not yet committed to the journal among them); older ones, and
/// every one after a restart, are found in the journal by the order code of their answer
/// (``Correlator/authorisation(namedBy:lane:)``).
package struct Authorisation {
    /// The `pre_auth` command's id.
    let id: String
    /// The identifiers the terminal gave the authorisation.
    let orderCode: String?
    let shortOrderCode: String?
    let referenceNumber: String?

    /// The identifiers of a successful `pre_auth` answer.
    package init(id: String, result: JSONObject?) {
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

extension Correlator {
    /// The id of the `pre_auth` whose authorisation a successful capture's answer names: a remembered one (same
    /// `orderCode`, or without one the same `shortOrderCode`), else the newest successful pre-auth of the lane
    /// in the journal whose answer had that `orderCode`, so that the link survives a restart of the bridge.
    func authorisation(namedBy result: JSONObject?, lane: LaneState) -> String? {
        if let remembered = lane.authorisations.last(where: { $0.isNamed(by: result) }) { return remembered.id }
        guard let orderCode = result?["orderCode"]?.stringValue, !orderCode.isEmpty else { return nil }
        do {
            return try store.preAuth(lane: lane.id, orderCode: orderCode)
        } catch {
            logger.error("journal read failed", metadata: ["lane": "\(lane.id)", "error": "\(error)"])
            return nil
        }
    }
}
