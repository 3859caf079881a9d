/// The answer of `POST /connect/token` (OAuth2 client credentials).
package struct AccessTokenResponse: Decodable, Sendable {
    package var accessToken: String
    /// Seconds the token lives.
    package var expiresIn: Int?
    var tokenType: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
    }
}
