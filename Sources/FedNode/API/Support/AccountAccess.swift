import Core
import Foundation
import Hummingbird
import Storage

/// What the account, relationship and search controllers share: the optional viewer of a
/// public endpoint, reads that surface only `NodeError`s, the account named by `:id`, and pages
/// of accounts ordered by the id of the row that relates them (follow, block), as Mastodon
/// paginates these lists.
struct AccountAccess: Sendable {
    let node: Node

    /// The viewer of an endpoint that also works anonymously. A token, when present, must be
    /// valid (401) and carry `scope` (403), as Mastodon's `authorize_if_got_token!`.
    func viewer(of request: Request, scope: String) async throws(NodeError) -> Account? {
        guard let caller = try await node.apiAuth.caller(of: request) else { return nil }
        try caller.require(scope)
        return caller.account
    }

    /// Runs `body` in a read transaction; database failures become `NodeError.internal`.
    func read<T: Sendable>(_ body: @Sendable @escaping (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.read(body) } catch let error as NodeError { throw error } catch {
            throw .internal("accounts read: \(error)")
        }
    }

    /// The account whose id is the path parameter `id`.
    /// - Throws: `NodeError.notFound` for a malformed or unknown id.
    func account(_ context: NodeRequestContext) async throws(NodeError) -> Account {
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { throw .notFound("Record not found") }
        return try await account(id: id)
    }

    /// The account `id`; a sign-up still waiting for approval is not one yet (as Mastodon
    /// answers, and as its actor is not served).
    /// - Throws: `NodeError.notFound` when there is none.
    func account(id: Int64) async throws(NodeError) -> Account {
        let found = try await read { db -> Account? in
            guard let account = try db.accounts.find(id: id), try Self.isShown(account, in: db) else { return nil }
            return account
        }
        guard let found else { throw .notFound("Record not found") }
        return found
    }

    /// Whether the client API shows `account` at all: not while its sign-up waits for approval.
    static func isShown(_ account: Account, in db: Transaction) throws -> Bool {
        try !db.registrations.isPending(account.id)
    }

    /// A page of accounts read by `relation` (a follow, request or block list, newest relation
    /// first, each with the relation row's id), rendered for `viewer`, as a response with its
    /// `Link` header.
    func accountPage(
        _ request: Request, viewer: Account?, relation: @Sendable @escaping (Transaction, PageBounds) throws -> [PageItem<Account>]
    ) async throws(NodeError) -> Response {
        let params = try await APIParams.read(request)
        let page = try PageQuery(params, defaultLimit: 40, maxLimit: 80).bounds
        let (entities, ids) = try await read { db -> ([APIAccount], [Int64]) in
            let ordered = try relation(db, page)
            let entities = try EntityRenderer(node: node, viewer: viewer, db: db).accounts(ordered.map(\.item))
            return (entities, ordered.map(\.cursor))
        }
        return APIResponse.json(entities, headers: PageQuery.headers(for: request, base: node.urls.base, ids: ids))
    }
}
