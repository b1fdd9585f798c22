import Core
import Foundation
import Mustache

/// The web app's Mustache templates, the resources `Web/Templates/*.mustache`, parsed once.
/// A template includes another as a partial by its file name (`{{> card}}`).
enum WebTemplates {
    /// Every template, by file name without the extension.
    static let library: MustacheLibrary = load()

    /// Renders `model` with the template `name`.
    /// - Throws: `NodeError.internal` when the template is missing (a packaging mistake).
    static func render(_ name: String, _ model: Any) throws(NodeError) -> String {
        guard let html = library.render(model, withTemplate: name) else { throw .internal("missing web template \(name)") }
        return html
    }

    /// `template` with the pragma that selects `WebHTMLContentType` on a line of its own (a
    /// standalone tag, removed with its line), so the template's first line parses as before.
    static func withEscaping(_ template: String) -> String {
        _ = contentTypeRegistered
        return "{{% CONTENT_TYPE: \(WebHTMLContentType.name)}}\n" + template
    }

    /// Registers `WebHTMLContentType` with swift-mustache, once.
    private static let contentTypeRegistered: Void = MustacheContentTypes.register(WebHTMLContentType(), named: WebHTMLContentType.name)

    /// Reads and parses every template of the bundle; a template that does not parse is left
    /// out (and rendering it fails loudly), which the web tests would show at once.
    private static func load() -> MustacheLibrary {
        // `{{value}}` is escaped by `HTMLText.escape` (byte by byte) rather than by
        // swift-mustache's default, which escapes `Character` by `Character`, so a quote
        // followed by a combining mark went out unescaped, and cost an eighth of a feed page's
        // CPU. A partial starts with the default content type again, so every template names it.
        var library = MustacheLibrary()
        guard let directory = Bundle.module.resourceURL?.appendingPathComponent("Templates"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return library }
        for name in names where name.hasSuffix(".mustache") {
            guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else { continue }
            try? library.register(withEscaping(text), named: String(name.dropLast(".mustache".count)))
        }
        return library
    }
}
