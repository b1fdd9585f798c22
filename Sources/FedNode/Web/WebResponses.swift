import Core
import Foundation
import HTTPTypes
import Hummingbird

/// The HTTP side of web pages: headers every page carries and redirects.
enum WebResponses {
    /// The pages' Content Security Policy: scripts, styles and fonts only from this node, never
    /// inline (so injected markup cannot run), images from anywhere the fediverse serves them.
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' https: http: data: blob:",
        "connect-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'",
    ].joined(separator: "; ")

    /// An HTML page with the security headers, never cached (it shows a person's own data).
    static func html(_ page: String, status: HTTPResponse.Status = .ok, cookies: [String] = []) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .contentSecurityPolicy: contentSecurityPolicy,
            .init("X-Frame-Options")!: "DENY",
            .init("X-Content-Type-Options")!: "nosniff",
            .init("Referrer-Policy")!: "same-origin",
            .vary: "Accept, Cookie",
        ]
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    /// A 303 to `location` (after a form, the browser fetches it with GET). The target is
    /// checked by `LocalRedirect`: one that is not a path on this node goes to `/` instead.
    static func redirect(_ location: String, cookies: [String] = []) -> Response {
        var headers: HTTPFields = [.location: LocalRedirect.target(location), .cacheControl: "no-store"]
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// A small JSON answer for the script's in-place updates.
    static func json(_ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
