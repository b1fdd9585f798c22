import Foundation
import Storage

extension Node {
    /// Writes the archive of the local account `username` to the file at `url` (the ZIP that
    /// `GET /api/v1/exports/archive` serves; `fednode user export`).
    /// - Returns: The size of the file written, in bytes.
    /// - Throws: `NodeError.notFound` for an unknown account; see `AccountArchiveWriter.write`.
    @discardableResult
    public func writeArchive(of username: String, to url: URL) async throws(NodeError) -> Int {
        let account: Account
        do { account = try await accounts.local(username) } catch .notFound { throw .notFound("No local account named \(username)") }
        try await AccountArchiveWriter(node: self).write(account, to: url)
        return (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }
}
