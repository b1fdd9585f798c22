import Core

extension APIStatus {
    /// The same status carrying its source `text`, as Mastodon answers a delete so that apps
    /// can offer "delete and redraft".
    func withText(_ text: String) -> APIStatus {
        let viewer = favourited.map {
            APIStatus.ViewerState(reblogged: reblogged ?? false, favourited: $0, bookmarked: bookmarked ?? false, muted: muted ?? false,
                                  pinned: pinned)
        }
        var copy = APIStatus(
            id: id, uri: uri, url: url, account: account, inReplyToId: inReplyToId, inReplyToAccountId: inReplyToAccountId,
            reblog: reblog?.value, content: content, createdAt: createdAt, editedAt: editedAt, repliesCount: repliesCount,
            reblogsCount: reblogsCount, favouritesCount: favouritesCount, viewer: viewer, sensitive: sensitive,
            spoilerText: spoilerText, visibility: visibility, mediaAttachments: mediaAttachments, mentions: mentions, tags: tags,
            application: application, language: language, text: text)
        copy.card = card
        copy.poll = poll
        return copy
    }
}
