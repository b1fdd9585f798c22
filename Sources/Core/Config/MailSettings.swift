/// Where the node sends email from (`--smtp-url`, `--smtp-from`). Without it, features that
/// need mail (password reset, email confirmation) answer that this server cannot send email.
public struct MailSettings: Sendable, Equatable {
    /// `smtp://[user:password@]host[:port]` (STARTTLS when offered) or `smtps://...` (TLS).
    public var url: String
    /// The sender address.
    public var from: String
    /// Whether an `smtp://` connection must be upgraded with STARTTLS (`--smtp-require-tls`).
    public var requireTLS: Bool

    /// Settings for `url` sending as `from`.
    public init(url: String, from: String, requireTLS: Bool = false) {
        self.url = url
        self.from = from
        self.requireTLS = requireTLS
    }
}
