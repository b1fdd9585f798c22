import Core
import HTTPTypes
import Hummingbird

/// The small HTML pages of the emailed-link flows (forgotten password, email confirmation).
/// Plain semantic HTML with no inline script or style, so the CSP allows nothing but itself;
/// every value is escaped.
enum AccountMailPages {
    /// The "forgot your password?" form.
    static func resetRequest(nodeName: String, notice: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        PlainPage.render(title: "Forgot your password?", status: status, body: """
            <h1>Forgot your password?</h1>
            \(paragraph(notice))
            <p>Enter the email address you sign in with on \(HTMLText.escape(nodeName)); we will send you a link to choose a new password.</p>
            <form method="post" action="/auth/password">
            <p><label for="email">Email</label><br><input id="email" name="email" type="email" autocomplete="email" required></p>
            <p><button type="submit">Send me a reset link</button></p>
            </form>
            """)
    }

    /// The "choose a new password" form of a reset link.
    static func newPassword(secret: String, username: String, error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        PlainPage.render(title: "Choose a new password", status: status, body: """
            <h1>Choose a new password</h1>
            <p>For <strong>@\(HTMLText.escape(username))</strong>. Every app and browser signed in to this account will be signed out.</p>
            \(paragraph(error, role: "alert"))
            <form method="post" action="/auth/password/edit">
            <input type="hidden" name="reset_password_token" value="\(HTMLText.escape(secret))">
            <p><label for="password">New password (at least 8 characters)</label><br><input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required></p>
            <p><label for="password_confirmation">Repeat the new password</label><br><input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" required></p>
            <p><button type="submit">Change password</button></p>
            </form>
            """)
    }

    /// A page with one heading and one message.
    static func message(_ title: String, _ text: String, status: HTTPResponse.Status = .ok) -> Response {
        PlainPage.render(title: title, status: status, body: "<h1>\(HTMLText.escape(title))</h1>\n<p>\(HTMLText.escape(text))</p>")
    }

    private static func paragraph(_ text: String?, role: String? = nil) -> String {
        guard let text else { return "" }
        return "<p\(role.map { " role=\"\($0)\"" } ?? "")><strong>\(HTMLText.escape(text))</strong></p>"
    }

}
