import Activity
import Foundation
import Storage

/// The JSON a Web Push message carries, as Mastodon's `Web::NotificationSerializer` writes it:
/// enough for a service worker or an app extension to show the notification without a request,
/// plus the token and id to fetch the rest.
package struct PushPayload: Encodable, Equatable {
    /// The subscription's access token, so the app knows which session the push is for.
    package var accessToken: String
    /// The recipient's language (`en`: accounts have no locale setting yet).
    package var preferredLocale: String
    /// The notification's id (a number, as Mastodon sends it).
    package var notificationId: Int64
    /// `mention`, `follow`, `favourite`...
    package var notificationType: String
    /// The avatar of the account that caused it.
    package var icon: String
    /// One line: who did what.
    package var title: String
    /// The post's text (or the account's bio), plain, at most 140 characters.
    package var body: String

    /// The longest body, as Mastodon truncates.
    package static let maxBody = 140

    /// The payload for `notification`, caused by `from` about `post`, sent to `subscription`.
    package init(notification: AccountNotification, from: Account, post: Post?, subscription: PushSubscription, icon: String) {
        accessToken = subscription.accessToken
        preferredLocale = "en"
        notificationId = notification.id
        notificationType = notification.type.rawValue
        self.icon = icon
        title = Self.title(notification.type, name: from.displayName.isEmpty ? from.username : from.displayName)
        let source = post.map { post in
            !post.spoilerText.isEmpty ? post.spoilerText : (post.local && !post.text.isEmpty ? post.text : HTMLSanitizer.plainText(post.content))
        } ?? HTMLSanitizer.plainText(from.note)
        body = Self.truncate(source)
    }

    /// Mastodon's English `notification_mailer.<type>.subject` lines.
    package static func title(_ type: NotificationType, name: String) -> String {
        switch type {
        case .favourite: "\(name) favorited your post"
        case .follow: "\(name) is now following you"
        case .followRequest: "Pending follower: \(name)"
        case .mention: "\(name) mentioned you"
        case .reblog: "\(name) boosted your post"
        case .status: "\(name) just posted"
        case .update: "\(name) edited a post"
        case .move: "\(name) has moved to another account"
        case .poll: "A poll has ended"
        }
    }

    /// At most `maxBody` characters, an ellipsis ending a cut text (as Rails' `truncate`).
    package static func truncate(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count > maxBody else { return trimmed }
        return String(trimmed.prefix(maxBody - 3)) + "..."
    }

    /// The payload as JSON bytes (snake_case keys).
    package func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { [UInt8]($0) } ?? []
    }
}
