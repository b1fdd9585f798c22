import Activity
import Storage

/// The HTML page browsers get for a post.
enum StatusPage {
    /// Renders a post with its photos; the caption is already sanitised HTML.
    static func render(_ post: Post, author: Account, media: [MediaAttachment], urls: NodeURLs) -> String {
        let name = HTMLText.escape(author.displayName.isEmpty ? author.username : author.displayName)
        let photos = media.map { item in
            let src = HTMLText.escape(item.remoteUrl ?? item.filePath.map { "\(urls.base)/media/\($0)" } ?? "")
            return "<img src=\"\(src)\" alt=\"\(HTMLText.escape(item.description))\" style=\"max-width:100%\">"
        }.joined()
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(name): \(HTMLText.escape(HTMLSanitizer.plainText(post.content).prefix(60).description))</title>
            <link rel="alternate" type="application/activity+json" href="\(HTMLText.escape(post.uri))">
            </head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:1rem">
            <p><a href="\(HTMLText.escape(author.url ?? author.uri))">\(name)</a></p>
            \(photos)
            <div class="caption">\(post.content)</div>
            <p><time datetime="\(post.createdAt.formatted(.iso8601))">\(post.createdAt.formatted(.iso8601))</time></p>
            </body></html>
            """
    }
}
