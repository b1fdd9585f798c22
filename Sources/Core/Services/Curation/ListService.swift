import Foundation
import Storage

/// The lists a person keeps of accounts they follow: private, never federated.
package struct ListService: Sendable {
    /// The replies policies Mastodon knows.
    package static let repliesPolicies: Set<String> = ["followed", "list", "none"]
    /// The longest title, in characters.
    package static let maxTitle = 256

    /// What a create or an update sets; `nil` leaves a part as it is.
    package struct Changes: Sendable {
        /// The title (required to create).
        package var title: String?
        /// Which replies the list's timeline shows: one of `repliesPolicies`.
        package var repliesPolicy: String?
        /// Whether members' posts leave the home timeline.
        package var exclusive: Bool?

        /// Changes of the parts given.
        package init(title: String? = nil, repliesPolicy: String? = nil, exclusive: Bool? = nil) {
            self.title = title
            self.repliesPolicy = repliesPolicy
            self.exclusive = exclusive
        }
    }

    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Creates a list of `owner`'s.
    /// - Throws: `NodeError.validation` for a missing, blank or over-long title, or an unknown
    ///   replies policy.
    package func create(_ changes: Changes, by owner: Account) async throws(NodeError) -> UserList {
        guard changes.title != nil else { throw .validation("Validation failed: Title can't be blank") }
        var list = UserList(accountId: owner.id, title: "")
        try Self.apply(changes, to: &list)
        let saved = list
        try await node.write("list") { db in try db.lists.save(saved) }
        return saved
    }

    /// Changes the parts given of `owner`'s list `id`.
    /// - Throws: `NodeError.notFound` for a list that is not `owner`'s; `.validation` as `create`.
    package func update(_ id: Int64, _ changes: Changes, by owner: Account) async throws(NodeError) -> UserList {
        try await node.write("list") { db -> UserList in
            var list = try Self.owned(id, by: owner, in: db)
            try Self.apply(changes, to: &list)
            try db.lists.save(list)
            return list
        }
    }

    /// Deletes `owner`'s list `id`.
    /// - Throws: `NodeError.notFound` for a list that is not `owner`'s.
    package func delete(_ id: Int64, by owner: Account) async throws(NodeError) {
        try await node.write("list") { db in try db.lists.delete(try Self.owned(id, by: owner, in: db)) }
    }

    /// Adds accounts `owner` follows to their list `id`, all or none.
    /// - Throws: `NodeError.notFound` for a list that is not `owner`'s or an unknown account;
    ///   `.validation` for an account `owner` does not follow.
    package func add(_ accountIds: [Int64], to id: Int64, by owner: Account) async throws(NodeError) {
        try await node.write("list") { db in
            let list = try Self.owned(id, by: owner, in: db)
            for accountId in accountIds where try !db.follows.isAccepted(follower: owner.id, target: accountId) {
                guard try db.accounts.find(id: accountId) != nil else { throw NodeError.notFound("Record not found") }
                throw NodeError.validation("Validation failed: Account has not been followed")
            }
            try db.lists.add(accountIds, to: list.id)
        }
    }

    /// Removes accounts from `owner`'s list `id`.
    /// - Throws: `NodeError.notFound` for a list that is not `owner`'s.
    package func remove(_ accountIds: [Int64], from id: Int64, by owner: Account) async throws(NodeError) {
        try await node.write("list") { db in
            let list = try Self.owned(id, by: owner, in: db)
            try db.lists.remove(accountIds, from: list.id)
        }
    }

    /// `owner`'s list `id`.
    /// - Throws: `NodeError.notFound` when there is none (Mastodon answers 404 for another's).
    package static func owned(_ id: Int64, by owner: Account, in db: Transaction) throws -> UserList {
        guard let list = try db.lists.find(id: id, owner: owner.id) else { throw NodeError.notFound("Record not found") }
        return list
    }

    private static func apply(_ changes: Changes, to list: inout UserList) throws(NodeError) {
        if let raw = changes.title {
            let title = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !title.isEmpty else { throw .validation("Validation failed: Title can't be blank") }
            guard title.count <= maxTitle else { throw .validation("Validation failed: Title is too long") }
            list.title = title
        }
        if let policy = changes.repliesPolicy {
            guard repliesPolicies.contains(policy) else { throw .validation("Validation failed: Replies policy is not included in the list") }
            list.repliesPolicy = policy
        }
        if let exclusive = changes.exclusive { list.exclusive = exclusive }
    }
}
