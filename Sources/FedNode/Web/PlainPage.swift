import Core
import HTTPTypes
import Hummingbird

/// The frame of the node's small server-rendered pages (emailed links, remote interaction):
/// plain semantic HTML with no script or style, so the CSP allows nothing but its own forms.
enum PlainPage {
    /// `body` (already escaped HTML) in a page titled `title`, answered with `status`.
    static func render(title: String, status: HTTPResponse.Status, body: String) -> Response {
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(HTMLText.escape(title))</title>
            </head>
            <body>
            <main>
            \(body)
            </main>
            </body>
            </html>

            """
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .init("X-Frame-Options")!: "DENY",
            .contentSecurityPolicy: "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
        ]
        return Response(status: status, headers: headers, body: .init(byteBuffer: .init(string: html)))
    }
}
