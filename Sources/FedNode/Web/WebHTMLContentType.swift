import Core
import Mustache

/// The web app's templates escape `{{value}}` with `HTMLText.escape` (every template starts
/// with the pragma that selects this content type; see `WebTemplates`).
struct WebHTMLContentType: MustacheContentType {
    /// The pragma's name for it.
    static let name = "FEDNODE_HTML"

    func escapeText(_ text: String) -> String { HTMLText.escape(text) }
}
