/// One simulated terminal: a relay bound at an endpoint, with the app of one platform behind it.
public struct SimulatedLane: Sendable {
    /// The lane id, as in the bridge's configuration (`lane-1`).
    public var id: String
    /// Where the relay binds: `tcp://127.0.0.1:*` picks a free port, `tcp://127.0.0.1:6001` a fixed one.
    public var endpoint: String
    /// The app's platform, which decides the callback dialect.
    public var platform: SimulatorPlatform
    /// How the lane behaves; changeable later with ``Simulator/setBehaviour(_:lane:)``.
    public var behaviour: LaneBehaviour
    /// The socket the relay binds.
    public var socket: RelaySocketKind
    /// The relay's CURVE secret key (Z85): it then serves as a CURVE server with that key, and only a
    /// bridge that pinned the matching public key comes up. Nil: a plain relay.
    public var curveSecretKey: String?

    /// Creates a lane description.
    public init(
        id: String,
        endpoint: String = "tcp://127.0.0.1:*",
        platform: SimulatorPlatform,
        behaviour: LaneBehaviour = LaneBehaviour(),
        socket: RelaySocketKind = .router
    ) {
        self.id = id
        self.endpoint = endpoint
        self.platform = platform
        self.behaviour = behaviour
        self.socket = socket
    }
}
