import Activity
import Dispatch
import Foundation
import Signatures
import Storage
import Synchronization

/// Creates, finds, authenticates and deletes local accounts.
public struct AccountService: Sendable {
    package let database: NodeDatabase
    private let urls: NodeURLs
    private let passwordCost: Int
    // A valid hash of a random password at the same cost, so a sign-in with an unknown email
    // takes as long as one with a wrong password and does not reveal which emails exist. Made on
    // first use: scrypt's 32 MiB and ~130 ms are not paid by nodes nobody signs in to.
    private let decoy: DecoyHash

    /// Creates the service over a node's database.
    public init(database: NodeDatabase, urls: NodeURLs, passwordCost: Int) {
        self.database = database
        self.urls = urls
        self.passwordCost = passwordCost
        self.decoy = DecoyHash(cost: passwordCost)
    }

    /// Creates a local account with its own RSA-2048 key pair and scrypt-hashed password.
    /// - Parameters:
    ///   - username: Letters, digits, underscore; at most 30; unique ignoring case; not reserved.
    ///   - email: Sign-in email, unique ignoring case.
    ///   - password: At least 8 characters.
    ///   - displayName: Optional display name.
    ///   - alongside: Runs in the same transaction after the account is stored (how it signed
    ///     up, an invite's use); a `NodeError` it throws undoes the whole sign-up.
    /// - Returns: The stored account.
    /// - Throws: `NodeError.validation` for invalid or taken values; `.internal` otherwise.
    public func create(username: String, email: String, password: String, displayName: String = "",
                       alongside: (@Sendable (Transaction, Account) throws -> Void)? = nil) async throws(NodeError) -> Account {
        let email = email.trimmingCharacters(in: .whitespaces)
        try AccountValidation.checkUsername(username)
        try AccountValidation.checkEmail(email)
        try AccountValidation.checkPassword(password)
        try await checkAvailable(username: username, email: email)
        let (publicKeyPem, privateKeyPem, hash) = try await makeSecrets(password: password)
        var account = Account(username: username, domain: nil, uri: urls.actor(username))
        account.url = urls.profile(username)
        account.displayName = displayName
        account.inboxUrl = urls.inbox(username)
        account.sharedInboxUrl = urls.sharedInbox
        account.outboxUrl = urls.outbox(username)
        account.followersUrl = urls.followers(username)
        account.followingUrl = urls.following(username)
        account.publicKeyId = urls.key(username)
        account.publicKeyPem = publicKeyPem
        account.privateKeyPem = privateKeyPem
        let stored = account
        do {
            try await database.write { db in
                try db.accounts.insert(stored)
                try db.accounts.insertCredential(Credential(accountId: stored.id, email: email, passwordHash: hash))
                try alongside?(db, stored)
            }
        } catch let error as NodeError {
            throw error
        } catch let error where Accounts.isUniquenessViolation(error) {
            // Lost a race with a concurrent sign-up for the same name or email.
            throw .validation("Username or email has already been taken")
        } catch {
            throw .internal("creating account: \(error)")
        }
        return stored
    }

    /// The local account named `username`, ignoring case.
    /// - Throws: `NodeError.notFound` when there is none.
    public func local(_ username: String) async throws(NodeError) -> Account {
        let found: Account?
        do { found = try await database.read { try $0.accounts.findLocal(username: username) } } catch {
            throw .internal("reading account: \(error)")
        }
        guard let found else { throw .notFound("Record not found") }
        return found
    }

    /// Every local account, oldest first, with its email.
    public func listLocal() throws(NodeError) -> [(account: Account, email: String)] {
        do {
            return try database.readBlocking { db in
                try db.accounts.allLocal().map { account in
                    (account, try db.accounts.credential(of: account.id)?.email ?? "")
                }
            }
        } catch { throw .internal("listing accounts: \(error)") }
    }

    /// The local account whose email and password match, or `nil`.
    public func authenticate(email: String, password: String) throws(NodeError) -> Account? {
        let row: (Account, Credential)?
        do {
            row = try database.readBlocking { db in
                guard let credential = try db.accounts.credential(email: email),
                    let account = try db.accounts.find(id: credential.accountId)
                else { return nil }
                return (account, credential)
            }
        } catch { throw .internal("reading credentials: \(error)") }
        guard let (account, credential) = row else {
            _ = PasswordHasher.verify(password, against: decoy.value)
            return nil
        }
        return PasswordHasher.verify(password, against: credential.passwordHash) ? account : nil
    }

    /// `authenticate(email:password:)` off the server's threads: scrypt takes about 130 ms of
    /// CPU, which must not stall the event loops or the cooperative pool.
    public func authenticateOffloaded(email: String, password: String) async throws(NodeError) -> Account? {
        let result: Result<Account?, NodeError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(NodeError) { continuation.resume(returning: .success(try authenticate(email: email, password: password))) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Deletes a local account and everything it owns (posts, follows, likes, tokens), and
    /// queues a signed `Delete` of its actor to every server that knows it (the inboxes of its
    /// remote followers and follows, and of the remote accounts it liked, boosted, replied to,
    /// mentioned or blocked), so they remove it too. The name stays taken and the actor
    /// URL answers 410 Gone.
    /// - Throws: `NodeError.notFound` when there is no such local account.
    public func delete(username: String) throws(NodeError) {
        let deleted: Bool
        do {
            deleted = try database.writeBlocking { [urls] db in
                guard let account = try db.accounts.findLocal(username: username) else { return false }
                let known = try db.follows.relatedRemoteInboxes(of: account.id) + db.accountArchive.interactedRemoteInboxes(of: account.id)
                let inboxes = Array(Set(known)).sorted()
                try db.accounts.saveTombstone(Self.tombstone(of: account))
                let removed = try db.accounts.delete(account)
                // What the account had not sent yet is not sent after it is gone; only its
                // Delete is, queued after the row: deliveries do not cascade from it, and the
                // key they are signed with stays on the tombstone until they are done.
                try db.deliveries.cancelQueued(signer: account.id)
                var delete = ActivityBuilder(urls: urls).deleteActor(account)
                delete.context = ASContext.standard
                try db.deliveries.enqueue(activityUri: delete.id ?? account.uri, payload: delete.encoded(), accountId: account.id, inboxes: inboxes)
                return removed
            }
        } catch { throw .internal("deleting account: \(error)") }
        guard deleted else { throw .notFound("No local account named \(username)") }
    }

    /// The actor's tombstone: its URL answers 410 and its name stays taken. It keeps the
    /// signing key for the deliveries still queued (the `Delete` among them) until they are
    /// done (`Accounts.forgetDepartedKeys`).
    private static func tombstone(of account: Account) -> Tombstone {
        var tombstone = Tombstone(uri: account.uri, accountId: nil)
        tombstone.signerId = account.id
        (tombstone.keyId, tombstone.privateKeyPem) = (account.publicKeyId, account.privateKeyPem)
        return tombstone
    }

    private func checkAvailable(username: String, email: String) async throws(NodeError) {
        let (nameTaken, emailTaken): (Bool, Bool)
        do {
            (nameTaken, emailTaken) = try await database.read { [urls] db in
                // A deleted account's name stays taken: its actor id may still be cached elsewhere.
                let tombstoned = try db.accounts.tombstone(uri: urls.actor(username)) != nil
                let taken = try db.accounts.localExists(username: username) || tombstoned
                return (taken, try db.accounts.emailExists(email))
            }
        } catch { throw .internal("checking availability: \(error)") }
        if nameTaken { throw .validation("Username has already been taken") }
        if emailTaken { throw .validation("Email has already been taken") }
    }

    /// A new RSA-2048 key pair (public and private PEM) and the password's scrypt hash, made on
    /// a Dispatch thread: together they take a few hundred milliseconds of CPU, which on the
    /// cooperative pool (two threads on a two-core machine) would stall every other request.
    private func makeSecrets(password: String) async throws(NodeError) -> (String, String, String) {
        let cost = passwordCost
        let result: Result<(String, String, String), NodeError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    let key = try RSAPrivateKey.generate(bits: 2048)
                    continuation.resume(returning: .success((key.publicKey.spkiPEM, key.pkcs8PEM, try PasswordHasher.hash(password, logN: cost))))
                } catch {
                    continuation.resume(returning: .failure(.internal("generating secrets: \(error)")))
                }
            }
        }
        return try result.get()
    }
}

/// The decoy password hash of `AccountService`, computed once, when first needed.
private final class DecoyHash: Sendable {
    private let cost: Int
    private let hash = Mutex<String?>(nil)

    init(cost: Int) { self.cost = cost }

    /// The hash, made on the first call (later calls wait for it, then share it).
    var value: String {
        hash.withLock { stored in
            if let stored { return stored }
            let made = (try? PasswordHasher.hash(UUID().uuidString, logN: cost)) ?? ""
            stored = made
            return made
        }
    }
}
