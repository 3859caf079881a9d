import VivaCloudModels

/// Viva's two environments, each with its three hosts (Viva's tutorials overview lists them; Odoo's
/// `pos_viva_com` uses the same): accounts (the OAuth2 token), API (`/checkout/v2`, `/ecr/v1`) and the
/// older host (`/api/transactions`).
public enum VivaCloudEnvironment: String, Sendable, CaseIterable {
    /// Viva's demo (test) environment.
    case demo
    /// Viva's live environment: real money.
    case live

    /// The three base URLs of this environment.
    public var endpoints: VivaCloudEndpoints {
        switch self {
        case .demo:
            VivaCloudEndpoints(
                accounts: "https://demo-accounts.vivapayments.com", api: "https://demo-api.vivapayments.com",
                legacy: "https://demo.vivapayments.com")
        case .live:
            VivaCloudEndpoints(
                accounts: "https://accounts.vivapayments.com", api: "https://api.vivapayments.com",
                legacy: "https://www.vivapayments.com")
        }
    }
}

/// The three base URLs the client calls, with no trailing slash.
public struct VivaCloudEndpoints: Sendable, Equatable {
    /// `POST {accounts}/connect/token`.
    public var accounts: String
    /// `{api}/checkout/v2/...` and `{api}/ecr/v1/...`.
    public var api: String
    /// `{legacy}/api/transactions`.
    public var legacy: String

    /// Creates the three URLs as given (a trailing slash is dropped).
    public init(accounts: String, api: String, legacy: String) {
        self.accounts = Self.trimmed(accounts)
        self.api = Self.trimmed(api)
        self.legacy = Self.trimmed(legacy)
    }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
