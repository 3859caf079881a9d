/// How the simulated app writes the values of its callback URLs.
public enum CallbackEncoding: Sendable {
    /// As the real apps do: raw `+` in dates, `%20` in iOS messages, raw spaces in Android messages, and the
    /// documented raw-space quirks (`amount=1200 &cardType=`, `& accountNumber=`, `tid= 16016684`).
    case realistic
    /// Every value percent-encoded (RFC 3986 unreserved characters stay), with no stray spaces.
    case clean
}
