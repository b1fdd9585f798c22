import Core
import Foundation
import Storage

extension Node {
    /// Signs in by email and password. Once the account's failed sign-ins lock it
    /// (`FailedLogins`), only a browser it signed in from before gets in (`DeviceTrust`).
    /// - Returns: The account, or `nil` for a wrong email or password.
    /// - Throws: `RateLimitExceeded` (429, `Retry-After`) while the account is locked and the
    ///   attempt comes from no trusted browser; `NodeError.forbidden` for an account pending
    ///   approval; `.internal` when credentials cannot be read.
    func signIn(_ attempt: SignInAttempt) async throws -> Account? {
        switch await failedLogins.begin(attempt.email, from: attempt.address) {
        case .open:
            guard let account = try await accounts.authenticateOffloaded(email: attempt.email, password: attempt.password) else { return nil }
            await failedLogins.succeeded(attempt.email)
            try await RegistrationService(node: self).refusePending(account)
            return account
        case .locked(let until):
            guard let token = attempt.deviceToken, let accountId = await DeviceTrust(node: self).trustedAccount(token, email: attempt.email) else {
                throw failedLogins.refusal(until: until)
            }
            return try await signInPastLock(attempt, device: token, account: accountId)
        }
    }

    /// The password check of a trusted browser while the account is locked: a wrong password
    /// lengthens the lock and counts against the browser's trust.
    private func signInPastLock(_ attempt: SignInAttempt, device token: String, account accountId: Int64) async throws -> Account? {
        guard let account = try await accounts.authenticateOffloaded(email: attempt.email, password: attempt.password), account.id == accountId else {
            await failedLogins.failedPastLock(attempt.email, from: attempt.address)
            await DeviceTrust(node: self).failed(token, account: accountId)
            return nil
        }
        try await RegistrationService(node: self).refusePending(account)
        return account
    }
}
