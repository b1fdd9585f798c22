/// How often one client address may call the throttled endpoints. Production values follow
/// Mastodon's Rack::Attack rules in spirit; tests set small limits to reach them.
public struct RateLimits: Sendable {
    /// `POST /api/v1/accounts` (sign-up): 10 per 30 minutes.
    public var signUp = RateLimiter.Rule(limit: 10, window: 30 * 60)
    /// `POST /oauth/token`: 30 per 5 minutes.
    public var token = RateLimiter.Rule(limit: 30, window: 5 * 60)
    /// `POST /oauth/authorize` (the login form): 30 per 5 minutes.
    public var authorize = RateLimiter.Rule(limit: 30, window: 5 * 60)
    /// Failed sign-ins for one account (by email), whatever address they come from: 10 per
    /// 15 minutes. Behind a proxy, or from many addresses, per-address limits alone let a
    /// password be guessed; past this, sign-ins to the account answer 429 until the window ends.
    public var failedLoginsPerAccount = RateLimiter.Rule(limit: 10, window: 15 * 60)

    /// The production limits.
    public init() {}
}
