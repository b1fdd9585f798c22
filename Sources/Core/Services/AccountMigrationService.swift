import Activity
import Foundation
import Storage

/// Account migration (`Move`), as Mastodon and GoToSocial do it: an account lists the accounts
/// it also is (`alsoKnownAs`); an account moves to another that lists it back; followers of the
/// moved account follow the new one instead. Used by the API, the CLI and the inbox.
public struct AccountMigrationService: Sendable {
    package let node: Node

    /// How many aliases an account may have (GoToSocial's limit).
    public static let maxAliases = 5

    /// Replaces `account`'s aliases with `uris`, each resolved and checked to be a real actor
    /// (fetched from its origin; local ones read here). Followers' servers get `Update(Person)`.
    /// - Throws: `NodeError.validation` for too many aliases, a malformed or unreachable one,
    ///   or the account itself.
    /// - Returns: The account.
    @discardableResult
    public func setAliases(_ uris: [String], of account: Account) async throws(NodeError) -> Account {
        let wanted = uris.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard wanted.count <= Self.maxAliases else { throw .validation("Validation failed: At most \(Self.maxAliases) aliases") }
        var resolved: [String] = []
        for uri in wanted {
            let actor = try await aliasedActor(uri)
            guard actor.id != account.id else { throw .validation("Validation failed: An account cannot be its own alias") }
            if !resolved.contains(actor.uri) { resolved.append(actor.uri) }
        }
        let urls = node.urls
        let aliases = resolved
        try await write { db in
            try db.accountMoves.setAliases(aliases, of: account.id)
            try ProfileService.recordUpdate(of: account, urls: urls, in: db)
        }
        node.deliverySignal.notify()
        return account
    }

    /// Adds `uris` to `account`'s aliases (see `setAliases`).
    public func addAliases(_ uris: [String], to account: Account) async throws(NodeError) {
        let current = try await aliases(of: account)
        try await setAliases(current + uris, of: account)
    }

    /// `account`'s aliases, oldest first.
    public func aliases(of account: Account) async throws(NodeError) -> [String] {
        try await read { try $0.accountMoves.aliases(of: account.id) }
    }

    /// Moves `account` to the actor `uri`, after checking `password` and that the target
    /// (fetched fresh) lists `account` in its `alsoKnownAs`: `movedTo` is set, followers'
    /// servers get `Update(Person)` and `Move`, and local followers follow the target instead.
    /// - Throws: `NodeError.validation` for a wrong password, an account that already moved, a
    ///   target that is not an actor or does not alias this account.
    public func move(_ account: Account, to uri: String, password: String) async throws(NodeError) {
        try await checkPassword(password, of: account)
        guard try await read({ try $0.accountMoves.target(of: account.id) }) == nil else {
            throw .validation("Validation failed: This account has already moved")
        }
        guard let target = try await verifiedTarget(uri.trimmingCharacters(in: .whitespaces), aliasing: account) else {
            throw .validation("Validation failed: The target account must list this account in its aliases (alsoKnownAs)")
        }
        let urls = node.urls
        try await write { db in
            try db.accountMoves.recordMove(of: account.id, to: target.id)
            try ProfileService.recordUpdate(of: account, urls: urls, in: db)
            let move = ActivityBuilder(urls: urls).move(account, to: target)
            try Outbox.record(move, sender: account, postId: nil, inboxes: try Outbox.followerInboxes(of: account.id, in: db), in: db)
        }
        node.deliverySignal.notify()
        await migrateLocalFollowers(from: account, to: target)
    }

    /// The account at `uri` when it is an actor that lists `origin` in its `alsoKnownAs`: a
    /// local account by its stored aliases, a remote one fetched fresh from its origin (and
    /// stored). `nil` when it does not alias `origin`, is `origin`, or has itself moved (chains
    /// of moves are not followed).
    /// - Throws: `NodeError` when the target cannot be fetched or is not an actor.
    package func verifiedTarget(_ uri: String, aliasing origin: Account) async throws(NodeError) -> Account? {
        guard uri != origin.uri, uri.hasPrefix("https://") || uri.hasPrefix("http://") else { return nil }
        let target: Account
        if node.urls.canonicalLocal(uri) != nil {
            target = try await RemoteActorResolver(node: node).resolve(uri: uri)
            guard try await read({ try $0.accountMoves.aliases(of: target.id) }).contains(origin.uri) else { return nil }
        } else {
            let document = try await ObjectFetcher(node: node).fetch(uri)
            guard RemoteActorResolver.isActor(document), document.id == uri else { throw .validation("Validation failed: \(uri) is not an actor") }
            guard document.alsoKnownAs.contains(origin.uri), document.movedTo == nil else { return nil }
            target = try await RemoteActorResolver(node: node).store(document)
        }
        guard target.id != origin.id, try await read({ try $0.accountMoves.target(of: target.id) }) == nil else { return nil }
        return target
    }

    /// Records that remote `origin` moved to `target` and moves its local followers
    /// (an inbound `Move` already verified).
    package func acceptMove(of origin: Account, to target: Account) async throws(NodeError) {
        try await write { db in try db.accountMoves.recordMove(of: origin.id, to: target.id) }
        await migrateLocalFollowers(from: origin, to: target)
    }

    /// Every local follower of `origin` follows `target` (through the usual follow path, so a
    /// remote target gets `Follow`) and stops following `origin` (`Undo(Follow)`), and is
    /// notified with a `move` notification, as Mastodon's `MoveWorker`. A follower who may not
    /// follow the target (a block either way) keeps following `origin`.
    package func migrateLocalFollowers(from origin: Account, to target: Account) async {
        guard let follows = try? await read({ try $0.accountMoves.localFollows(of: origin.id) }) else { return }
        for follow in follows where follow.accountId != target.id && follow.state == .accepted {
            guard let follower = try? await read({ try $0.accounts.find(id: follow.accountId) }),
                (try? await node.interactions.follow(target, by: follower)) != nil
            else { continue }
            try? await node.interactions.unfollow(origin, by: follower)
            let notice = AccountNotification(accountId: follower.id, fromAccountId: origin.id, type: .move, postId: nil)
            try? await write { db in try db.notifications.add(notice) }
        }
    }

    /// The account for an alias: local, or resolved from its origin.
    private func aliasedActor(_ uri: String) async throws(NodeError) -> Account {
        guard uri.hasPrefix("https://") || uri.hasPrefix("http://"), uri.utf8.count <= RemoteLimits.maxIdLength else {
            throw .validation("Validation failed: \(uri.prefix(100)) is not an actor URI")
        }
        do { return try await RemoteActorResolver(node: node).resolve(uri: uri, refresh: true) } catch {
            throw .validation("Validation failed: \(uri.prefix(100)) is not a reachable actor")
        }
    }

    private func checkPassword(_ password: String, of account: Account) async throws(NodeError) {
        guard let email = try await read({ try $0.accounts.credential(of: account.id)?.email }),
            let signedIn = try await node.accounts.authenticateOffloaded(email: email, password: password), signedIn.id == account.id
        else { throw .validation("Validation failed: Password is invalid") }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.read(body) } catch { throw .internal("migration read: \(error)") }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.write(body) } catch let error as NodeError { throw error } catch {
            throw .internal("migration write: \(error)")
        }
    }
}

extension Node {
    /// Account aliases and moves.
    public var migrations: AccountMigrationService { AccountMigrationService(node: self) }
}
