import Activity
import Core
import HTTPTypes
import Hummingbird
import Storage

/// The pages of `/authorize_interaction`: plain semantic HTML, no script, every value escaped.
enum InteractionPages {
    /// What `found` is, and the sign-in form that acts on it.
    static func form(_ found: RemoteLookup.Found, uri: String, nodeName: String, email: String = "", error: String? = nil,
                     status: HTTPResponse.Status = .ok) -> Response {
        let (title, summary, button): (String, String, String)
        switch found {
        case .account(let account):
            let name = account.displayName.isEmpty ? account.username : account.displayName
            title = "Follow \(name)"
            summary = "<p><strong>\(HTMLText.escape(name))</strong> @\(HTMLText.escape(account.acct))</p>"
                + "<p>\(HTMLText.escape(String(HTMLSanitizer.plainText(account.note).prefix(500))))</p>"
            button = "Follow"
        case .post(let post):
            title = "Like a post"
            summary = "<blockquote>\(HTMLText.escape(String(HTMLSanitizer.plainText(post.content).prefix(500))))</blockquote>"
            button = "Like"
        }
        let alert = error.map { "<p role=\"alert\"><strong>\(HTMLText.escape($0))</strong></p>" } ?? ""
        return PlainPage.render(title: title, status: status, body: """
            <h1>\(HTMLText.escape(title))</h1>
            \(summary)
            \(alert)
            <p>Sign in to your account on \(HTMLText.escape(nodeName)) to continue.</p>
            <form method="post" action="/authorize_interaction">
            <input type="hidden" name="uri" value="\(HTMLText.escape(uri))">
            <p><label for="email">Email</label><br><input id="email" name="email" type="email" autocomplete="email" value="\(HTMLText.escape(email))" required></p>
            <p><label for="password">Password</label><br><input id="password" name="password" type="password" autocomplete="current-password" required></p>
            <p><button type="submit">\(button)</button></p>
            </form>
            """)
    }

    /// The outcome of an interaction.
    static func done(_ text: String) -> Response {
        PlainPage.render(title: "Done", status: .ok, body: "<h1>Done</h1>\n<p>\(HTMLText.escape(text))</p>")
    }

    /// `uri` names nothing this node can find (404 page).
    static func notFound(uri: String, reason: String) -> Response {
        PlainPage.render(title: "Not found", status: .notFound, body: """
            <h1>Not found</h1>
            <p>Nothing could be found at <code>\(HTMLText.escape(String(uri.prefix(300))))</code>: \(HTMLText.escape(reason))</p>
            """)
    }
}
