import Core
import Storage
import Hummingbird

/// Times every request into `fednode_http_request_duration_seconds`, labelled with the route
/// pattern the router matched (never the raw path, whose ids and names would make a series per
/// account or post) and the status class. It sits outside the error middleware, so errors are
/// counted with the status they were answered with.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Where durations go.
    let metrics: HTTPMetrics

    /// Times `next` and records the outcome, also when it throws.
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let tally = StatementTally()
        do {
            let response = try await StatementTally.$current.withValue(tally) { try await next(request, context) }
            record(request, context: context, status: response.status.code, since: start, tally: tally)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(request, context: context, status: status, since: start, tally: tally)
            throw error
        }
    }

    private func record(_ request: Request, context: Context, status: Int, since start: ContinuousClock.Instant, tally: StatementTally) {
        let route = context.endpointPath ?? "NotFound"
        metrics.record(route: route, method: request.method.rawValue, status: status, elapsed: ContinuousClock.now - start)
        metrics.recordStatements(route: route, method: request.method.rawValue, statements: tally.count)
    }
}
