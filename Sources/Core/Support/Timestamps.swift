import Activity
import Foundation

/// Times as the client API and the `X-RateLimit-Reset` header write them.
package enum Timestamps {
    /// ISO 8601 with milliseconds in UTC, as Mastodon writes times.
    package static func iso8601(_ date: Date) -> String {
        ASDate.formatMilliseconds(date) ?? date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Midnight UTC of the day, as Mastodon gives `Account.created_at`.
    package static func day(_ date: Date) -> String {
        ASDate.formatMilliseconds(date, dayOnly: true)
            ?? String(date.formatted(Date.ISO8601FormatStyle().year().month().day())) + "T00:00:00.000Z"
    }
}
