import Core
import Foundation
import HTTPTypes
import Hummingbird

extension RateLimitWindow {
    /// The `X-RateLimit-*` headers (and `Retry-After` for a refusal that names one).
    var headers: HTTPFields {
        var fields: HTTPFields = [
            .rateLimitLimit: String(limit),
            .rateLimitRemaining: String(remaining),
            .rateLimitReset: Timestamps.iso8601(reset),
        ]
        if let retryAfter { fields[.retryAfter] = String(retryAfter) }
        return fields
    }
}

extension RateLimitExceeded: HTTPResponseError {
    /// The headers describing the full window.
    public var headers: HTTPFields { window.headers }
    /// 429.
    public var status: HTTPResponse.Status { .tooManyRequests }

    /// The JSON error response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.bytes(Data(#"{"error":"Too many requests"}"#.utf8), contentType: JSONResponse.json, status: status, headers: headers)
    }
}

extension HTTPField.Name {
    /// `X-RateLimit-Limit`.
    static var rateLimitLimit: Self { .init("X-RateLimit-Limit")! }
    /// `X-RateLimit-Remaining`.
    static var rateLimitRemaining: Self { .init("X-RateLimit-Remaining")! }
    /// `X-RateLimit-Reset`.
    static var rateLimitReset: Self { .init("X-RateLimit-Reset")! }
}
