import Core
import Foundation
import Hummingbird
import Storage

/// Authentication for the admin API: a user token with the admin scope asked for, held by a
/// staff member of at least the role asked for.
struct StaffAccess: Sendable {
    let node: Node

    /// The staff member calling `request`.
    /// - Parameters:
    ///   - scope: The admin scope the endpoint needs (`admin:read:reports`, ...).
    ///   - minimum: The least role allowed (moderators handle reports and accounts, admins
    ///     domain blocks too).
    /// - Throws: 401 without a valid token, 403 without the scope or the role.
    func staff(of request: Request, scope: String, minimum: StaffRole = .moderator) async throws(NodeError) -> (Account, StaffRole) {
        let (_, account) = try await node.apiAuth.user(of: request, scope: scope)
        let role = try await read { db in try db.moderation.role(of: account.id) }
        guard role >= minimum else { throw .forbidden("This action is not allowed") }
        return (account, role)
    }

    /// Runs `body` in a read transaction; failures other than `NodeError` become 500s.
    func read<T: Sendable>(_ body: @Sendable @escaping (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.read(body) } catch let error as NodeError { throw error } catch {
            throw .internal("moderation read: \(error)")
        }
    }

    /// Runs `body` in a write transaction; failures other than `NodeError` become 500s.
    func write<T: Sendable>(_ body: @Sendable @escaping (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.write(body) } catch let error as NodeError { throw error } catch {
            throw .internal("moderation write: \(error)")
        }
    }

    /// The path parameter `id` as a record id.
    /// - Throws: 404 when it is not one.
    static func id(_ context: NodeRequestContext) throws(NodeError) -> Int64 {
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { throw .notFound("Record not found") }
        return id
    }
}
