import Core
import Foundation
import Hummingbird
import Storage

/// Shared steps of the status, media and timeline endpoints: database reads with errors kept
/// client-safe, optional authentication with a scope, and looking up a post the viewer may see.
enum StatusAccess {
    /// Runs `body` in one read, mapping database failures to `NodeError.internal`.
    static func read<T: Sendable>(_ node: Node, _ body: @Sendable (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.read(body) } catch let error as NodeError { throw error } catch {
            throw .internal("status read: \(error)")
        }
    }

    /// The viewer of an endpoint that also works anonymously: `nil` without a token; with one,
    /// the token must be valid (401) and carry `scope` (403), as Mastodon's `authorize_if_got_token!`.
    static func viewer(of request: Request, node: Node, scope: String) async throws(NodeError) -> Account? {
        guard let caller = try await node.apiAuth.caller(of: request) else { return nil }
        try caller.require(scope)
        return caller.account
    }

    /// The id in the `id` path parameter.
    /// - Throws: `NodeError.notFound` when it is missing or not a number.
    static func pathId(_ context: NodeRequestContext) throws(NodeError) -> Int64 {
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { throw .notFound("Record not found") }
        return id
    }

    /// `post` rendered for `viewer` as a 200 response.
    static func render(_ node: Node, _ post: Post, viewer: Account?) async throws(NodeError) -> Response {
        APIResponse.json(try await read(node) { try EntityRenderer(node: node, viewer: viewer, db: $0).status(post) })
    }
}
