import Foundation
import Storage

/// What a sign-up must satisfy under the node's registration mode: the invite it uses (if
/// any), the reason it gives, and whether it waits for approval.
public struct SignUpTerms: Sendable {
    /// The usable invite given, if any; it skips approval and opens closed registrations.
    public var invite: Invite?
    /// Why the person wants to join (required in approval mode without an invite).
    public var reason: String
    /// Whether the new account waits for a moderator's approval.
    public var pending: Bool
}

/// Registration modes, approval of pending sign-ups and invite links.
public struct RegistrationService: Sendable {
    /// Mastodon's answer to a sign-in or token of an account not approved yet.
    public static let pendingMessage = "Your login is currently pending approval"
    /// The longest reason accepted (Mastodon's limit for `invite_request`).
    package static let maxReasonLength = 1_000
    package let node: Node

    /// Creates the service for `node`.
    public init(node: Node) { self.node = node }

    /// The terms of a sign-up with `inviteCode` and `reason` under the node's mode.
    /// - Throws: `NodeError.forbidden` when registrations are closed and no invite is given;
    ///   `ValidationFailure` (422) for an unusable invite, or a missing or over-long reason.
    package func terms(inviteCode: String?, reason rawReason: String?) async throws -> SignUpTerms {
        let mode = node.configuration.registrations
        guard mode.acceptsSignUps || inviteCode != nil else { throw NodeError.forbidden("This action is not allowed") }
        let reason = (rawReason ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        var failure = ValidationFailure()
        var invite: Invite?
        if let inviteCode {
            do { invite = try await usableInvite(code: inviteCode) } catch { failure.add("invite_code", "ERR_INVALID", error.message) }
        }
        if mode == .approval, inviteCode == nil, reason.isEmpty { failure.add("reason", "ERR_BLANK", "can't be blank") }
        if reason.count > Self.maxReasonLength { failure.add("reason", "ERR_TOO_LONG", "is too long (maximum is 1000 characters)") }
        guard failure.isEmpty else { throw failure }
        return SignUpTerms(invite: invite, reason: reason, pending: mode == .approval && invite == nil)
    }

    /// Records how `account` signed up, in the sign-up's transaction, counting the invite's use.
    /// - Throws: `NodeError.validation` ("Invite ...") when the invite was used up meanwhile.
    package static func record(_ terms: SignUpTerms, of account: Account, in db: Transaction, at now: Date) throws {
        if let id = terms.invite?.id, try !db.registrations.use(invite: id, at: now) {
            throw NodeError.validation("Invite code has expired or been used up")
        }
        try db.registrations.record(SignUpRequest(accountId: account.id, reason: terms.reason, inviteId: terms.invite?.id,
                                                  approvedAt: terms.pending ? nil : now, at: now))
    }

    /// The invite with `code`, when it can still be used.
    /// - Throws: `NodeError.notFound` for an unknown code, `.gone` for one expired or used up.
    public func usableInvite(code: String) async throws(NodeError) -> Invite {
        let found: Invite?
        do { found = try await node.database.read { db in try db.registrations.invite(code: code) } } catch {
            throw .internal("reading invite: \(error)")
        }
        guard let found, code.count <= 64 else { throw .notFound("is not a valid invite code") }
        guard found.isUsable(at: Date()) else {
            throw .gone(found.maxUses.map { found.uses >= $0 } == true ? "has been used up" : "has expired")
        }
        return found
    }

    /// Refuses `account` while it waits for approval.
    /// - Throws: `NodeError.forbidden` with Mastodon's message.
    package func refusePending(_ account: Account) async throws(NodeError) {
        let pending: Bool
        do { pending = try await node.database.read { db in try db.registrations.isPending(account.id) } } catch {
            throw .internal("reading sign-up request: \(error)")
        }
        if pending { throw .forbidden(Self.pendingMessage) }
    }

    /// Makes an invite link.
    /// - Parameters:
    ///   - maxUses: How many sign-ups it allows (nil: no limit); at least 1.
    ///   - expiresInHours: How long it works (nil: for ever); more than 0.
    ///   - creator: The local account shown as inviting (nil: the node).
    /// - Returns: The invite and its URL (`PUBLIC_URL/invite/CODE`).
    /// - Throws: `NodeError.validation` for a bound out of range.
    public func createInvite(maxUses: Int?, expiresInHours: Double?, by creator: Int64?) throws(NodeError) -> (invite: Invite, url: String) {
        if let maxUses, maxUses < 1 { throw .validation("--max-uses must be at least 1") }
        if let hours = expiresInHours, !(hours > 0 && hours <= 24 * 365 * 10) { throw .validation("--expires-in must be between 0 and 87600 hours") }
        let invite = Invite(code: Self.newCode(), accountId: creator, maxUses: maxUses,
                            expiresAt: expiresInHours.map { Date().addingTimeInterval($0 * 3_600) })
        do {
            let stored = try node.database.writeBlocking { db in try db.registrations.add(invite) }
            return (stored, inviteURL(stored.code))
        } catch { throw .internal("storing invite: \(error)") }
    }

    /// Every invite, newest first, with its URL.
    public func invites() throws(NodeError) -> [(invite: Invite, url: String)] {
        do { return try node.database.readBlocking { db in try db.registrations.invites() }.map { ($0, inviteURL($0.code)) } } catch {
            throw .internal("listing invites: \(error)")
        }
    }

    /// The page that opens an invite.
    public func inviteURL(_ code: String) -> String { node.urls.base + "/invite/" + code }

    /// Ten random letters and digits (about 59 bits).
    package static func newCode() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
