/// Why a call to Viva's cloud, or the client's settings, failed: a code to act on and a message for a person.
///
/// The message never holds a secret, a token or an `Authorization` header: it names files, keys, calls and
/// HTTP statuses only.
public struct VivaCloudError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Code: String, Sendable, Equatable {
        /// A setting is missing or invalid (a URL, the environment, a value out of range).
        case invalidSettings = "invalid_settings"
        /// A secret file is missing, unreadable, empty or readable by group or others.
        case secretFile = "secret_file"
        /// A plain `http://` URL to a host that is not a loopback address.
        case insecureURL = "insecure_url"
        /// Viva refused the credentials (401 on the token call, or again after a fresh token).
        case unauthorized
        /// Viva refused the request itself (4xx other than 401, 404 and 429).
        case rejected
        /// What was asked for does not exist at Viva (404).
        case notFound = "not_found"
        /// Viva kept answering 429 through every attempt.
        case rateLimited = "rate_limited"
        /// Viva kept answering 5xx through every attempt (or once, on a call that is never repeated blindly).
        case serverError = "server_error"
        /// No answer in time.
        case timeout
        /// The connection failed (name resolution, refused, TLS).
        case unreachable
        /// Viva answered something this client cannot read.
        case invalidResponse = "invalid_response"
        /// The client was shut down.
        case shutDown = "shut_down"
    }

    /// What kind of failure it is.
    public var code: Code
    /// What happened and what to do, for a person.
    public var message: String
    /// The HTTP status Viva answered, when it answered.
    public var httpStatus: Int?

    /// Creates an error.
    public init(_ code: Code, _ message: String, httpStatus: Int? = nil) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
