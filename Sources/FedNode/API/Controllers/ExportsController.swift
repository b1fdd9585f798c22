import Core
import Foundation
import Hummingbird
import NIOCore
import Storage

/// Data export and import, in GoToSocial's API: the CSV lists
/// `GET /api/v1/exports/following.csv|followers.csv|blocks.csv|mutes.csv|bookmarks.csv` (Mastodon's CSV shapes), the
/// whole archive `GET /api/v1/exports/archive` (a ZIP, see `AccountArchiveWriter`), and
/// `POST /api/v1/import` (multipart `data`, `type`, `mode`; see `AccountImport`).
struct ExportsController {
    let node: Node
    /// Archives built at once on this node (each reads every post and photo of an account).
    static let archiveSlots = ArchiveSlots()

    func addRoutes(to router: Router<NodeRequestContext>) {
        for (name, list, scope) in [("following", AccountExport.List.following, "read:follows"), ("followers", .followers, "read:follows"),
                                    ("blocks", .blocks, "read:blocks"), ("mutes", .mutes, "read:mutes"), ("bookmarks", .bookmarks, "read:bookmarks")] {
            router.get("api/v1/exports/\(name).csv") { request, _ in try await csv(request, list: list, scope: scope) }
        }
        router.get("api/v1/exports/archive", use: archive)
        router.post("api/v1/import", use: importFile)
    }

    /// `GET /api/v1/exports/NAME.csv`: one list as `text/csv`, as an attachment.
    @Sendable func csv(_ request: Request, list: AccountExport.List, scope: String) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: scope)
        let text = try await AccountExport(node: node).csv(list, of: me)
        return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8",
                                               .contentDisposition: "attachment; filename=\"\(list.rawValue).csv\""],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// `GET /api/v1/exports/archive` (`read`): the account's archive as `application/zip`. It is
    /// written to a temporary file first (unlinked at once, so nothing is left behind) and
    /// streamed from it; 429 while the node is already building `ArchiveSlots.limit` archives.
    @Sendable func archive(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read")
        guard await Self.archiveSlots.take() else { throw NodeError.tooManyRequests("Too many archives are being built; try again in a minute") }
        let handle: FileHandle
        do {
            defer { Task { await Self.archiveSlots.give() } }
            let directory = URL(fileURLWithPath: node.configuration.dataDirectory).appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("archive-\(UUID().uuidString).zip")
            defer { try? FileManager.default.removeItem(at: file) }
            try await AccountArchiveWriter(node: node).write(me, to: file)
            handle = try FileHandle(forReadingFrom: file)
        }
        let size = Int(try handle.seekToEnd())
        try handle.seek(toOffset: 0)
        let body = ResponseBody(contentLength: size) { writer in
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 65_536), !chunk.isEmpty { try await writer.write(ByteBuffer(data: chunk)) }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/zip",
                                               .contentDisposition: "attachment; filename=\"\(me.username)-archive.zip\""], body: body)
    }

    /// `POST /api/v1/import`: multipart `data` (the CSV file), `type` (`following`, `blocks`,
    /// `mutes`), `mode` (`merge`, the default, or `overwrite`). Scope `write:follows`,
    /// `write:blocks` or `write:mutes` by type. Answers 202 with what was imported and the rows
    /// that failed; 422 for a bad type, mode or file.
    @Sendable func importFile(_ request: Request, context: NodeRequestContext) async throws -> Response {
        guard let caller = try await node.apiAuth.caller(of: request) else { throw NodeError.unauthorized("The access token is invalid") }
        let params = try await APIParams.read(request, fileLimit: AccountImport.maxBytes + 64 * 1024)
        guard let kind = params.nonEmpty("type").flatMap(AccountImport.Kind.init(rawValue:)) else {
            throw NodeError.validation("type must be one of: following, blocks, mutes")
        }
        try caller.require(kind == .following ? "write:follows" : "write:\(kind.rawValue)")
        let me = try caller.user()
        guard let mode = AccountImport.Mode(rawValue: params.nonEmpty("mode") ?? "merge") else {
            throw NodeError.validation("mode must be merge or overwrite")
        }
        guard let data = params.file("data")?.data ?? params.string("data").map({ Data($0.utf8) }) else {
            throw NodeError.validation("data must be a CSV file")
        }
        let outcome = try await AccountImport(node: node).run(kind, mode: mode, data: data, for: me)
        return APIResponse.json(outcome, status: .accepted)
    }
}

/// Counts the archives being built, so a few requests cannot occupy the node's disk and CPU.
actor ArchiveSlots {
    /// Archives built at once.
    static let limit = 2
    private var taken = 0

    /// Takes a slot; `false` when all are taken.
    func take() -> Bool {
        guard taken < Self.limit else { return false }
        taken += 1
        return true
    }

    /// Gives a slot back.
    func give() { taken = max(0, taken - 1) }
}
