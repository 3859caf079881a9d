/// The bridge's version: in `ping` answers, the relay `hello` and `vivabridge --version`.
public enum BridgeVersion {
    /// `MAJOR.MINOR.PATCH`; the minor number follows the wire contract's (v1.3).
    public static let current = "1.3.0"
}
