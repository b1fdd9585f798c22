import Core
import Foundation
import Hummingbird
import HummingbirdWebSocket
import ServiceLifecycle

/// One WebSocket client of `GET /api/v1/streaming` (docs.joinmastodon.org/methods/streaming/#websocket):
/// an optional first stream from `?stream=`, then `{"type":"subscribe","stream":"user"}` and
/// `{"type":"unsubscribe",...}` messages (`tag` for hashtag streams); each event is sent as
/// `{"stream":[...],"event":"...","payload":"..."}` and each bad message gets
/// `{"error":"...","status":N}`.
struct StreamingSocket: Sendable {
    let node: Node
    let hub: StreamingHub

    /// Largest client message read.
    static let maxMessageSize = 16 * 1024

    /// Decides the upgrade: a presented token must be valid and allow the first stream, if one
    /// is named. A `Sec-WebSocket-Protocol` token is echoed, as browsers require.
    /// - Throws: `NodeError`; the WebSocket layer then refuses the upgrade (HTTP 400, no body).
    func shouldUpgrade(_ request: Request) async throws -> RouterShouldUpgrade {
        let access = try await StreamingAccess.of(request, node: node)
        if let channel = try initialChannel(of: request) { try access.check(channel) }
        var headers: HTTPFields = [:]
        if let token = access.webSocketProtocol { headers[.secWebSocketProtocol] = token }
        return .upgrade(headers)
    }

    /// Runs the connection until the client closes it or the node shuts down.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, request: Request) async {
        guard let access = try? await StreamingAccess.of(request, node: node) else { return }
        let initial = (try? initialChannel(of: request)).flatMap { $0 }
        let subscription = await hub.subscribe(viewer: access.viewer, to: initial.map { [$0] } ?? [])
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await forward(subscription.outputs, to: outbound) }
            group.addTask { await listen(to: inbound, access: access, subscription: subscription.id) }
            await group.next()
            group.cancelAll()
        }
        await hub.unsubscribe(subscription.id)
    }

    /// Writes the subscription's events and replies; at shutdown, closes the socket.
    private func forward(_ outputs: AsyncStream<StreamOutput>, to outbound: WebSocketOutboundWriter) async {
        do {
            for await output in outputs.cancelOnGracefulShutdown() {
                switch output {
                case .event(let message): try await outbound.write(.text(message.webSocketText))
                case .error(let reply): try await outbound.write(.text(reply))
                case .heartbeat: continue  // WebSocket pings keep the connection alive
                }
            }
            if !Task.isCancelled { try await outbound.close(.goingAway, reason: nil) }
        } catch {
            // The connection is gone.
        }
    }

    /// Reads subscribe and unsubscribe messages until the client closes.
    private func listen(to inbound: WebSocketInboundStream, access: StreamingAccess, subscription id: Int) async {
        do {
            for try await message in inbound.messages(maxSize: Self.maxMessageSize) {
                guard case .text(let text) = message else { continue }
                await handle(text, access: access, subscription: id)
            }
        } catch {
            // Closed or broken; the task group ends the connection.
        }
    }

    private func handle(_ text: String, access: StreamingAccess, subscription id: Int) async {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
            let type = object["type"] as? String, type == "subscribe" || type == "unsubscribe"
        else {
            await hub.reply(StreamMessage.webSocketError("Unknown message type"), to: id)
            return
        }
        do throws(NodeError) {
            // The list id arrives as a string or, from some clients, as a number.
            let list = (object["list"] as? String) ?? (object["list"] as? NSNumber).map { $0.stringValue }
            let channel = try StreamChannel.named(object["stream"] as? String, tag: object["tag"] as? String, list: list)
            if type == "subscribe" {
                try access.check(channel)
                await hub.add(channel, to: id)
            } else {
                await hub.remove(channel, from: id)
            }
        } catch {
            await hub.reply(StreamMessage.webSocketError(error.message, status: Int(error.status.code)), to: id)
        }
    }

    private func initialChannel(of request: Request) throws(NodeError) -> StreamChannel? {
        let query = request.uri.queryParameters
        guard let name = query["stream"].map(String.init), !name.isEmpty else { return nil }
        return try StreamChannel.named(name, tag: query["tag"].map(String.init), list: query["list"].map(String.init))
    }
}
