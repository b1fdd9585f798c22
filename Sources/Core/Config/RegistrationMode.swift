/// Who may sign up (`--registrations`, `FEDNODE_REGISTRATIONS`), as Mastodon's registrations
/// mode: everyone, everyone after a moderator's approval (they give a reason), or nobody but
/// people holding an invite link. An invite skips approval in every mode.
public enum RegistrationMode: String, Sendable, CaseIterable {
    /// Anyone may sign up and use their account at once.
    case open
    /// Anyone may sign up giving a reason; the account works once a moderator approves it.
    case approval
    /// Only people with a valid invite may sign up.
    case closed

    /// Whether sign-up is possible without an invite (Mastodon's `registrations` flag,
    /// NodeInfo's `openRegistrations`).
    public var acceptsSignUps: Bool { self != .closed }
}
