import InterApp

/// Late answers of captures (v1.1). A capture names no command of its own (no `clientTransactionId`), so the
/// sale's rule cannot find it by id; it finds it by the authorisation instead: the `unknown` captures of the
/// lane whose command named the authorisation the answer names (`orderCode`, `shortOrderCode`, or the
/// `referenceNumber` of a remembered pre-auth the answer names). Exactly one such capture is completed, as a
/// late sale is; none or several leave the answer an orphan: an answer that could be another capture's never
/// decides money.
extension Correlator {
    /// The one `unknown` capture of `lane` the late answer `result` names, if exactly one.
    func lateCapture(lane: LaneState, result: JSONObject) -> StoredCommand? {
        let answerCode = Self.nonEmpty(result["orderCode"]?.stringValue)
        let answerShort = Self.nonEmpty(result["shortOrderCode"]?.stringValue)
        guard answerCode != nil || answerShort != nil else { return nil }
        let authorisation = lane.authorisations.last { $0.isNamed(by: result) }
        func named(_ stored: StoredCommand) -> Bool {
            guard case .object(let command)? = try? JSONValue.parse(Array(stored.fingerprint.utf8)) else {
                return false
            }
            if let code = Self.nonEmpty(command["orderCode"]?.stringValue), code == answerCode { return true }
            if let code = Self.nonEmpty(command["shortOrderCode"]?.stringValue), code == answerShort { return true }
            if let stan = Self.nonEmpty(command["referenceNumber"]?.stringValue), let authorisation {
                return stan == authorisation.referenceNumber
            }
            return false
        }
        let candidates: [StoredCommand]
        do {
            candidates = try store.unknownCommands(lane: lane.id, action: .capturePreAuth)
        } catch {
            logger.error("journal read failed", metadata: ["lane": "\(lane.id)", "error": "\(error)"])
            return nil
        }
        let matches = candidates.filter(named)
        guard matches.count == 1 else {
            if matches.count > 1 {
                logger.warning(
                    "a late capture answer names several unknown captures: none is completed",
                    metadata: ["lane": "\(lane.id)", "captures": "\(matches.map(\.id).sorted())"])
            }
            return nil
        }
        return matches[0]
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
