import ZeroMQ

/// A client's CURVE set-up for a bridge with `security`: its own key pair and the bridge's public key.
public struct ClientCurve: Sendable, Equatable {
    /// The client's key pair; its public key is on the bridge's allow-list.
    public let keys: CurveKeyPair
    /// The bridge's public key (Z85), which the client pins.
    public let serverKey: String

    /// Creates the set-up from a key pair and the bridge's public key.
    public init(keys: CurveKeyPair, serverKey: String) {
        self.keys = keys
        self.serverKey = serverKey
    }

    /// Makes `socket` a CURVE client of the bridge; call before `connect`.
    public func apply(to socket: Socket) throws(ZMQError) {
        try socket.setCurveServerKey(serverKey)
        try socket.setCurvePublicKey(keys.publicKey)
        try socket.setCurveSecretKey(keys.secretKey)
    }
}
