extension BridgeConfiguration {
    /// The heartbeat interval when the key is absent, for a bridge of a few lanes.
    public static let defaultHeartbeatIntervalMs = 5000
    /// The most ZMTP pings a second the default interval lets the bridge's lanes cost together: one every
    /// 1.5 ms (10,000 lanes at 15 s; about 2% of a core, docs/PERFORMANCE.md "Many lanes").
    static let heartbeatSpacingMicroseconds = 1500

    /// ZMTP heartbeat interval on terminal links, in milliseconds: the key's value, or else 5 s, longer for
    /// more than 3,333 relay lanes so that the pings cost no more than one every 1.5 ms (whole seconds, at
    /// most a minute), and never more than a third of a `heartbeatTimeoutMs` given (a relay drops a link
    /// it is not pinged on within the timeout). Setting it sets the key.
    public var heartbeatIntervalMs: Int {
        get {
            if let heartbeatIntervalSetting { return heartbeatIntervalSetting }
            let spread = Self.defaultHeartbeatInterval(relayLanes: relayLaneCount)
            guard let heartbeatTimeoutSetting else { return spread }
            return max(100, min(spread, heartbeatTimeoutSetting / 3))
        }
        set { heartbeatIntervalSetting = newValue }
    }

    /// How long a terminal link may stay silent after a heartbeat before it counts as down, in milliseconds:
    /// the key's value, or else three intervals. Setting it sets the key.
    public var heartbeatTimeoutMs: Int {
        get { heartbeatTimeoutSetting ?? 3 * heartbeatIntervalMs }
        set { heartbeatTimeoutSetting = newValue }
    }

    /// The heartbeat interval of a bridge with `relayLanes` links, when the key is absent.
    public static func defaultHeartbeatInterval(relayLanes: Int) -> Int {
        let spread = relayLanes * heartbeatSpacingMicroseconds / 1000
        let wholeSeconds = (spread + 999) / 1000 * 1000
        return min(60_000, max(defaultHeartbeatIntervalMs, wholeSeconds))
    }

    /// The lanes with a terminal link (a cloud lane has none, so no heartbeat).
    var relayLaneCount: Int { lanes.count { $0.relayEndpoint != nil } }

    /// `heartbeatIntervalMs` as the whole-number table reads and sets it: 0 stands for absent.
    var heartbeatIntervalKey: Int {
        get { heartbeatIntervalSetting ?? 0 }
        set { heartbeatIntervalSetting = newValue }
    }

    /// `heartbeatTimeoutMs` as the whole-number table reads and sets it: 0 stands for absent.
    var heartbeatTimeoutKey: Int {
        get { heartbeatTimeoutSetting ?? 0 }
        set { heartbeatTimeoutSetting = newValue }
    }
}
