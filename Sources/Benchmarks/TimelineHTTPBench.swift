import Foundation
import Storage

/// Part 3 over HTTP: the lists people scroll, as the client API and the web app serve them from a
/// running `fednode serve` on a generated database, each with the reader's credentials, the
/// same seeded `max_id` cursors and `settings.connections` connections: the home timeline, the
/// web app's home feed page, the public and tag timelines, the profile of an author with
/// `BenchWorld.popularFollowers` followers and of one with a single follower, and notifications.
struct TimelineHTTPBench {
    /// One list measured.
    struct Page: Sendable {
        /// What was requested, for the report (`GET /api/v1/timelines/home`).
        let figure: String
        let load: LoadResult
        /// The server's own mean time to the response head of the timed requests, from its
        /// `/metrics` (`fednode_http_request_duration_seconds`); `nil` when it could not be read.
        var serverSeconds: Double? = nil
        /// The mean SQL statements per timed request, from the server's `/metrics`
        /// (`fednode_http_request_statements`); `nil` when it could not be read.
        var statements: Double? = nil
    }

    /// The reader's web session cookie value: a token with the web app's scopes, which
    /// `addWebSession` puts into the run's copy of the database.
    static let webSessionToken = "fednode-bench-reader-web-session-0001"
    let settings: BenchSettings

    /// Gives the reader a signed-in browser session in the database at `path` (the run's
    /// copy, so the cached generated file stays as it is).
    static func addWebSession(toDatabaseAt path: String) throws(BenchError) {
        do {
            let database = try NodeDatabase(path: path, migrate: false)
            let token = OAuthToken(appId: nil, accountId: BenchWorld.readerId, tokenHash: BenchWorld.sha256Hex(webSessionToken),
                                   refreshTokenHash: nil, scopes: "read write follow")
            try database.writeBlocking { db in try db.oauth.insert(token) }
        } catch { throw .setup("adding the reader's web session to \(path): \(error)") }
    }

    /// Measures every list against the server on `port`, whose database is a copy of `database`.
    func run(port: Int, database: TimelineDatabase) throws(BenchError) -> [Page] {
        let generator = LoadGenerator(port: port, connections: settings.connections)
        return try lists(database).map { list throws(BenchError) in
            let first = HTTPProbe.status(port: port, path: list.path, headers: list.headers)
            guard first == 200 else { throw .server("\(list.figure) answered \(first.map(String.init) ?? "nothing")") }
            let separator = list.path.contains("?") ? "&" : "?"
            let paths = TimelineBench.cursors(entries: list.ids, count: settings.timelineQueries).map { cursor in
                list.path + (cursor.map { "\(separator)max_id=\($0)" } ?? "")
            }
            let requests = InboxTraffic.gets(paths, headers: list.headers)
            _ = try generator.run(Array(requests.prefix(200)))
            let before = ServerMetrics.scrape(port: port)
            let load = try generator.run(requests)
            let after = ServerMetrics.scrape(port: port)
            return Page(figure: list.figure, load: load, serverSeconds: Self.meanDuration(from: before, to: after),
                        statements: Self.mean("fednode_http_request_statements", from: before, to: after))
        }
    }

    /// The mean time to response head of the requests answered between two scrapes (the
    /// scrapes themselves left out), as the server timed them.
    static func meanDuration(from before: ServerMetrics?, to after: ServerMetrics?) -> Double? {
        mean("fednode_http_request_duration_seconds", from: before, to: after)
    }

    /// The mean of the histogram `name` over the observations between two scrapes (`/metrics`
    /// itself and, with `labels`, series not matching them left out).
    static func mean(_ name: String, labels: [String: String] = [:], from before: ServerMetrics?, to after: ServerMetrics?) -> Double? {
        guard let before, let after else { return nil }
        let total = { (metrics: ServerMetrics, suffix: String) in
            metrics.samples(name + suffix)
                .filter { sample in sample.labels["route"] != "/metrics" && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
                .reduce(0) { $0 + $1.value }
        }
        let count = total(after, "_count") - total(before, "_count")
        return count > 0 ? (total(after, "_sum") - total(before, "_sum")) / count : nil
    }

    /// A list to measure: its first page's path, the ids its pages start below, the headers.
    private struct List {
        let figure: String, path: String, ids: [Int64], headers: [String]

        init(figure: String, path: String, ids: [Int64], headers: [String]) {
            // The client API's lists are read 20 statuses at a time.
            self.figure = path.hasPrefix("/api/") ? figure + ", 20 per page" : figure
            (self.path, self.ids, self.headers) = (path, ids, headers)
        }
    }

    private func lists(_ database: TimelineDatabase) throws(BenchError) -> [List] {
        let (popular, quiet, reader) = (BenchWorld.accountId(BenchWorld.popularIndex), BenchWorld.accountId(BenchWorld.quietIndex), BenchWorld.readerId)
        let api = ["Authorization: Bearer \(BenchWorld.readerToken)", "Accept: application/json"]
        let web = ["Cookie: fednode_session=\(Self.webSessionToken)", "Accept: text/html"]
        let tag = BenchWorld.hashtag
        do {
            let cursors = try PageCursors(path: database.path)
            let home = try cursors.homePostIds(of: reader)
            return [
                List(figure: "GET /api/v1/timelines/home", path: "/api/v1/timelines/home?limit=20", ids: home, headers: api),
                List(figure: "GET /home, the web app's feed page of photo cards, signed in", path: "/home", ids: home, headers: web),
                List(figure: "GET /api/v1/timelines/public", path: "/api/v1/timelines/public?limit=20", ids: try cursors.publicPostIds(), headers: api),
                List(figure: "GET /api/v1/timelines/tag/\(tag)", path: "/api/v1/timelines/tag/\(tag)?limit=20",
                     ids: try cursors.postIds(tagged: tag), headers: api),
                List(figure: "GET /api/v1/accounts/:id/statuses, author with \(try cursors.followerCount(of: popular)) followers",
                     path: "/api/v1/accounts/\(popular)/statuses?limit=20", ids: try cursors.postIds(by: popular), headers: api),
                List(figure: "GET /api/v1/accounts/:id/statuses, author with \(try cursors.followerCount(of: quiet)) follower",
                     path: "/api/v1/accounts/\(quiet)/statuses?limit=20", ids: try cursors.postIds(by: quiet), headers: api),
                List(figure: "GET /api/v1/notifications", path: "/api/v1/notifications?limit=20",
                     ids: try cursors.notificationIds(of: reader), headers: api),
            ]
        } catch { throw .setup("reading page cursors from \(database.path): \(error)") }
    }
}
