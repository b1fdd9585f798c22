import Foundation
import Storage

/// Search as Mastodon's `/api/v2/search` without a full-text index: people by handle or name
/// prefix (and, for signed-in callers who ask to resolve, by WebFinger, actor or profile URL),
/// hashtags by name prefix, and posts by `#hashtag` or by their URL (fetched from their origin
/// when resolving).
package struct SearchService: Sendable {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// One search request.
    package struct Query: Sendable {
        /// What was typed.
        package var text: String
        /// Results wanted.
        package var limit: Int = 20
        /// Results skipped.
        package var offset: Int = 0
        /// Whether unknown remote accounts may be looked up on their node (signed-in only).
        package var resolve: Bool = false
        /// Only accounts the viewer follows.
        package var following: Bool = false
        /// Only posts by this account.
        package var accountId: Int64?

        /// Each part as given.
        package init(text: String, limit: Int = 20, offset: Int = 0, resolve: Bool = false, following: Bool = false, accountId: Int64? = nil) {
            self.text = text
            self.limit = limit
            self.offset = offset
            self.resolve = resolve
            self.following = following
            self.accountId = accountId
        }
    }

    /// Accounts matching `query`, as seen by `viewer`: an exact handle or URL first, then
    /// username and display-name prefixes among discoverable or related accounts. Blocked
    /// accounts (either way) and blocked domains never appear.
    package func accounts(_ query: Query, viewer: Account?) async throws(NodeError) -> [Account] {
        let text = Self.withoutAcctScheme(query.text.trimmingCharacters(in: .whitespacesAndNewlines))
        let viewerId = viewer?.id ?? 0
        var found: [Account] = []
        if query.offset == 0, let exact = try await exactAccount(text, resolve: query.resolve && viewer != nil),
            try await node.read("search", { db in try db.accounts.isListable(exact.id, viewer: viewerId, onlyFollowed: query.following) }) {
            found.append(exact)
        }
        guard let prefix = Self.searchPrefix(text, localDomain: node.urls.domain) else { return found }
        let candidates = try await node.read("search") { db in
            try db.accounts.search(prefix: prefix, viewer: viewerId, onlyFollowed: query.following, limit: query.limit, offset: query.offset)
        }
        found += candidates.filter { candidate in !found.contains { $0.id == candidate.id } }
        return Array(found.prefix(query.limit))
    }

    /// The prefix to match names against: the text, or a handle's username when the handle is
    /// local; `nil` for URLs and remote handles, which only match exactly.
    package static func searchPrefix(_ text: String, localDomain: String) -> String? {
        if text.isEmpty || isURL(text) { return nil }
        guard let handle = AccountHandle(text) else { return text }
        return handle.domain == nil || handle.domain == localDomain ? handle.username : nil
    }

    /// Hashtags whose name starts with `query.text` (a leading `#` is ignored), exact first.
    package func hashtags(_ query: Query) async throws(NodeError) -> [Hashtag] {
        let name = Self.tagName(query.text)
        guard !name.isEmpty else { return [] }
        return try await node.read("search") { db in try db.tags.search(prefix: name, limit: query.limit, offset: query.offset) }
    }

    /// Posts `viewer` may see: those carrying the hashtag when the text is `#tag`, or the post
    /// whose id or URL the text is. Newest first.
    package func posts(_ query: Query, viewer: Account?) async throws(NodeError) -> [Post] {
        let text = query.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let match: PostSearchMatch
        if text.hasPrefix("#"), !Self.tagName(text).isEmpty {
            match = .hashtag(Self.tagName(text))
        } else if Self.isURL(text) {
            match = .url(text)
        } else {
            return []
        }
        let viewerId = viewer?.id
        let found = try await node.read("search") { db in
            try db.posts.search(match, visibleTo: viewerId, by: query.accountId, limit: query.limit, offset: query.offset)
        }
        // A post URL not known here is fetched from its origin for signed-in callers who ask,
        // then shown only if the visibility rule lets the caller see it.
        guard found.isEmpty, case .url = match, query.resolve, viewer != nil, query.offset == 0,
            case .post(let post)? = try? await RemoteLookup(node: node).find(text),
            post.reblogOfId == nil, query.accountId == nil || query.accountId == post.accountId
        else { return found }
        return try await node.read("search") { db in try db.posts.isVisible(post.id, to: viewerId) ? [post] : [] }
    }

    /// Whether typed text is a web address (matched exactly, never by prefix).
    package static func isURL(_ text: String) -> Bool { text.hasPrefix("https://") || text.hasPrefix("http://") }

    // MARK: Exact matches

    /// The account a handle or actor URL names: known here, or resolved on its node when
    /// `resolve` is set (failures just mean no exact match).
    private func exactAccount(_ text: String, resolve: Bool) async throws(NodeError) -> Account? {
        if Self.isURL(text) {
            if let known = try await node.read("search", { db in try db.accounts.find(uriOrURL: text) }) { return known }
            guard resolve, case .account(let account)? = try? await RemoteLookup(node: node).find(text) else { return nil }
            return account
        }
        guard let handle = AccountHandle(text), let domain = handle.domain else { return nil }
        let remoteDomain = domain == node.urls.domain ? nil : domain
        if let known = try await node.read("search", { db in try db.accounts.find(username: handle.username, domain: remoteDomain) }) { return known }
        guard resolve, remoteDomain != nil else { return nil }
        return try? await node.remoteAccounts.resolve(username: handle.username, domain: domain)
    }

    /// `user@domain` from `acct:user@domain` (RFC 7565), as apps and share links spell handles.
    package static func withoutAcctScheme(_ text: String) -> String {
        text.lowercased().hasPrefix("acct:") ? String(text.dropFirst(5)) : text
    }

    /// A hashtag name from typed text: without the leading `#`, trimmed.
    package static func tagName(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return String(trimmed.hasPrefix("#") ? trimmed.dropFirst() : Substring(trimmed))
    }
}
