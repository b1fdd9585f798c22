import Activity
import Storage

/// Posts, followers and following counts shown on a profile.
struct ProfileCounts: Sendable {
    var posts: Int
    var followers: Int
    var following: Int

    /// Reads the counts of a local account from its stored counters (one row, whatever its
    /// number of followers), the same figures the client API shows.
    static func read(_ db: Transaction, accountId: Int64) throws -> ProfileCounts {
        let counts = try db.accounts.entityCounts(of: accountId)
        return ProfileCounts(posts: counts.statuses, followers: counts.followers, following: counts.following)
    }
}

/// The HTML profile page browsers get for `/@NAME` and `/users/NAME`.
enum ProfilePage {
    /// Renders the page; every value is escaped, the bio is sanitised HTML.
    static func render(_ account: Account, counts: ProfileCounts, urls: NodeURLs) -> String {
        let name = HTMLText.escape(account.displayName.isEmpty ? account.username : account.displayName)
        let handle = HTMLText.escape("@\(account.username)@\(urls.domain)")
        let fullName = HTMLText.escape([account.firstName, account.lastName].filter { !$0.isEmpty }.joined(separator: " "))
        let links = AccountToAS.propertyValues(account).map { field in
            "<li><strong>\(HTMLText.escape(field.name ?? ""))</strong> \(HTMLSanitizer.sanitize(field.value ?? ""))</li>"
        }.joined()
        let avatar = urls.mediaURL(account.avatarUrl).map { "<img class=\"avatar\" src=\"\(HTMLText.escape($0))\" alt=\"\" width=\"120\" height=\"120\">" } ?? ""
        let cover = urls.mediaURL(account.headerUrl).map { "<img class=\"cover\" src=\"\(HTMLText.escape($0))\" alt=\"\">" } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(name) (\(handle))</title>
            <link rel="alternate" type="application/activity+json" href="\(HTMLText.escape(account.uri))">
            <style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:1rem}
            .cover{width:100%;max-height:12rem;object-fit:cover}.avatar{border-radius:50%}ul{padding-left:1.2rem}</style>
            </head><body>
            \(cover)
            <header>\(avatar)<h1>\(name)</h1><p>\(handle)</p>\(fullName.isEmpty ? "" : "<p>\(fullName)</p>")</header>
            <section class="bio">\(HTMLSanitizer.sanitize(account.note))</section>
            <ul class="links">\(links)</ul>
            <p><strong>\(counts.posts)</strong> posts · <strong>\(counts.followers)</strong> followers · <strong>\(counts.following)</strong> following</p>
            </body></html>
            """
    }
}
