import Core
import Foundation
import Hummingbird
import Storage

/// Sign-up through the API (`POST /api/v1/accounts`), as apps offer it: the app first gets an
/// app token with the client-credentials grant, then registers the person with it.
struct SignUpController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/accounts", use: create)
    }

    /// `POST /api/v1/accounts` (username, email, password, agreement, locale, reason,
    /// invite_code) with a token holding `write:accounts`: creates the account and answers a
    /// `Token` for it with the scopes of the app's token. In approval mode the account (and
    /// the token) works once a moderator approves it; `reason` is then required. A valid
    /// `invite_code` skips approval and works when registrations are closed. 401/403 for a
    /// missing token or scope, 403 when registrations are closed, 422 with per-field `details`
    /// (an unusable invite, a missing reason), 429 when throttled.
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let limits = try await node.throttle("signup", rule: node.configuration.rateLimits.signUp, request: request, context: context)
        guard let caller = try await node.apiAuth.caller(of: request) else { throw NodeError.unauthorized("The access token is invalid") }
        try caller.require("write:accounts")
        let params = try await APIParams.read(request)
        let username = params.string("username") ?? "", email = params.nonEmpty("email") ?? "", password = params.string("password") ?? ""
        do {
            let terms = try await RegistrationService(node: node).terms(inviteCode: params.nonEmpty("invite_code"), reason: params.string("reason"))
            try Self.check(username: username, email: email, password: password, agreement: params.bool("agreement") ?? false)
            let account = try await create(username: username, email: email, password: password, terms: terms)
            // When the node requires it, the token below works once the emailed link is opened.
            try await AccountMailService(node: node).beginConfirmation(of: account, email: email)
            let issued: (token: String, refresh: String, row: OAuthToken)
            do {
                issued = try await node.database.write { db in
                    try node.apiAuth.issueToken(appId: caller.token.appId, accountId: account.id, scopes: caller.scopes, in: db)
                }
            } catch { throw NodeError.internal("issuing sign-up token: \(error)") }
            return APIResponse.json(OAuthGrants.entity(issued), headers: limits)
        } catch let failure as ValidationFailure {
            return failure.response()
        }
    }

    /// Creates the account under `terms`, turning "already taken" into a field detail.
    private func create(username: String, email: String, password: String, terms: SignUpTerms) async throws -> Account {
        do {
            return try await node.accounts.create(username: username, email: email, password: password) { db, account in
                try RegistrationService.record(terms, of: account, in: db, at: Date())
            }
        } catch .validation(let message) {
            var failure = ValidationFailure()
            if message.hasPrefix("Invite") {
                failure.add("invite_code", "ERR_INVALID", "has expired or been used up")
                throw failure
            }
            let field = message.hasPrefix("Email") ? "email" : "username"
            failure.add(field, Self.code(for: message), field == "email" ? "has already been taken" : Self.description(message, field: "Username"))
            throw failure
        }
    }

    /// Every problem with the fields, collected rather than stopping at the first.
    /// - Throws: `ValidationFailure` when there is any.
    static func check(username: String, email: String, password: String, agreement: Bool) throws(ValidationFailure) {
        var failure = ValidationFailure()
        func collect(_ field: String, _ value: String, _ check: (String) throws(NodeError) -> Void) {
            guard !value.isEmpty else { return failure.add(field, "ERR_BLANK", "can't be blank") }
            do { try check(value) } catch {
                let label = field.prefix(1).uppercased() + field.dropFirst()
                failure.add(field, code(for: error.message), description(error.message, field: label))
            }
        }
        collect("username", username, AccountValidation.checkUsername)
        collect("email", email, AccountValidation.checkEmail)
        collect("password", password, AccountValidation.checkPassword)
        if !agreement { failure.add("agreement", "ERR_ACCEPTED", "must be accepted") }
        guard failure.isEmpty else { throw failure }
    }

    /// The Rails message without its field name ("Username is reserved" → "is reserved").
    private static func description(_ message: String, field: String) -> String {
        message.hasPrefix(field + " ") ? String(message.dropFirst(field.count + 1)) : message
    }

    /// The `ERR_*` code of a validation message, as Rails names its error types.
    private static func code(for message: String) -> String {
        let codes = [("can't be blank", "ERR_BLANK"), ("is too long", "ERR_TOO_LONG"), ("is too short", "ERR_TOO_SHORT"),
                     ("already been taken", "ERR_TAKEN"), ("is reserved", "ERR_RESERVED")]
        return codes.first { message.contains($0.0) }?.1 ?? "ERR_INVALID"
    }
}
