import Core
import Hummingbird

extension NodeError: HTTPResponseError {
    /// The HTTP status for this error.
    public var status: HTTPResponse.Status {
        switch self {
        case .badRequest: .badRequest
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .notAcceptable: .notAcceptable
        case .gone: .gone
        case .payloadTooLarge: .contentTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .validation: .unprocessableContent
        case .tooManyRequests: .tooManyRequests
        case .unavailable: .serviceUnavailable
        case .internal, .configuration: .internalServerError
        }
    }

    /// The `{"error": "..."}` response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONResponse.error(status: status, message: message)
        if case .unavailable = self { response.headers[.retryAfter] = "60" }
        return response
    }
}
