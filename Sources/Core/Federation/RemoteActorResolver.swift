import Activity
import Foundation
import Storage

/// Finds remote accounts: from the database when fresh, otherwise fetched from their origin
/// (by actor id, or by `user@domain` through WebFinger) and stored.
public struct RemoteActorResolver: Sendable {
    /// How long a stored remote profile is used before it is fetched again.
    package static let maxAge: TimeInterval = 24 * 3600
    package let node: Node

    /// The account for actor id `uri`, fetching it when unknown, stale or `refresh` is set.
    /// Actors on blocked domains are never fetched.
    /// - Throws: `NodeError` when it cannot be fetched or is not an actor (`.internal` when the
    ///   origin failed in a way worth retrying).
    public func resolve(uri: String, refresh: Bool = false, now: Date = Date()) async throws(NodeError) -> Account {
        if let local = try await localAccount(uri: uri) { return local }
        let stored = try await read { try $0.accounts.find(uri: uri) }
        if let stored, !refresh, let fetched = stored.fetchedAt, now.timeIntervalSince(fetched) < Self.maxAge {
            return stored
        }
        let document = try await ObjectFetcher(node: node).fetch(uri)
        guard Self.isActor(document), document.id == uri || stored == nil else {
            throw .badRequest("\(uri) is not an actor")
        }
        let profile = try ASToAccount.profile(of: document)
        // The origin's follower, following and post figures, at most every few minutes per actor.
        var counts: RemoteCounts?
        if RemoteCounts.isDue(lastFetch: stored?.fetchedAt, now: now) { counts = await RemoteCounts.fetch(of: document, node: node) }
        return try await store(profile, counts: counts, now: now)
    }

    /// Reads the follower, following and post figures of a stored actor from its origin and
    /// saves them. For actors first stored by the inbox, after their signature verified: the
    /// figures are read off the request path, so the sender never waits on them.
    package func refreshCounts(of document: ASObject) async {
        guard let uri = document.id else { return }
        let counts = await RemoteCounts.fetch(of: document, node: node)
        _ = try? await node.database.write { db in
            guard var account = try db.accounts.find(uri: uri) else { return }
            counts.apply(to: &account)
            try db.accounts.update(account)
        }
    }

    /// When a remote profile is opened: reads it and its collection sizes again in the
    /// background if they are older than `RemoteCounts.minimumInterval`; returns at once.
    package func refreshIfStale(_ account: Account, now: Date = Date()) async {
        guard !account.isLocal, RemoteCounts.isDue(lastFetch: account.fetchedAt, now: now) else { return }
        let (node, uri) = (node, account.uri)
        await node.backgroundJobs.start("actor \(uri)") {
            _ = try? await RemoteActorResolver(node: node).resolve(uri: uri, refresh: true)
        }
    }

    /// Whether `document` is an actor (ActivityPub 5.6 types).
    package static func isActor(_ document: ASObject) -> Bool {
        document.types.contains(where: ASToAccount.actorTypes.contains)
    }

    /// The account `username@domain`, resolved through WebFinger (RFC 7033) when unknown.
    /// - Throws: `NodeError.forbidden` for a blocked domain (nothing is fetched), `.internal`
    ///   when the domain failed in a way worth retrying, `.notFound` otherwise.
    public func resolve(username: String, domain: String) async throws(NodeError) -> Account {
        if node.urls.isOwn(authority: domain) { return try await node.accounts.local(username) }
        if try await read({ try $0.domainBlocks.isBlocked(domain) }) { throw .forbidden("\(domain) is blocked") }
        if let stored = try await read({ try $0.accounts.find(username: username, domain: domain) }) { return stored }
        let scheme = node.configuration.testMode ? "http" : "https"
        let query = "acct:\(username)@\(domain)".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let request = HTTPClientRequest(url: "\(scheme)://\(domain)/.well-known/webfinger?resource=\(query)",
                                        headers: [("Accept", "application/jrd+json, application/json")],
                                        maxResponseBytes: RemoteLimits.maxDocumentBytes, timeout: RemoteLimits.objectFetchTimeout)
        let response: HTTPClientResponse
        do { response = try await node.httpClient.execute(request) } catch {
            // Timeouts and refused connections may pass; a bad address or oversized answer will not.
            switch ObjectFetcher.failure(error, url: request.url) {
            case .internal, .unavailable: throw .internal("Cannot reach \(domain) now: \(error)")
            default: throw .notFound("Cannot reach \(domain)")
            }
        }
        if response.status == 429 || response.status >= 500 { throw .internal("WebFinger at \(domain) answered \(response.status)") }
        guard response.status == 200,
            let document = try? JSONDecoder().decode(WebFingerDocument.self, from: Data(response.body)),
            let actorURL = document.links.first(where: { $0.rel == "self" && ActivityStreams.isActivityPubMediaType($0.type ?? "") })?.href
        else { throw .notFound("No account \(username)@\(domain)") }
        return try await resolve(uri: actorURL)
    }

    /// Stores (inserts or updates) the actor `document`, whose origin was already checked,
    /// with the collection sizes `counts` read from its origin (figures not read stay as they were).
    package func store(_ document: ASObject, counts: RemoteCounts? = nil, now: Date = Date()) async throws(NodeError) -> Account {
        try await store(try ASToAccount.profile(of: document), counts: counts, now: now)
    }

    /// Stores a computed actor profile. All the costly work (capping, sanitising) happened
    /// before: the write transaction only reads and saves one row.
    package func store(_ profile: ASToAccount.Profile, counts: RemoteCounts? = nil, now: Date = Date()) async throws(NodeError) -> Account {
        let document = profile.document
        guard let uri = document.id, let domain = ASToAccount.authority(of: uri), let username = profile.username, !username.isEmpty else {
            throw .badRequest("Actor without id or preferredUsername")
        }
        // Remote data never lands on a local account, whatever spelling of our URL it carries.
        guard !node.urls.isLocal(uri) else { throw .forbidden("\(uri) is a local actor") }
        if let key = document.publicKey?.id, ASToAccount.authority(of: key) != domain {
            throw .forbidden("Actor key \(key) is not on the actor's host")
        }
        let (account, previousKeyId): (Account, String?)
        do {
            (account, previousKeyId) = try await node.database.write { db in
                guard try !db.domainBlocks.isBlocked(domain) else { throw NodeError.forbidden("\(domain) is blocked") }
                // A known row for this id, or for the same handle (an actor re-created there).
                var account = try db.accounts.find(uri: uri)
                    ?? db.accounts.find(username: username, domain: domain)
                    ?? Account(username: username, domain: domain, uri: uri, createdAt: now)
                let previousKeyId = account.publicKeyId
                account.uri = uri
                ASToAccount.apply(profile, to: &account, now: now)
                counts?.apply(to: &account)
                try db.accounts.save(account)
                return (account, previousKeyId)
            }
        } catch let error as NodeError { throw error } catch { throw .internal("storing actor \(uri): \(error)") }
        // The key may have been rotated: what is cached must not outlive the stored row.
        await node.keys.forget(keyIds: previousKeyId, account.publicKeyId)
        return account
    }

    private func localAccount(uri given: String) async throws(NodeError) -> Account? {
        guard let uri = node.urls.canonicalLocal(given) else { return nil }
        guard let account = try await read({ try $0.accounts.find(uri: uri) }) else { throw .notFound("No local actor \(uri)") }
        return account
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.read(body) } catch { throw .internal("reading accounts: \(error)") }
    }
}
