import Foundation
import Storage

/// Changing the sign-in email: the password confirms the request, the new address gets a
/// confirmation link (the same single-use link as sign-up confirmation, so opening it is what
/// changes the address), and the old address gets a notice that a change was asked for.
package struct EmailChange: Sendable {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Asks to change `account`'s email to `newEmail`.
    /// - Throws: `NodeError.unavailable` when the node cannot send email, `.badRequest` for a
    ///   missing field, `.forbidden` for a wrong password, `.validation` for an invalid, unchanged
    ///   or taken address.
    package func request(for account: Account, password: String, newEmail: String, now: Date = Date()) async throws(NodeError) {
        let mailer = try AccountMailService(node: node).mailer()
        let newEmail = newEmail.trimmingCharacters(in: .whitespaces)
        guard !password.isEmpty else { throw .badRequest("password must be provided") }
        guard !newEmail.isEmpty else { throw .badRequest("new_email must be provided") }
        try AccountValidation.checkEmail(newEmail)
        guard try await SelfDeletion.verify(password, of: account, in: node) else { throw .forbidden("Invalid password") }
        let current = try await read { db in try db.accounts.credential(of: account.id)?.email } ?? ""
        if current.lowercased() == newEmail.lowercased() { throw .validation("new email address cannot be the same as current email address") }
        if try await read({ db in try db.accounts.emailExists(newEmail) }) { throw .validation("Email has already been taken") }
        try await sendLink(to: newEmail, of: account, mailer: mailer, now: now)
        await notifyOldAddress(current, of: account, mailer: mailer)
    }

    // The sign-up confirmation link (`/auth/confirmation`): opening it sets the address it
    // was sent to as the sign-in email; only the newest link works.
    private func sendLink(to address: String, of account: Account, mailer: SMTPMailer, now: Date) async throws(NodeError) {
        let secret = TokenSecret.new()
        do {
            try await node.database.write { db in
                try db.accountTokens.issue(hash: TokenSecret.hash(secret), account: account.id, purpose: .confirmEmail, email: address,
                                           expiresAt: now.addingTimeInterval(AccountMailService.confirmationLifetime))
            }
        } catch { throw .internal("email change token: \(error)") }
        let message = MailMessage(to: address, subject: "Confirm your new email on \(node.configuration.nodeName)", text: """
            Hello @\(account.username),

            To make this your sign-in address on \(node.urls.domain), open this link within two days:

            \(node.urls.base)/auth/confirmation?confirmation_token=\(secret)

            Until then your account keeps its current address. If you did not ask for this, ignore this message.
            """)
        do { try await mailer.send(message) } catch {
            node.logger.warning("email change link not sent", metadata: ["error": "\(error)"])
            throw .unavailable("The email could not be sent; try again later")
        }
    }

    // A notice, not a question: the change happens only through the link sent to the new address.
    private func notifyOldAddress(_ address: String, of account: Account, mailer: SMTPMailer) async {
        guard !address.isEmpty else { return }
        let message = MailMessage(to: address, subject: "Your email on \(node.configuration.nodeName) is being changed", text: """
            Hello @\(account.username),

            Someone signed in to your account on \(node.urls.domain) asked to change its email address.
            The change takes effect only once the link sent to the new address is opened.

            If it was not you, change your password now and tell the server's admin.
            """)
        do { try await mailer.send(message) } catch {
            node.logger.warning("email change notice not sent", metadata: ["account": "\(account.username)", "error": "\(error)"])
        }
    }

    package func read<T: Sendable>(_ body: @Sendable @escaping (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.read(body) } catch let error as NodeError { throw error } catch {
            throw .internal("email change read: \(error)")
        }
    }
}
