/// The bridge's version: in `ping` answers, the relay `hello` and `vivabridge --version`.
public enum BridgeVersion {
    /// `MAJOR.MINOR.PATCH`; the minor number follows the wire contract's (v1.1).
    public static let current = "1.1.0"
}
