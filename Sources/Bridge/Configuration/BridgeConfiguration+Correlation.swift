import BridgeCore
import BridgeJournal

extension BridgeConfiguration {
    /// What the correlator is told of this configuration.
    var correlation: CorrelationSettings {
        CorrelationSettings(
            lanes: lanes, maxCommandBytes: maxCommandBytes, abortGraceMs: abortGraceMs,
            batchExpiryHours: batchExpiryHours,
            cloud: vivaCloud.map {
                CorrelationSettings.Cloud(
                    pollMs: $0.pollMs, resolveUnknownAfterMs: $0.resolveUnknownAfterMs,
                    lookupSchedule: $0.lookupSchedule)
            })
    }
}
