/// The page at `/`: what this node is, for people and for servers that check a domain is alive
/// by fetching its root before they deliver to it.
enum LandingPage {
    /// Renders the page; every value is escaped.
    /// - Parameters:
    ///   - name: The node's name (`--node-name`).
    ///   - domain: The node's domain.
    ///   - usage: Accounts and posts to show.
    static func render(name: String, domain: String, usage: UsageCounts) -> String {
        let title = HTMLText.escape(name)
        let host = HTMLText.escape(domain)
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) (\(host))</title>
            <link rel="alternate" type="application/json" href="/.well-known/nodeinfo">
            <style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:1rem;line-height:1.5}</style>
            </head><body>
            <h1>\(title)</h1>
            <p><strong>\(host)</strong> is a FedNode server: a community photo-sharing node on the fediverse.
            Its people post photos and follow each other and people on Mastodon, Pixelfed, GoToSocial and other servers.</p>
            <p><strong>\(usage.users)</strong> people · <strong>\(usage.localPosts)</strong> posts</p>
            <p>Use it from any Mastodon app by entering <code>\(host)</code> as the server.
            Server details: <a href="/nodeinfo/2.1">NodeInfo</a>, <a href="/api/v2/instance">instance</a>.</p>
            </body></html>
            """
    }
}
