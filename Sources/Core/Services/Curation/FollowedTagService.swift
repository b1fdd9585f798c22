import Storage

/// Following hashtags: posts with a followed tag reach the follower's home timeline.
package struct FollowedTagService: Sendable {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Follows or unfollows the hashtag `name` (created when never used here) for `account`.
    /// - Parameter name: The name as given, with or without `#`.
    /// - Returns: The hashtag.
    /// - Throws: `NodeError.notFound` for a name that cannot be a hashtag.
    package func setFollowing(_ following: Bool, name: String, by account: Account) async throws(NodeError) -> Hashtag {
        let name = SearchService.tagName(name)
        guard Self.isHashtagName(name) else { throw .notFound("Record not found") }
        return try await node.write("followed tag") { db -> Hashtag in
            let hashtag = try db.followedTags.hashtag(named: name)
            if following { try db.followedTags.follow(hashtag, by: account.id) } else { try db.followedTags.unfollow(hashtag, by: account.id) }
            return hashtag
        }
    }

    /// Whether `name` can be a hashtag: 1 to 100 letters, digits and underscores, not all digits.
    package static func isHashtagName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            && !name.allSatisfy(\.isNumber)
    }
}
