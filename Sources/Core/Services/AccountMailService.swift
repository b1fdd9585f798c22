import Dispatch
import Foundation
import Signatures
import Storage

/// The account flows that go through email: a password reset by an emailed link, and the
/// confirmation of a new account's address. Links carry a random single-use secret whose
/// SHA-256 alone is stored; they expire, and only the newest link of each kind works.
package struct AccountMailService: Sendable {
    /// How long a password reset link works.
    package static let resetLifetime: TimeInterval = 2 * 3600
    /// How long a confirmation link works.
    package static let confirmationLifetime: TimeInterval = 2 * 86_400
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// The configured mailer.
    /// - Throws: `NodeError.unavailable` (503) when the node has no SMTP server: the caller says
    ///   so rather than pretending mail went out.
    package func mailer() throws(NodeError) -> SMTPMailer {
        guard let mailer = node.mailer else {
            throw .unavailable("This server cannot send email: its admin has not configured an SMTP server")
        }
        return mailer
    }

    /// Sends a password reset link to `email` when a local account signs in with it. Unknown
    /// addresses get nothing, and the caller answers the same either way (no account discovery).
    package func requestPasswordReset(email: String, now: Date = Date()) async throws(NodeError) {
        let mailer = try mailer()
        guard let (account, address, secret) = try await issueToken(.resetPassword, email: email, until: now.addingTimeInterval(Self.resetLifetime))
        else { return }
        let link = "\(node.urls.base)/auth/password/edit?reset_password_token=\(secret)"
        try await send(mailer, MailMessage(to: address, subject: "Reset your password on \(node.configuration.nodeName)", text: """
            Hello @\(account.username),

            Someone asked to reset the password of your account on \(node.urls.domain).
            To choose a new password, open this link within two hours:

            \(link)

            If it was not you, ignore this message: your password stays as it is.
            """))
    }

    /// The account a reset link is for, while it still works (to show the form).
    package func resetAccount(secret: String, now: Date = Date()) async throws(NodeError) -> Account? {
        try await read { db in
            guard let token = try db.accountTokens.peek(hash: TokenSecret.hash(secret), purpose: .resetPassword, now: now) else { return nil }
            return try db.accounts.find(id: token.accountId)
        }
    }

    /// Sets a new password with a reset link's secret: the link stops working, every session
    /// and app token of the account is revoked, no browser stays trusted (`DeviceTrust`), and
    /// an unconfirmed address counts as confirmed
    /// (the person just read mail sent to it).
    /// - Throws: `NodeError.validation` for a weak password, `.notFound` for an unknown or
    ///   expired link.
    package func resetPassword(secret: String, to password: String, now: Date = Date()) async throws(NodeError) -> Account {
        try AccountValidation.checkPassword(password)
        let hash = try await Self.hashOffloaded(password, cost: node.configuration.passwordCost)
        let account = try await write { db -> Account? in
            guard let token = try db.accountTokens.redeem(hash: TokenSecret.hash(secret), purpose: .resetPassword, now: now),
                let account = try db.accounts.find(id: token.accountId), try db.accounts.credential(of: account.id)?.email == token.email
            else { return nil }
            try db.accountTokens.setPasswordHash(hash, of: account.id)
            try db.accountTokens.revokeAllSessions(of: account.id, at: now)
            // Whoever knew the old password may have signed in: no browser stays trusted.
            try db.trustedDevices.forgetAll(of: account.id)
            try db.accountTokens.markConfirmed(account.id)
            return account
        }
        guard let account else { throw .notFound("This password reset link is invalid or has expired") }
        return account
    }

    /// Marks a new account as unconfirmed and mails it a confirmation link, when the node
    /// requires confirmation; otherwise does nothing. A mail failure is logged, not thrown: the
    /// account exists and the person can ask for another link.
    package func beginConfirmation(of account: Account, email: String, now: Date = Date()) async throws(NodeError) {
        guard node.configuration.requireEmailConfirmation else { return }
        try await write { db in try db.accountTokens.markUnconfirmed(account.id, since: now) }
        do { try await sendConfirmation(to: account, email: email, now: now) } catch {
            node.logger.warning("confirmation mail not sent", metadata: ["account": "\(account.username)", "error": "\(error)"])
        }
    }

    /// Issues a single-use token of `purpose` to the local account that signs in with `email`.
    /// - Returns: The account, its address as stored, and the secret to mail; `nil` when no local
    ///   account signs in with `email`.
    package func issueToken(_ purpose: AccountTokenPurpose, email: String, until expiresAt: Date) async throws(NodeError)
        -> (account: Account, address: String, secret: String)?
    {
        let secret = TokenSecret.new()
        let found = try await write { db -> (Account, String)? in
            guard let credential = try db.accounts.credential(email: email),
                let account = try db.accounts.find(id: credential.accountId), account.isLocal
            else { return nil }
            try db.accountTokens.issue(hash: TokenSecret.hash(secret), account: account.id, purpose: purpose,
                                       email: credential.email, expiresAt: expiresAt)
            return (account, credential.email)
        }
        return found.map { ($0.0, $0.1, secret) }
    }

    /// Mails `account` a new confirmation link for `email`.
    package func sendConfirmation(to account: Account, email: String, now: Date = Date()) async throws(NodeError) {
        let mailer = try mailer()
        let secret = TokenSecret.new()
        try await write { db in
            try db.accountTokens.issue(hash: TokenSecret.hash(secret), account: account.id, purpose: .confirmEmail,
                                       email: email, expiresAt: now.addingTimeInterval(Self.confirmationLifetime))
        }
        let link = "\(node.urls.base)/auth/confirmation?confirmation_token=\(secret)"
        try await send(mailer, MailMessage(to: email, subject: "Confirm your email on \(node.configuration.nodeName)", text: """
            Hello @\(account.username),

            Welcome to \(node.urls.domain). To confirm this address and start using your account,
            open this link within two days:

            \(link)

            If you did not sign up, ignore this message.
            """))
    }

    /// Confirms the address a confirmation link was sent to (it becomes the sign-in email).
    /// - Throws: `NodeError.notFound` for an unknown or expired link, `.validation` when another
    ///   account took the address meanwhile.
    package func confirm(secret: String, now: Date = Date()) async throws(NodeError) -> Account {
        let account = try await write { db -> Account? in
            guard let token = try db.accountTokens.redeem(hash: TokenSecret.hash(secret), purpose: .confirmEmail, now: now),
                let account = try db.accounts.find(id: token.accountId)
            else { return nil }
            if let owner = try db.accounts.credential(email: token.email), owner.accountId != account.id {
                throw NodeError.validation("Email has already been taken")
            }
            try db.accountTokens.setEmail(token.email, of: account.id)
            try db.accountTokens.markConfirmed(account.id)
            return account
        }
        guard let account else { throw .notFound("This confirmation link is invalid or has expired") }
        return account
    }

    /// Whether `account` must still confirm its email before using the API.
    package func isUnconfirmed(_ account: Account) async throws(NodeError) -> Bool {
        guard node.configuration.requireEmailConfirmation, account.isLocal else { return false }
        return try await read { db in try db.accountTokens.isUnconfirmed(account.id) }
    }

    // MARK: Helpers

    /// Sends `message`, logging a failure.
    /// - Throws: `NodeError.unavailable` when the mail could not be sent.
    package func send(_ mailer: SMTPMailer, _ message: MailMessage) async throws(NodeError) {
        do { try await mailer.send(message) } catch {
            node.logger.warning("mail not sent", metadata: ["error": "\(error)"])
            throw .unavailable("The email could not be sent; try again later")
        }
    }

    /// scrypt off the cooperative pool (about 130 ms of CPU).
    package static func hashOffloaded(_ password: String, cost: Int) async throws(NodeError) -> String {
        let result: Result<String, NodeError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do { continuation.resume(returning: .success(try PasswordHasher.hash(password, logN: cost))) } catch {
                    continuation.resume(returning: .failure(.internal("hashing password: \(error)")))
                }
            }
        }
        return try result.get()
    }

    /// Runs `body` in a read transaction; database errors become `NodeError.internal`.
    package func read<T: Sendable>(_ body: @Sendable @escaping (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.read(body) } catch let error as NodeError { throw error } catch {
            throw .internal("account mail read: \(error)")
        }
    }

    /// Runs `body` in a write transaction; database errors become `NodeError.internal`.
    package func write<T: Sendable>(_ body: @Sendable @escaping (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.write(body) } catch let error as NodeError { throw error } catch {
            throw .internal("account mail write: \(error)")
        }
    }
}
