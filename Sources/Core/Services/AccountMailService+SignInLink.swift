import Foundation
import Storage

extension AccountMailService {
    /// How long an emailed sign-in link works.
    package static let signInLinkLifetime: TimeInterval = 15 * 60

    /// Mails a one-time sign-in link to `email` when a local account signs in with it. The
    /// answer must not tell whether it does: unknown addresses get nothing, nor does an address
    /// that asked `RateLimits.signInLinkPerAccount` times already, and the mail goes out in the
    /// background (its time and its failure, logged, never reach the caller).
    /// - Throws: `NodeError.unavailable` when the node has no SMTP server.
    package func requestSignInLink(email: String, now: Date = Date()) async throws(NodeError) {
        let mailer = try mailer()
        let key = FailedLogins.key(email)
        guard (try? await node.rateLimiter.hit("sign-in-link-email:\(key)", rule: node.configuration.rateLimits.signInLinkPerAccount)) != nil else { return }
        guard let (account, address, secret) = try await issueToken(.signIn, email: email, until: now.addingTimeInterval(Self.signInLinkLifetime))
        else { return }
        let message = signInMessage(to: address, username: account.username, link: "\(node.urls.base)/login/link?sign_in_token=\(secret)")
        await node.backgroundJobs.start("sign-in-link:\(account.id)") { [self] in try? await send(mailer, message) }
    }

    /// The account a sign-in link is for, while it still works (to show its button).
    package func signInLinkAccount(secret: String, now: Date = Date()) async throws(NodeError) -> Account? {
        try await read { db in
            guard let token = try db.accountTokens.peek(hash: TokenSecret.hash(secret), purpose: .signIn, now: now) else { return nil }
            return try db.accounts.find(id: token.accountId)
        }
    }

    /// Uses a sign-in link: it stops working, and answers the account it was sent for while it
    /// worked and the address it went to is still the account's.
    /// - Throws: `NodeError.notFound` for an unknown, used or expired link.
    package func redeemSignInLink(secret: String, now: Date = Date()) async throws(NodeError) -> Account {
        let account = try await write { db -> Account? in
            guard let token = try db.accountTokens.redeem(hash: TokenSecret.hash(secret), purpose: .signIn, now: now),
                let account = try db.accounts.find(id: token.accountId), try db.accounts.credential(of: account.id)?.email == token.email
            else { return nil }
            return account
        }
        guard let account else { throw .notFound("This sign-in link is invalid, used or expired") }
        return account
    }

    private func signInMessage(to address: String, username: String, link: String) -> MailMessage {
        MailMessage(to: address, subject: "Your sign-in link for \(node.configuration.nodeName)", text: """
            Hello @\(username),

            Someone asked for a link to sign in to your account on \(node.urls.domain)
            without the password. To sign in, open this link within 15 minutes. It works
            once, and the browser you open it in can then sign in with your password even
            while too many failed sign-ins by others lock your account:

            \(link)

            If it was not you, ignore this message. Someone may be guessing your password:
            choose a strong one that you use nowhere else.
            """)
    }
}
