import Core
import Hummingbird
import Logging

/// Turns every error into a JSON error response: `NodeError` and Hummingbird's `HTTPError`
/// keep their status; anything else is a bug, answered with a bare 500 and logged.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as NodeError {
            if case .internal(let detail) = error {
                context.logger.error("internal error", metadata: ["error": "\(detail)", "path": "\(request.uri.path)"])
            }
            return JSONResponse.error(status: error.status, message: error.message)
        } catch let error as HTTPError {
            return JSONResponse.error(status: error.status, message: error.body ?? Self.reason(error.status))
        } catch let error as RateLimitExceeded {
            return try error.response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            return JSONResponse.error(status: error.status, message: Self.reason(error.status))
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return JSONResponse.error(status: .internalServerError, message: "Internal server error")
        }
    }

    private static func reason(_ status: HTTPResponse.Status) -> String {
        switch status {
        // Only the router throws a bare 404 (no route matched); a missing record is a
        // `NodeError.notFound` with its own message.
        case .notFound: "Not found"
        case .contentTooLarge: "Request body too large"
        case .methodNotAllowed: "Method not allowed"
        default: status.reasonPhrase
        }
    }
}
