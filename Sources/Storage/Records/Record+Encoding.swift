import Foundation
import GRDB

// Hand-written row encoders for the records written on the federation paths (an inbound
// activity's post, photos, mentions, hashtags and notifications; the inbox queue; a post's
// deliveries). `Codable` encoding converts every property name to snake_case at every write
// and goes through the encoder's containers: in the inbox drain's profile, `Media.save` alone
// took 10 % of the server's samples, most of it in `_convertToSnakeCase` (see
// docs/benchmarks-history.md). Each encoder writes every stored property under its column
// name, the same values the `Codable` encoding writes (`RecordEncodingTests` compares them);
// a property added to one of these records must be added here too, which that test catches.

extension Post {
    /// The `posts` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uri"] = uri
        container["url"] = url
        container["account_id"] = accountId
        container["local"] = local
        container["in_reply_to_id"] = inReplyToId
        container["in_reply_to_uri"] = inReplyToUri
        container["in_reply_to_account_id"] = inReplyToAccountId
        container["reblog_of_id"] = reblogOfId
        container["content"] = content
        container["text"] = text
        container["spoiler_text"] = spoilerText
        container["sensitive"] = sensitive
        container["visibility"] = visibility
        container["language"] = language
        container["created_at"] = createdAt
        container["edited_at"] = editedAt
        container["updated_at"] = updatedAt
    }
}

extension MediaAttachment {
    /// The `media_attachments` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["account_id"] = accountId
        container["post_id"] = postId
        container["position"] = position
        container["type"] = type
        container["content_type"] = contentType
        container["file_path"] = filePath
        container["thumbnail_path"] = thumbnailPath
        container["remote_url"] = remoteUrl
        container["preview_remote_url"] = previewRemoteUrl
        container["thumbnail_width"] = thumbnailWidth
        container["thumbnail_height"] = thumbnailHeight
        container["description"] = description
        container["focus_x"] = focusX
        container["focus_y"] = focusY
        container["width"] = width
        container["height"] = height
        container["blurhash"] = blurhash
        container["file_size"] = fileSize
        container["created_at"] = createdAt
    }
}

extension AccountNotification {
    /// The `notifications` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["account_id"] = accountId
        container["from_account_id"] = fromAccountId
        container["type"] = type
        container["post_id"] = postId
        container["dedupe_key"] = dedupeKey
        container["created_at"] = createdAt
    }
}

extension PostMention {
    /// The `mentions` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["post_id"] = postId
        container["account_id"] = accountId
    }
}

extension PostHashtag {
    /// The `post_hashtags` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["post_id"] = postId
        container["hashtag_id"] = hashtagId
    }
}

extension Hashtag {
    /// The `hashtags` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
        container["created_at"] = createdAt
    }
}

extension Like {
    /// The `likes` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["account_id"] = accountId
        container["post_id"] = postId
        container["uri"] = uri
        container["created_at"] = createdAt
    }
}

extension Follow {
    /// The `follows` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["account_id"] = accountId
        container["target_account_id"] = targetAccountId
        container["uri"] = uri
        container["state"] = state
        container["created_at"] = createdAt
    }
}

extension HomeTimelineEntry {
    /// The `home_timeline` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["account_id"] = accountId
        container["post_id"] = postId
        container["author_id"] = authorId
    }
}

extension InboxItem {
    /// The `inbox_queue` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["activity_id"] = activityId
        container["actor_uri"] = actorUri
        container["recipient_account_id"] = recipientAccountId
        container["payload"] = payload
        container["attempts"] = attempts
        container["unfinished_attempts"] = unfinishedAttempts
        container["parked_at"] = parkedAt
        container["available_at"] = availableAt
        container["last_error"] = lastError
        container["received_at"] = receivedAt
    }
}

extension SeenActivity {
    /// The `seen_activities` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["origin"] = origin
        container["uri"] = uri
        container["type"] = type
        container["outcome"] = outcome
        container["seen_at"] = seenAt
    }
}

extension OutboxActivity {
    /// The `outbox_activities` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uri"] = uri
        container["account_id"] = accountId
        container["type"] = type
        container["post_id"] = postId
        container["payload"] = payload
        container["created_at"] = createdAt
    }
}

extension Delivery {
    /// The `delivery_queue` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["activity_uri"] = activityUri
        container["account_id"] = accountId
        container["inbox_url"] = inboxUrl
        container["domain"] = domain
        container["payload"] = payload
        container["attempts"] = attempts
        container["next_attempt_at"] = nextAttemptAt
        container["last_status"] = lastStatus
        container["last_error"] = lastError
        container["created_at"] = createdAt
    }
}

extension DeliveryDomain {
    /// The `delivery_domains` row (see above).
    public func encode(to container: inout PersistenceContainer) {
        container["domain"] = domain
        container["failing_since"] = failingSince
        container["last_failure_at"] = lastFailureAt
        container["last_success_at"] = lastSuccessAt
        container["unavailable"] = unavailable
    }
}
