import GRDB
import Foundation

/// An account mentioned in a post (addressed to it, notified of it).
public struct PostMention: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "mentions"
    /// The mentioning post.
    public var postId: Int64
    /// The mentioned account.
    public var accountId: Int64

    /// Creates a mention row.
    public init(postId: Int64, accountId: Int64) {
        self.postId = postId
        self.accountId = accountId
    }
}

/// What a post's rendering shows of an account it mentions: its handle and links, without the
/// rest of the account's row (a page of twenty posts may mention dozens).
public struct MentionedAccount: Sendable, Equatable {
    /// The account's id.
    public var id: Int64
    /// Local part of the handle.
    public var username: String
    /// Host of the account's node; `nil` for local accounts.
    public var domain: String?
    /// ActivityPub actor id.
    public var uri: String
    /// Profile page URL.
    public var url: String?

    /// The handle as Mastodon's `acct`: `username` on this node, `username@domain` otherwise.
    public var acct: String { Account.acct(username: username, domain: domain) }

    /// Creates the mention's view of an account.
    public init(id: Int64, username: String, domain: String?, uri: String, url: String?) {
        (self.id, self.username, self.domain, self.uri, self.url) = (id, username, domain, uri, url)
    }

    /// The columns `init(row:startingAt:)` reads, in order, for accounts aliased `a`.
    static let columns = "a.id, a.username, a.domain, a.uri, a.url"

    /// Decodes `columns` starting at column `index` of `row`.
    init(row: Row, startingAt index: Int) {
        self.init(id: row[index], username: row[index + 1], domain: row[index + 2], uri: row[index + 3], url: row[index + 4])
    }
}

extension PostMention {
    /// The `mentions` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["post_id"] = postId
        container["account_id"] = accountId
    }
}
