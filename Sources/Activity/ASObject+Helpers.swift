extension ASObject {
    /// Plain public addressing: `to` or `cc` holds the Public address in any form.
    public var isPublic: Bool {
        (to + cc).contains(where: ActivityStreams.isPublic)
    }

    /// Every addressee (`to`, `cc`, `bto`, `bcc`, `audience`), without duplicates, in order.
    public var recipients: [String] {
        var seen = Set<String>()
        return (to + cc + bto + bcc + audience).filter { seen.insert($0).inserted }
    }

    /// `content`, or when absent the `contentMap` entry (the only one, else the first by
    /// language tag so the choice is stable).
    public var effectiveContent: String? {
        if let content { return content }
        guard let contentMap else { return nil }
        return contentMap.keys.sorted().first.flatMap { contentMap[$0] }
    }

    /// True when `types` contains `type`.
    public func hasType(_ type: String) -> Bool {
        types.contains(type)
    }

    /// The shared inbox when the actor has one, else its own inbox (ActivityPub 7.1.3).
    public var deliveryInbox: String? {
        endpoints?.sharedInbox ?? inbox
    }
}
