import Core
import Hummingbird

extension ValidationFailure: HTTPResponseError {
    /// 422.
    public var status: HTTPResponse.Status { .unprocessableContent }

    /// The JSON response.
    public func response(from request: Request, context: some RequestContext) throws -> Response { response() }

    /// The JSON response.
    func response() -> Response {
        struct Body: Encodable {
            var error: String
            var details: [String: [Detail]]
        }
        let grouped = Dictionary(grouping: details, by: \.field).mapValues { $0.map(\.detail) }
        return JSONResponse.encode(Body(error: message, details: grouped), status: status)
    }
}
