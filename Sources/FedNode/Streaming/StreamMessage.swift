import Core
import Foundation

/// One event for one subscriber, already rendered for its viewer
/// (docs.joinmastodon.org/methods/streaming/#events).
public struct StreamMessage: Sendable, Equatable {
    /// The stream it belongs to, e.g. `["user"]` or `["hashtag", "cats"]`.
    public var stream: [String]
    /// `update`, `status.update`, `delete` or `notification`.
    public var event: String
    /// The entity as a JSON string, or the bare id for `delete`.
    public var payload: String

    /// Creates a message.
    public init(stream: [String], event: String, payload: String) {
        self.stream = stream
        self.event = event
        self.payload = payload
    }

    /// The WebSocket text frame: `{"stream":[...],"event":"...","payload":"..."}`, the payload
    /// being a string even when it holds JSON, as Mastodon sends it.
    public var webSocketText: String { Self.json(Frame(stream: stream, event: event, payload: payload)) }

    /// The server-sent event: `event: NAME` and one `data:` line (JSON has no raw newlines).
    public var serverSentText: String {
        let lines = payload.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined()
        return "event: \(event)\n\(lines)\n"
    }

    /// A WebSocket error reply, `{"error":"...","status":400}`, as Mastodon answers bad
    /// subscribe messages.
    public static func webSocketError(_ message: String, status: Int = 400) -> String {
        json(ErrorFrame(error: message, status: status))
    }

    private struct Frame: Encodable {
        let stream: [String]
        let event: String
        let payload: String
    }

    private struct ErrorFrame: Encodable {
        let error: String
        let status: Int
    }

    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Strings and arrays of strings always encode.
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// What a subscription yields: events, replies to the client's own messages, and keep-alives.
public enum StreamOutput: Sendable, Equatable {
    /// An event on one of the subscribed streams.
    case event(StreamMessage)
    /// A WebSocket error reply (ignored by server-sent event streams).
    case error(String)
    /// Nothing happened for a while; SSE writes a `:thump` comment so proxies keep the line.
    case heartbeat
}
