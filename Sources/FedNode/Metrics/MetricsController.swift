import Core
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /metrics`: the node's metrics in the Prometheus text exposition format, to the clients
/// `--metrics` allows (see `MetricsExposure`); anyone else gets the 404 of a missing route.
struct MetricsController {
    /// The node whose metrics are served.
    let node: Node

    /// Adds `GET /metrics`, unless `--metrics off`.
    func addRoutes(to router: Router<NodeRequestContext>) {
        guard node.configuration.metrics != .off else { return }
        router.get("metrics", use: scrape)
    }

    /// Refreshes the queue gauges (at most once a second) and renders every metric.
    @Sendable func scrape(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let peer = context.remoteAddress?.ipAddress
        guard node.configuration.metrics.permits(peer: peer, forwarded: Self.forwardedAddresses(request)) else {
            throw NodeError.notFound("Record not found")
        }
        do {
            try await node.metrics.queues.refresh(from: node.database)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // The counters are still worth serving; the gauges keep their last reading.
            context.logger.warning("cannot read queue depths for /metrics", metadata: ["error": "\(error)"])
        }
        var headers = HTTPFields()
        headers[.contentType] = NodeMetrics.contentType
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: node.metrics.exposition())))
    }

    /// The addresses a request's forwarding headers name: every `X-Forwarded-For` entry, the
    /// `X-Real-IP` value and every `for=` of `Forwarded` (RFC 7239 section 4).
    static func forwardedAddresses(_ request: Request) -> [String] {
        var addresses: [String] = []
        for name in ["X-Forwarded-For", "X-Real-IP"] {
            guard let field = HTTPField.Name(name) else { continue }
            addresses += request.headers[values: field].flatMap { $0.split(separator: ",") }.map(String.init)
        }
        if let field = HTTPField.Name("Forwarded") {
            for element in request.headers[values: field].flatMap({ $0.split(whereSeparator: { $0 == "," || $0 == ";" }) }) {
                let pair = element.trimmingCharacters(in: .whitespaces)
                if pair.lowercased().hasPrefix("for=") { addresses.append(String(pair.dropFirst(4))) }
            }
        }
        return addresses.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
