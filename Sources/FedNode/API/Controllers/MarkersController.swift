import Core
import Foundation
import Hummingbird
import Storage

/// Read markers: where the caller stopped reading the home and notifications timelines, kept
/// so apps can sync the position across devices (docs.joinmastodon.org/methods/markers).
struct MarkersController {
    let node: Node


    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/markers", use: show)
        router.post("api/v1/markers", use: save)
    }

    /// `GET /api/v1/markers?timeline[]=home&timeline[]=notifications` (read:statuses): the saved
    /// markers of the timelines asked, by name; unknown names are ignored.
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:statuses")
        let asked = try await APIParams.read(request).strings("timeline").filter(MarkerService.timelines.contains)
        let markers = try await StatusAccess.read(node) { db in try db.markers.find(account: me.id, timelines: asked) }
        return APIResponse.json(Self.entities(markers))
    }

    /// `POST /api/v1/markers` (write:statuses): saves `home[last_read_id]` and/or
    /// `notifications[last_read_id]` (form or JSON), raising each one's `version`; answers the
    /// saved markers. 422 when neither is given.
    @Sendable func save(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:statuses")
        let params = try await APIParams.read(request)
        let positions = MarkerService.timelines.compactMap { timeline in
            params.nonEmpty("\(timeline)[last_read_id]").map { (timeline: timeline, lastReadId: $0) }
        }
        let markers = try await MarkerService(node: node).save(positions, by: me)
        return APIResponse.json(Self.entities(markers))
    }

    private static func entities(_ markers: [Marker]) -> [String: APIMarker] {
        Dictionary(markers.map { ($0.timeline, APIMarker(lastReadId: $0.lastReadId, version: $0.version,
                                                          updatedAt: Timestamps.iso8601($0.updatedAt))) },
                   uniquingKeysWith: { $1 })
    }
}

/// Mastodon's `Marker` entity.
public struct APIMarker: Codable, Sendable, Equatable {
    /// The id of the last item read.
    public var lastReadId: String
    /// Raised by one at every save.
    public var version: Int
    /// When it was saved.
    public var updatedAt: String
}
