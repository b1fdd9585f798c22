/// How often one client address may call the throttled endpoints. Production values follow
/// Mastodon's Rack::Attack rules in spirit; tests set small limits to reach them.
public struct RateLimits: Sendable {
    /// `POST /api/v1/accounts` (sign-up): 10 per 30 minutes.
    public var signUp = RateLimiter.Rule(limit: 10, window: 30 * 60)
    /// `POST /oauth/token`: 30 per 5 minutes.
    public var token = RateLimiter.Rule(limit: 30, window: 5 * 60)
    /// `POST /oauth/authorize` (the login form): 30 per 5 minutes.
    public var authorize = RateLimiter.Rule(limit: 30, window: 5 * 60)
    /// Failed sign-ins for one account (by email), whatever address they come from: after 5 in
    /// a row, sign-ins answer 429 for 1 minute, doubling with each further failure up to 1 hour.
    /// Behind a proxy, or from many addresses, per-address limits alone let a password be
    /// guessed; browsers the account signed in from before are not locked out.
    public var failedSignIns = SignInBackoff()
    /// `POST /login/link` (an emailed sign-in link), per address: 5 per hour.
    public var signInLink = RateLimiter.Rule(limit: 5, window: 3600)
    /// Emailed sign-in links per typed email, whoever asks: 3 per hour (more requests get the
    /// same answer and no mail, so nobody can fill a person's inbox).
    public var signInLinkPerAccount = RateLimiter.Rule(limit: 3, window: 3600)

    /// The production limits.
    public init() {}
}
