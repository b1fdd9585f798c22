import Core
import Foundation
import Storage

/// The redirect URI rules of app registration and authorization (RFC 6749 3.1.2): absolute,
/// no fragment; native apps' custom schemes and the out-of-band URN are allowed, as Mastodon
/// allows them.
enum RedirectURIs {
    /// The out-of-band URI: the code is shown to the person instead of being sent anywhere.
    static let outOfBand = "urn:ietf:wg:oauth:2.0:oob"
    /// Longest URI accepted.
    static let maxLength = 2000
    /// Schemes that could run code or read files if a browser followed them.
    private static let forbiddenSchemes: Set<String> = ["javascript", "data", "vbscript", "file", "about", "blob"]

    /// The URIs in `values`, each of which may hold several separated by newlines or spaces.
    static func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split(whereSeparator: { $0.isWhitespace }).map(String.init) }
    }

    /// The URIs an app registered.
    static func registered(_ app: OAuthApp) -> [String] { split([app.redirectUris]) }

    /// Why `uri` cannot be registered (Doorkeeper's wording), or `nil` when it can.
    static func problem(with uri: String) -> String? {
        if uri == outOfBand { return nil }
        guard uri.count <= maxLength else { return "is too long (maximum is \(maxLength) characters)" }
        guard let components = URLComponents(string: uri) else { return "must be a valid URI." }
        guard let scheme = components.scheme?.lowercased(), !scheme.isEmpty else { return "must be an absolute URI." }
        guard !forbiddenSchemes.contains(scheme) else { return "is forbidden by the server." }
        guard components.fragment == nil else { return "cannot contain a fragment." }
        if scheme == "http" || scheme == "https", (components.host ?? "").isEmpty { return "must be an absolute URI." }
        return nil
    }

    /// `uri` with `items` added to its query (RFC 6749 4.1.2: the query the app registered is kept).
    static func appending(_ items: [(String, String?)], to uri: String) -> String {
        let pairs = items.compactMap { name, value in value.map { "\(name)=\(encode($0))" } }
        guard !pairs.isEmpty else { return uri }
        return uri + (uri.contains("?") ? "&" : "?") + pairs.joined(separator: "&")
    }

    /// Percent-encoding for a query value (everything but RFC 3986 unreserved characters).
    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
