import Core
import Hummingbird
import Storage

/// Who is streaming and which streams they may open, with the errors of Mastodon's streaming
/// server. The token comes from `Authorization: Bearer`, the `access_token` query parameter,
/// or `Sec-WebSocket-Protocol` (browsers cannot set headers on a WebSocket).
struct StreamingAccess: Sendable {
    /// The token's caller; `nil` when no token was presented.
    let caller: APICaller?
    /// The token taken from `Sec-WebSocket-Protocol`, echoed back when upgrading.
    let webSocketProtocol: String?

    /// The account streaming, if any.
    var viewer: Account? { caller?.account }

    /// Resolves the token of `request`.
    /// - Throws: `NodeError.unauthorized` for a token that is present but invalid.
    static func of(_ request: Request, node: Node) async throws(NodeError) -> StreamingAccess {
        let protocolToken = request.headers[.secWebSocketProtocol]
            .flatMap { $0.split(separator: ",").first }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .flatMap { $0.isEmpty ? nil : $0 }
        guard let token = APIAuth.bearerToken(of: request) ?? protocolToken else {
            return StreamingAccess(caller: nil, webSocketProtocol: nil)
        }
        return StreamingAccess(caller: try await node.apiAuth.caller(token: token), webSocketProtocol: protocolToken)
    }

    /// Checks that this caller may subscribe to `channel`: personal streams need a user token;
    /// a token must carry `read:statuses` (or `read:notifications` for `user:notification`);
    /// public streams may be watched anonymously.
    /// - Throws: `NodeError.unauthorized` (401, as Mastodon's streaming server answers) or
    ///   `.validation` (422) for an app-only token on a personal stream.
    func check(_ channel: StreamChannel) throws(NodeError) {
        guard let caller else {
            if channel.isPersonal { throw .unauthorized("Missing access token") }
            return
        }
        guard caller.scopes.allows(channel.requiredScope) else {
            throw .unauthorized("Access token does not have the required scopes")
        }
        if channel.isPersonal { _ = try caller.user() }
    }
}

extension StreamChannel {
    /// The stream named by `stream` (and `tag`) in a query or a WebSocket message.
    /// - Throws: `NodeError.badRequest` with Mastodon's messages.
    static func named(_ name: String?, tag: String?, list: String? = nil) throws(NodeError) -> StreamChannel {
        guard let name, !name.isEmpty else { throw .badRequest("Unknown stream type") }
        guard let channel = StreamChannel(name: name, tag: tag, list: list) else {
            if name == "hashtag" || name == "hashtag:local" { throw .badRequest("No tag for stream provided") }
            if name == "list" { throw .badRequest("No list for stream provided") }
            throw .badRequest("Unknown stream type")
        }
        return channel
    }
}
