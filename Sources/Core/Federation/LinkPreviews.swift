import Activity
import Foundation
import Storage

/// Link preview cards: when a public post links a page (a link that is not a mention or a
/// hashtag), the first such page is read in the background through the node's SSRF-guarded
/// client (at most 1 MiB of `text/html`, 10 seconds, the client's redirect limit and address
/// policy on every hop) and its OpenGraph tags become a `preview_cards` row shared by every post
/// linking the same URL. A failed fetch leaves the post without a card; nothing waits on it.
package enum LinkPreviews {
    /// Largest page read.
    package static let maxBytes = 1 << 20
    /// Longest a page fetch may take, redirects included.
    package static let timeout: Duration = .seconds(10)

    /// Starts finding the card of `post` when it is a public post linking a page; returns at once.
    package static func start(after post: Post, node: Node) async {
        guard post.visibility == .public, post.reblogOfId == nil,
              let url = LinkPreviewPage.firstLink(inPostHTML: post.content) else { return }
        await node.backgroundJobs.start("card \(post.id)") {
            await attach(url, to: post.id, node: node)
        }
    }

    /// Shows the card of `url` on `postId`, reading the page unless a card for it is stored.
    /// - Returns: Whether the post got a card.
    @discardableResult
    package static func attach(_ url: String, to postId: Int64, node: Node) async -> Bool {
        do {
            if try await node.database.write({ db in try db.previewCards.attachKnown(url: url, to: postId) }) { return true }
            guard let page = await fetch(url, node: node) else { return false }
            let card = card(for: url, from: page)
            _ = try await node.database.write { db in try db.previewCards.attach(card, to: postId) }
            return true
        } catch {
            node.logger.info("link preview not stored", metadata: ["url": "\(url.prefix(200))", "error": "\(error)"])
            return false
        }
    }

    /// Reads `url` as HTML and describes it, or `nil` when it is not an HTML page that
    /// answered 200 with a title.
    package static func fetch(_ url: String, node: Node) async -> LinkPreviewPage? {
        let request = HTTPClientRequest(url: url, headers: [("Accept", "text/html,application/xhtml+xml")],
                                        maxResponseBytes: maxBytes, timeout: timeout)
        let response: HTTPClientResponse
        do { response = try await node.httpClient.execute(request) } catch {
            node.logger.info("link preview fetch failed", metadata: ["url": "\(url.prefix(200))", "error": "\(error)"])
            return nil
        }
        let type = (response.header("Content-Type") ?? "").lowercased()
        guard response.status == 200, type.hasPrefix("text/html") || type.hasPrefix("application/xhtml+xml") else { return nil }
        let page = LinkPreviewPage.parse(String(decoding: response.body, as: UTF8.self))
        return page.title.isEmpty ? nil : page
    }

    /// The card row for `url` from what its page says.
    package static func card(for url: String, from page: LinkPreviewPage) -> PreviewCard {
        var card = PreviewCard(url: url)
        card.title = page.title
        card.description = page.description
        card.type = page.type
        card.authorName = page.authorName
        card.providerName = page.providerName
        card.imageUrl = page.image
        card.width = page.image == nil ? 0 : page.width
        card.height = page.image == nil ? 0 : page.height
        return card
    }
}
