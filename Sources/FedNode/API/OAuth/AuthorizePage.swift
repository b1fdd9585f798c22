import Core
import Foundation
import Hummingbird

/// The HTML pages of `/oauth/authorize`: the login form, the out-of-band code and errors.
/// Every value from the request or the app is escaped; the pages refuse to be framed, so no
/// other site can overlay the form (clickjacking), and are never cached.
enum AuthorizePage {
    /// The form where the person signs in and authorizes `request.app`.
    /// - Parameters:
    ///   - email: The email typed last time, kept after a failed attempt.
    ///   - error: The message to show above the form.
    static func form(_ request: AuthorizationRequest, nodeName: String, email: String = "", error: String? = nil,
                     status: HTTPResponse.Status = .ok) -> Response {
        let hidden: [(String, String?)] = [
            ("client_id", request.app.clientId), ("redirect_uri", request.redirectURI), ("response_type", "code"),
            ("scope", request.scopes.description), ("state", request.state), ("code_challenge", request.codeChallenge),
            ("code_challenge_method", request.codeChallengeMethod), ("lang", request.language),
        ]
        let fields = hidden.compactMap { name, value in
            value.map { "<input type=\"hidden\" name=\"\(name)\" value=\"\(HTMLText.escape($0))\">" }
        }.joined(separator: "\n")
        let scopes = request.scopes.names.sorted().map { "<li><code>\(HTMLText.escape($0))</code></li>" }.joined()
        let body = """
            <h1>Authorize \(HTMLText.escape(request.app.name))</h1>
            <p>\(HTMLText.escape(request.app.name)) asks to use your account on \(HTMLText.escape(nodeName)) with these permissions:</p>
            <ul>\(scopes)</ul>
            \(error.map { "<p class=\"error\" role=\"alert\">\(HTMLText.escape($0))</p>" } ?? "")
            <form method="post" action="/oauth/authorize">
            \(fields)
            <label>Email <input type="email" name="email" value="\(HTMLText.escape(email))" autocomplete="username" required autofocus></label>
            <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
            <button type="submit" name="decision" value="allow">Authorize</button>
            <button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
            </form>
            """
        return page(title: "Authorize \(request.app.name)", body: body, language: request.language, status: status)
    }

    /// The code for an out-of-band app, to be copied into it.
    static func code(_ code: String, app: String, language: String) -> Response {
        let body = """
            <h1>Authorization code</h1>
            <p>Copy this code and paste it into \(HTMLText.escape(app)):</p>
            <p><input type="text" name="code" id="code" class="oauth-code" readonly value="\(HTMLText.escape(code))" size="50"></p>
            """
        return page(title: "Authorization code", body: body, language: language, status: .ok)
    }

    /// An error the person must see (an unknown client, a bad redirect URI, a refused request).
    static func error(_ message: String, status: HTTPResponse.Status = .badRequest, language: String = "en") -> Response {
        page(title: "Authorization error", body: "<h1>Authorization error</h1>\n<p>\(HTMLText.escape(message))</p>", language: language, status: status)
    }

    private static func page(title: String, body: String, language: String, status: HTTPResponse.Status) -> Response {
        let html = """
            <!DOCTYPE html>
            <html lang="\(HTMLText.escape(language))">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(HTMLText.escape(title))</title>
            <style>
            body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; }
            label { display: block; margin: 0.75rem 0; }
            input[type=email], input[type=password], input[type=text] { display: block; width: 100%; padding: 0.4rem; }
            .error { color: #b00020; }
            </style>
            </head>
            <body>
            \(body)
            </body>
            </html>

            """
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .init("X-Frame-Options")!: "DENY",
            .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        ]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
