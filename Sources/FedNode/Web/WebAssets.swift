import Core
import Foundation
import Hummingbird

/// The web app's stylesheet and script (resources `Web/Assets`), served under names that carry
/// a hash of their content (`/assets/app-1a2b3c4d5e6f.css`), so they can be cached forever:
/// a changed file gets a new name.
enum WebAssets {
    /// One served file.
    struct Asset: Sendable {
        /// Its fingerprinted path, as pages link it.
        let path: String
        /// Its `Content-Type`.
        let contentType: String
        /// Its bytes.
        let data: Data
    }

    /// The stylesheet.
    static let stylesheet = load("app", "css", type: "text/css; charset=utf-8")
    /// The progressive-enhancement script.
    static let script = load("app", "js", type: "text/javascript; charset=utf-8")

    /// The asset at `path`, if it is one of the current ones.
    static func asset(at path: String) -> Asset? {
        [stylesheet, script].first { $0.path == path }
    }

    private static func load(_ name: String, _ ext: String, type: String) -> Asset {
        let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Assets")
        let data = url.flatMap { try? Data(contentsOf: $0) } ?? Data()
        let hash = String(SHA256.hexDigest(data).prefix(12))
        return Asset(path: "/assets/\(name)-\(hash).\(ext)", contentType: type, data: data)
    }
}

/// `GET /assets/NAME-HASH.EXT`: the fingerprinted stylesheet and script, `immutable`.
struct WebAssetsController {
    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("assets/:file", use: serve)
    }

    /// The asset, or 404 for any other name (an old fingerprint included).
    @Sendable func serve(_ request: Request, context: NodeRequestContext) async throws -> Response {
        guard let asset = WebAssets.asset(at: request.uri.path) else { throw NodeError.notFound("Not found") }
        let headers: HTTPFields = [
            .contentType: asset.contentType,
            .cacheControl: "public, max-age=31536000, immutable",
            .init("X-Content-Type-Options")!: "nosniff",
        ]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.data)))
    }
}
