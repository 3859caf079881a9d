import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import VivaCloudModels

/// One call's request, before authorisation.
struct VivaCloudCall: Sendable {
    /// The call's name in logs, errors and metrics (`listTransactions`).
    var name: String
    var method: HTTPMethod
    var url: String
    var contentType: String?
    var body: [UInt8]?
    /// Whether a 5xx, a timeout or a failed connection may be answered by sending the call again: false for a
    /// call that may have taken money (a sale), which the caller must check before posting again.
    var repeatable: Bool
}

/// An answer from Viva: its status, headers and whole body.
struct VivaCloudAnswer: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
}

/// Sends calls over AsyncHTTPClient (on its own event loops): the rate bound, the timeout, and backoff on
/// 429 and 5xx honouring `Retry-After`. It never logs a header or a body.
struct VivaCloudTransport: Sendable {
    let http: HTTPClient
    let settings: VivaCloudSettings
    let limiter: RequestRateLimiter
    let logger: Logger
    let observer: VivaCloudObserver?

    /// The largest body read from Viva.
    static let maxBody = 8 << 20

    /// Sends `call` with `authorization` (a whole `Authorization` value, or nil), repeating it on 429 (and,
    /// when `repeatable`, on 5xx and failed exchanges) up to `maxAttempts` times; returns the first other
    /// answer. Throws `rateLimited`, `serverError`, `timeout` or `unreachable` when the attempts run out.
    func send(_ call: VivaCloudCall, authorization: String?) async throws(VivaCloudError) -> VivaCloudAnswer {
        var attempt = 1
        while true {
            let failure: VivaCloudError
            var retryAfter: Duration?
            do {
                let answer = try await exchange(call, authorization: authorization, attempt: attempt)
                switch answer.status {
                case 429:
                    failure = VivaCloudError(
                        .rateLimited, "\(call.name): Viva answered 429 (too many requests) \(attempt) time(s)",
                        httpStatus: 429)
                    retryAfter = RetryAfter.delay(answer.headers.first(name: "Retry-After"))
                case 500...599 where call.repeatable:
                    failure = VivaCloudError(
                        .serverError,
                        "\(call.name): Viva answered \(answer.status) \(attempt) time(s); try again later",
                        httpStatus: answer.status)
                    retryAfter = RetryAfter.delay(answer.headers.first(name: "Retry-After"))
                default:
                    return answer
                }
            } catch {
                guard call.repeatable, error.code == .timeout || error.code == .unreachable else { throw error }
                failure = error
            }
            guard attempt < settings.maxAttempts else { throw failure }
            let wait = min(settings.maxBackoff, retryAfter ?? settings.initialBackoff * (1 << (attempt - 1)))
            logger.warning(
                "viva cloud call will be sent again",
                metadata: [
                    "call": "\(call.name)", "attempt": "\(attempt)", "code": "\(failure.code.rawValue)",
                    "waitMs": "\(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)",
                ])
            do {
                try await Task.sleep(for: wait)
            } catch {
                throw VivaCloudError(.shutDown, "\(call.name): cancelled while waiting to send it again")
            }
            attempt += 1
        }
    }

    /// One HTTP exchange, within the rate bound and the timeout.
    private func exchange(_ call: VivaCloudCall, authorization: String?, attempt: Int) async throws(VivaCloudError)
        -> VivaCloudAnswer
    {
        do {
            try await limiter.acquire()
        } catch {
            throw VivaCloudError(.shutDown, "\(call.name): cancelled while waiting for the request rate bound")
        }
        var request = HTTPClientRequest(url: call.url)
        request.method = call.method
        request.headers.add(name: "Accept", value: "application/json")
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        if let contentType = call.contentType { request.headers.add(name: "Content-Type", value: contentType) }
        if let body = call.body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let clock = ContinuousClock()
        let started = clock.now
        let timeout = TimeAmount.nanoseconds(
            settings.timeout.components.seconds * 1_000_000_000 + settings.timeout.components.attoseconds
                / 1_000_000_000)
        do {
            let response = try await http.execute(request, deadline: .now() + timeout, logger: nil)
            let body = try await response.body.collect(upTo: Self.maxBody)
            let status = Int(response.status.code)
            observer?(
                VivaCloudExchange(
                    call: call.name, httpStatus: status, attempt: attempt, duration: started.duration(to: clock.now)))
            logger.debug(
                "viva cloud call answered",
                metadata: ["call": "\(call.name)", "status": "\(status)", "attempt": "\(attempt)"])
            return VivaCloudAnswer(status: status, headers: response.headers, body: Array(buffer: body))
        } catch {
            observer?(
                VivaCloudExchange(
                    call: call.name, httpStatus: nil, attempt: attempt, duration: started.duration(to: clock.now)))
            let failure = Self.failure(error, call: call, host: URLComponents(string: call.url)?.host ?? "?")
            logger.debug(
                "viva cloud call failed",
                metadata: ["call": "\(call.name)", "code": "\(failure.code.rawValue)", "attempt": "\(attempt)"])
            throw failure
        }
    }

    /// The error of an exchange that got no answer; it names the call and the host, never a header.
    static func failure(_ error: any Error, call: VivaCloudCall, host: String) -> VivaCloudError {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return VivaCloudError(.timeout, "\(call.name): no answer from \(host) in time")
            case .alreadyShutdown:
                return VivaCloudError(.shutDown, "\(call.name): the client was shut down")
            case .cancelled:
                return VivaCloudError(.shutDown, "\(call.name): cancelled")
            default:
                break
            }
        }
        if error is NIOTooManyBytesError {
            return VivaCloudError(
                .invalidResponse, "\(call.name): the answer from \(host) is larger than \(maxBody) bytes")
        }
        if error is CancellationError { return VivaCloudError(.shutDown, "\(call.name): cancelled") }
        return VivaCloudError(
            .unreachable,
            "\(call.name): cannot reach \(host) (\(String(describing: error).prefix(200))); check the URL, the network and TLS"
        )
    }
}
