import Core
import Foundation
import Hummingbird

/// The default avatar and header (`/static/avatar.png`, `/static/header.png`) that account
/// entities point to when a person has not uploaded one. Small palette PNGs of one flat
/// colour (400×400 and 1500×500, the sizes Mastodon crops to), compiled in, cached for a year.
struct StaticAssetsController {
    let node: Node

    /// 400×400 grey (#9BA3AF).
    static let avatar = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAZAAAAGQAQMAAAC6caSPAAAAA1BMVEWbo6+VfzuYAAAAKklEQVR42u3BMQEAAADCoPVP7W8GoAAAAAAAAAAAAAAAAAAAAAAAAACAN0+wAAGUQRhcAAAAAElFTkSuQmCC")!
    /// 1500×500 light grey (#D1D5DB).
    static let header = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAABdwAAAH0AQMAAAAdS31vAAAAA1BMVEXR1dvGf1jbAAAAcklEQVR42u3BMQEAAADCoPVPbQlPoAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADgY3EzAAFPD7s3AAAAAElFTkSuQmCC")!

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("static/avatar.png", use: { _, _ in Self.png(Self.avatar) })
        router.get("static/header.png", use: { _, _ in Self.png(Self.header) })
    }

    /// `GET /static/avatar.png`, `GET /static/header.png`: the image, cacheable for a year.
    static func png(_ data: Data) -> Response {
        JSONResponse.bytes(data, contentType: "image/png", headers: [
            .cacheControl: "public, max-age=31536000, immutable", .accessControlAllowOrigin: "*",
        ])
    }
}
