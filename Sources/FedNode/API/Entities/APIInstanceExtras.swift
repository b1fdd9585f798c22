import Core

/// A language of the instance (`GET /api/v1/instance/languages`).
public struct APILanguage: Codable, Sendable, Equatable {
    /// ISO 639 code.
    public var code: String
    /// Its English name.
    public var name: String
}

/// `ExtendedDescription`: the instance's longer description.
public struct APIExtendedDescription: Codable, Sendable, Equatable {
    /// When it was last changed; `null` when never written.
    @Nullable public var updatedAt: String?
    /// HTML.
    public var content: String
}
