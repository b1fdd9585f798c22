import Core

// The JSON of the entities every list renders, written directly (`APIDirectJSON`): the keys of
// each type's stored properties in declaration order, as its synthesized Codable conformance
// writes them. `DirectJSONTests` checks each against the Codable encoding.

extension APIStatus: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("id", id)
        object.field("uri", uri)
        object.nullable("url", url)
        try object.field("account", account)
        object.nullable("in_reply_to_id", inReplyToId)
        object.nullable("in_reply_to_account_id", inReplyToAccountId)
        try object.nullable("reblog", reblog)
        object.field("content", content)
        object.field("created_at", createdAt)
        object.nullable("edited_at", editedAt)
        try object.field("emojis", emojis)
        object.field("replies_count", repliesCount)
        object.field("reblogs_count", reblogsCount)
        object.field("favourites_count", favouritesCount)
        object.ifPresent("reblogged", reblogged)
        object.ifPresent("favourited", favourited)
        object.ifPresent("muted", muted)
        object.ifPresent("bookmarked", bookmarked)
        object.ifPresent("pinned", pinned)
        object.field("sensitive", sensitive)
        object.field("spoiler_text", spoilerText)
        object.field("visibility", visibility)
        try object.field("media_attachments", mediaAttachments)
        try object.field("mentions", mentions)
        try object.field("tags", tags)
        try object.nullable("card", card)
        try object.nullable("poll", poll)
        try object.nullable("application", application)
        object.nullable("language", language)
        object.ifPresent("text", text)
        try object.ifPresentEncoded("filtered", filtered)
        object.end(&output)
    }
}

extension APIPoll: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("id", id)
        object.nullable("expires_at", expiresAt)
        object.field("expired", expired)
        object.field("multiple", multiple)
        object.field("votes_count", votesCount)
        object.nullable("voters_count", votersCount)
        try object.field("options", options)
        try object.field("emojis", emojis)
        object.ifPresent("voted", voted)
        try object.ifPresentEncoded("own_votes", ownVotes)
        object.end(&output)
    }
}

extension APIPoll.Option: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("title", title)
        object.nullable("votes_count", votesCount)
        object.end(&output)
    }
}

extension APIStatusBox: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws { try value.writeJSON(to: &output) }
}

extension APIEmpty: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.end(&output)
    }
}

extension APIMention: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("id", id)
        object.field("username", username)
        object.field("url", url)
        object.field("acct", acct)
        object.end(&output)
    }
}

extension APITag: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("name", name)
        object.field("url", url)
        try object.ifPresent("history", history)
        object.ifPresent("following", following)
        object.end(&output)
    }
}

extension APITagHistory: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("day", day)
        object.field("uses", uses)
        object.field("accounts", accounts)
        object.end(&output)
    }
}

extension APIApplication: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("name", name)
        object.nullable("website", website)
        object.end(&output)
    }
}

extension APIAccount: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("id", id)
        object.field("username", username)
        object.field("acct", acct)
        object.field("display_name", displayName)
        object.field("first_name", firstName)
        object.field("last_name", lastName)
        object.field("locked", locked)
        object.field("bot", bot)
        object.field("discoverable", discoverable)
        object.field("group", group)
        object.field("created_at", createdAt)
        object.field("note", note)
        object.field("url", url)
        object.field("uri", uri)
        object.field("avatar", avatar)
        object.field("avatar_static", avatarStatic)
        object.field("header", header)
        object.field("header_static", headerStatic)
        object.field("followers_count", followersCount)
        object.field("following_count", followingCount)
        object.field("statuses_count", statusesCount)
        object.nullable("last_status_at", lastStatusAt)
        try object.field("emojis", emojis)
        try object.field("fields", fields)
        try object.ifPresent("source", source)
        try object.ifPresent("moved", moved)
        object.field("indexable", indexable)
        object.field("hide_collections", hideCollections)
        object.ifPresent("noindex", noindex)
        try object.field("roles", roles)
        try object.ifPresent("role", role)
        object.end(&output)
    }
}

extension APIMovedAccount: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws { try account.writeJSON(to: &output) }
}

extension APIField: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("name", name)
        object.field("value", value)
        object.nullable("verified_at", verifiedAt)
        object.end(&output)
    }
}

extension APIEmoji: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("shortcode", shortcode)
        object.field("url", url)
        object.field("static_url", staticUrl)
        object.field("visible_in_picker", visibleInPicker)
        object.end(&output)
    }
}

extension APISource: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("note", note)
        try object.field("fields", fields)
        object.field("privacy", privacy)
        object.field("sensitive", sensitive)
        object.nullable("language", language)
        object.field("follow_requests_count", followRequestsCount)
        object.field("first_name", firstName)
        object.field("last_name", lastName)
        object.field("discoverable", discoverable)
        object.field("indexable", indexable)
        object.field("hide_collections", hideCollections)
        object.end(&output)
    }
}

extension APIAccountRole: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("id", id)
        object.field("name", name)
        object.field("color", color)
        object.end(&output)
    }
}

extension APIRole: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("id", id)
        object.field("name", name)
        object.field("color", color)
        object.field("permissions", permissions)
        object.field("highlighted", highlighted)
        object.end(&output)
    }
}

extension APIMediaAttachment: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("id", id)
        object.field("type", type)
        object.nullable("url", url)
        object.nullable("preview_url", previewUrl)
        object.nullable("remote_url", remoteUrl)
        object.nullable("text_url", textUrl)
        try object.field("meta", meta)
        object.nullable("description", description)
        object.nullable("blurhash", blurhash)
        object.end(&output)
    }
}

extension APIMediaAttachment.Meta: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        try object.ifPresent("original", original)
        try object.ifPresent("small", small)
        try object.ifPresent("focus", focus)
        object.end(&output)
    }
}

extension APIMediaAttachment.Size: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("width", width)
        object.field("height", height)
        object.field("size", size)
        try object.field("aspect", aspect)
        object.end(&output)
    }
}

extension APIMediaAttachment.Focus: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        try object.field("x", x)
        try object.field("y", y)
        object.end(&output)
    }
}

extension APIPreviewCard: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("url", url)
        object.field("title", title)
        object.field("description", description)
        object.nullable("language", language)
        object.field("type", type)
        try object.field("authors", authors)
        object.field("author_name", authorName)
        object.field("author_url", authorUrl)
        object.field("provider_name", providerName)
        object.field("provider_url", providerUrl)
        object.field("html", html)
        object.field("width", width)
        object.field("height", height)
        object.nullable("image", image)
        object.field("image_description", imageDescription)
        object.field("embed_url", embedUrl)
        object.nullable("blurhash", blurhash)
        object.nullable("published_at", publishedAt)
        try object.ifPresent("history", history)
        object.end(&output)
    }
}

extension APINotification: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        var object = JSONObjectWriter(&output)
        object.field("id", id)
        object.field("type", type)
        object.field("created_at", createdAt)
        try object.field("account", account)
        try object.ifPresent("status", status)
        object.field("group_key", groupKey)
        object.end(&output)
    }
}
