import Foundation

/// A 422 that names each invalid field, as Mastodon's `ValidationErrorFormatter` answers
/// sign-up: `{"error": "Validation failed: ...", "details": {"username": [{"error":
/// "ERR_TAKEN", "description": "has already been taken"}]}}`. Apps show the details next to
/// the fields.
public struct ValidationFailure: Error, Sendable {
    /// One problem with one field.
    public struct Detail: Codable, Sendable, Equatable {
        /// Machine code such as `ERR_TAKEN`, `ERR_BLANK`, `ERR_INVALID`, `ERR_TOO_LONG`.
        public var error: String
        /// The Rails message without the field name, such as "has already been taken".
        public var description: String
    }

    /// Problems by field, in the order found.
    public private(set) var details: [(field: String, detail: Detail)] = []

    /// No problems yet.
    public init() {}

    /// Records that `field` (a parameter name) has a problem `code` described by `message`.
    public mutating func add(_ field: String, _ code: String, _ message: String) {
        details.append((field, Detail(error: code, description: message)))
    }

    /// Whether nothing was recorded.
    public var isEmpty: Bool { details.isEmpty }

    /// "Validation failed: Username has already been taken, Agreement must be accepted".
    public var message: String {
        "Validation failed: " + details.map { "\(Self.humanize($0.field)) \($0.detail.description)" }.joined(separator: ", ")
    }

    private static func humanize(_ field: String) -> String {
        let spaced = field.replacingOccurrences(of: "_", with: " ")
        return spaced.prefix(1).uppercased() + spaced.dropFirst()
    }
}
