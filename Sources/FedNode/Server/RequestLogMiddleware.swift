import Core
import Foundation
import Hummingbird
import HummingbirdCore
import Logging

/// Logs one line per request with its method, path, status and duration, so an admin can see
/// what remote servers and apps asked for and what they got.
///
/// Successes and redirects log at `debug` (a busy node answers thousands of inbox posts and
/// timeline reads); client errors at `info`, with the `User-Agent`, because a 401 on the inbox
/// or a 404 on WebFinger is usually the first sign of a federation problem; server errors at
/// `warning`. The query string keeps only parameters that carry no secret: OAuth codes, tokens
/// and passwords are replaced by `[redacted]`.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Query parameter names whose values never reach the log (Mastodon clients send
    /// `access_token` in the query for streaming, OAuth sends `code` and secrets).
    static var secretParameters: Set<String> {
        ["access_token", "token", "code", "client_secret", "refresh_token", "password", "secret", "state"]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, since: start, logger: context.logger)
            return response
        } catch {
            // Only errors the error middleware lets through arrive here (it sits inside this one);
            // Hummingbird answers them with their own status or a 500.
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, status: status, since: start, logger: context.logger)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, since start: ContinuousClock.Instant, logger: Logger) {
        let elapsed = ContinuousClock.now - start
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "path": "\(Self.loggablePath(request.uri))",
            "status": "\(status)",
            "durationMs": "\(Self.milliseconds(elapsed))",
        ]
        if status >= 400, let agent = request.headers[.userAgent] { metadata["userAgent"] = "\(agent.prefix(120))" }
        logger.log(level: Self.level(forStatus: status), "request", metadata: metadata)
    }

    /// The level a request answered with `status` logs at.
    static func level(forStatus status: Int) -> Logger.Level {
        switch status {
        case 500...: .warning
        case 400..<500: .info
        default: .debug
        }
    }

    /// The path and the query, with the values of secret parameters replaced.
    static func loggablePath(_ uri: URI) -> String {
        guard let query = uri.query, !query.isEmpty else { return uri.path }
        let parts = query.split(separator: "&", omittingEmptySubsequences: true).map { part -> String in
            let name = part.split(separator: "=", maxSplits: 1).first.map(String.init) ?? String(part)
            let decoded = (name.removingPercentEncoding ?? name).lowercased()
            // `access_token`, `client_secret` and array forms such as `token[]` all count.
            let bare = decoded.hasSuffix("[]") ? String(decoded.dropLast(2)) : decoded
            return secretParameters.contains(bare) ? "\(name)=[redacted]" : String(part)
        }
        return uri.path + "?" + parts.joined(separator: "&")
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return "\(micros / 1000).\(String(micros % 1000 / 100))"
    }
}
