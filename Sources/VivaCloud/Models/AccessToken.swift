/// The answer of `POST /connect/token` (OAuth2 client credentials).
struct AccessTokenResponse: Decodable, Sendable {
    var accessToken: String
    /// Seconds the token lives.
    var expiresIn: Int?
    var tokenType: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
    }
}
