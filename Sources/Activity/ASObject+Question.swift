import Foundation

/// A poll as a `Question` carries it, in the shape Mastodon, Misskey and Pleroma send: the
/// choices in `oneOf` (one answer) or `anyOf` (several), each a `Note` whose `name` is the
/// choice and whose `replies.totalItems` counts its votes; `endTime`, `closed` (a time, or
/// `true`) and Mastodon's `votersCount`.
public struct ASPoll: Sendable, Equatable {
    /// One choice and its votes.
    public struct Option: Sendable, Equatable {
        /// The choice as shown.
        public var name: String
        /// Votes it has (0 when not told).
        public var votes: Int

        /// Creates a choice.
        public init(name: String, votes: Int) {
            self.name = name
            self.votes = votes
        }
    }

    /// The choices, in order.
    public var options: [Option]
    /// Whether several choices may be picked (`anyOf`).
    public var multiple: Bool
    /// When voting ends.
    public var endTime: Date?
    /// When voting ended, once it has.
    public var closed: Date?
    /// People who voted (Mastodon's `votersCount`).
    public var votersCount: Int?

    /// Creates a poll.
    public init(options: [Option], multiple: Bool, endTime: Date?, closed: Date?, votersCount: Int?) {
        self.options = options
        self.multiple = multiple
        self.endTime = endTime
        self.closed = closed
        self.votersCount = votersCount
    }
}

extension ASObject {
    /// The most choices read from a remote poll; more are dropped.
    public static let maxPollOptions = 32

    /// The poll of a `Question`; `nil` for an object with no choices. Setting it writes
    /// `oneOf`/`anyOf`, `endTime`, `closed` and `votersCount`.
    public var poll: ASPoll? {
        get {
            let any = extra["anyOf"]?.asList ?? []
            let list = any.isEmpty ? (extra["oneOf"]?.asList ?? []) : any
            let options = list.prefix(Self.maxPollOptions).compactMap { choice -> ASPoll.Option? in
                guard let members = choice.objectValue, let name = members.string("name"), !name.isEmpty else { return nil }
                let votes = members["replies"]?.objectValue?.int("totalItems") ?? 0
                return ASPoll.Option(name: name, votes: max(0, votes))
            }
            guard !options.isEmpty else { return nil }
            let closed: Date? = switch extra["closed"] {
            case .string(let time)?: ASDate.parse(time)
            case .bool(true)?: extra["endTime"]?.stringValue.flatMap(ASDate.parse) ?? Date(timeIntervalSince1970: 0)
            default: nil
            }
            let voters = extra["votersCount"].flatMap { $0.intValue }.map { max(0, $0) }
            return ASPoll(options: options, multiple: !any.isEmpty, endTime: extra["endTime"]?.stringValue.flatMap(ASDate.parse),
                          closed: closed, votersCount: voters)
        }
        set {
            for key in ["oneOf", "anyOf", "endTime", "closed", "votersCount"] { extra[key] = nil }
            guard let poll = newValue else { return }
            let choices = poll.options.map { option -> JSONValue in
                .object(["type": .string("Note"), "name": .string(option.name),
                         "replies": .object(["type": .string("Collection"), "totalItems": .number(Double(option.votes))])])
            }
            extra[poll.multiple ? "anyOf" : "oneOf"] = .array(choices)
            if let end = poll.endTime { extra["endTime"] = .string(ASDate.format(end)) }
            if let closed = poll.closed { extra["closed"] = .string(ASDate.format(closed)) }
            if let voters = poll.votersCount { extra["votersCount"] = .number(Double(voters)) }
        }
    }
}
