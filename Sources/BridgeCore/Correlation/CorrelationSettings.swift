/// What the correlator is told of the bridge's configuration: its lanes and the numbers its rules use. The
/// service makes it from the loaded configuration (`BridgeConfiguration.correlation`).
package struct CorrelationSettings: Sendable, Equatable {
    /// The lanes, in configuration order.
    var lanes: [LaneConfiguration]
    /// The largest command accepted, in bytes (`maxCommandBytes`).
    var maxCommandBytes: Int
    /// How long an aborted command waits for its late callback (`abortGraceMs`).
    var abortGraceMs: Int
    /// How long an open batch is kept (`batchExpiryHours`).
    var batchExpiryHours: Int
    /// With `vivaCloud`: how cloud lanes are polled and when unknowns are looked up; nil without it.
    var cloud: Cloud?

    /// The cloud's part of the settings.
    package struct Cloud: Sendable, Equatable {
        /// How often a cloud lane's session in flight is asked (`vivaCloud.pollMs`).
        var pollMs: Int
        /// How long after it became unknown a command is first looked up (`vivaCloud.resolveUnknownAfterMs`).
        var resolveUnknownAfterMs: Int
        /// When it is looked up again.
        var lookupSchedule: VivaLookupSchedule

        /// Creates the cloud's settings.
        package init(pollMs: Int, resolveUnknownAfterMs: Int, lookupSchedule: VivaLookupSchedule) {
            self.pollMs = pollMs
            self.resolveUnknownAfterMs = resolveUnknownAfterMs
            self.lookupSchedule = lookupSchedule
        }
    }

    /// Creates the settings.
    package init(
        lanes: [LaneConfiguration], maxCommandBytes: Int, abortGraceMs: Int, batchExpiryHours: Int, cloud: Cloud?
    ) {
        self.lanes = lanes
        self.maxCommandBytes = maxCommandBytes
        self.abortGraceMs = abortGraceMs
        self.batchExpiryHours = batchExpiryHours
        self.cloud = cloud
    }
}
