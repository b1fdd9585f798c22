import Core
import Foundation
import Hummingbird
import Storage

/// Shared steps of the lists, filters, followed-tags and conversations endpoints: one read with
/// client-safe errors, and the owner-scoped record named by a path parameter.
struct CurationAccess: Sendable {
    let node: Node

    /// Runs `body` in one read; database failures become `NodeError.internal`.
    func read<T: Sendable>(_ body: @Sendable @escaping (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.read(body) } catch let error as NodeError { throw error } catch {
            throw .internal("curation read: \(error)")
        }
    }

    /// The numeric path parameter `name`.
    /// - Throws: `NodeError.notFound` when it is missing or not a number (Mastodon answers 404).
    static func pathId(_ context: NodeRequestContext, _ name: String = "id") throws(NodeError) -> Int64 {
        guard let id = context.parameters.get(name).flatMap({ Int64($0) }) else { throw .notFound("Record not found") }
        return id
    }

    /// Returns `value` or throws Mastodon's 404 for a record that is not the caller's.
    static func found<T>(_ value: T?) throws -> T {
        guard let value else { throw NodeError.notFound("Record not found") }
        return value
    }
}
