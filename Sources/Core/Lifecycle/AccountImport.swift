import Foundation
import Storage

/// Imports a Mastodon CSV export (following, blocks or mutes) into a local account: each
/// `user@domain` is found here or through WebFinger (a few at a time), then followed, blocked
/// or muted through the same services as the API, so follows and blocks federate. Rows that
/// cannot be resolved or applied are reported, not fatal. `overwrite` also undoes the existing
/// relations the file does not list. Runs while the request waits, so it is bounded:
/// `maxRows` rows and `maxBytes` bytes.
package struct AccountImport: Sendable {
    /// What the file lists.
    package enum Kind: String, Sendable, CaseIterable {
        /// Accounts to follow (`following_accounts.csv`).
        case following
        /// Accounts to block (`blocked_accounts.csv`).
        case blocks
        /// Accounts to mute (`muted_accounts.csv`, with `Hide notifications`).
        case mutes
    }

    /// How the file combines with what the account has.
    package enum Mode: String, Sendable {
        /// Adds to the existing relations.
        case merge
        /// Makes the relations exactly the file's (others are undone).
        case overwrite
    }

    /// One account the file names.
    package struct Row: Sendable, Equatable {
        /// The address as written (without a leading `@`).
        package var address: String
        /// The username part.
        package var username: String
        /// The domain part, `nil` for a bare local name.
        package var domain: String?
        /// For mutes: whether notifications are hidden too (Mastodon's default: true).
        package var hideNotifications: Bool
    }

    /// A row that was not imported, and why.
    package struct RowFailure: Encodable, Sendable, Equatable {
        /// The address as written.
        package var address: String
        /// Why it failed.
        package var error: String
    }

    /// What an import did (the answer of `POST /api/v1/import`).
    package struct Outcome: Encodable, Sendable {
        /// The list imported.
        package var type: String
        /// `merge` or `overwrite`.
        package var mode: String
        /// Rows applied.
        package var imported: Int
        /// Relations undone (overwrite only).
        package var removed: Int
        /// Rows not applied.
        package var failed: [RowFailure]
    }

    /// Most rows in one file.
    package static let maxRows = 2_000
    /// Largest file accepted (1 MiB).
    package static let maxBytes = 1024 * 1024
    /// Addresses resolved at once.
    package static let concurrency = 4
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Imports `data` (CSV) as `kind` into `account`.
    /// - Throws: `NodeError.validation` for a file that is not CSV, is empty or too long.
    package func run(_ kind: Kind, mode: Mode, data: Data, for account: Account) async throws(NodeError) -> Outcome {
        let (rows, malformed) = try Self.parse(data, kind: kind)
        let resolved = await resolve(rows)
        var outcome = Outcome(type: kind.rawValue, mode: mode.rawValue, imported: 0, removed: 0, failed: malformed)
        var kept = Set<Int64>()
        for (row, result) in zip(rows, resolved) {
            switch result {
            case .failure(let error): outcome.failed.append(RowFailure(address: row.address, error: error.message))
            case .success(let target):
                do throws(NodeError) {
                    try await apply(kind, to: target, row: row, for: account)
                    kept.insert(target.id)
                    outcome.imported += 1
                } catch { outcome.failed.append(RowFailure(address: row.address, error: error.message)) }
            }
        }
        if mode == .overwrite { outcome.removed = try await undoOthers(kind, keeping: kept, for: account) }
        return outcome
    }

    /// The rows of a Mastodon CSV (with or without its header; one address per line works
    /// too), each address once, and the rows that are not account addresses.
    package static func parse(_ data: Data, kind: Kind) throws(NodeError) -> ([Row], [RowFailure]) {
        guard data.count <= maxBytes else { throw .validation("The file is too large (at most \(maxBytes / 1024) KiB)") }
        guard var text = String(data: data, encoding: .utf8) else { throw .validation("The file is not UTF-8 text") }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let table: [[String]]
        do { table = try CSVTable.rows(text, maxRows: maxRows + 1) } catch {
            switch error {
            case .tooManyRows: throw .validation("The file has too many rows (at most \(maxRows))")
            case .unclosedQuote(let line): throw .validation("The file is not valid CSV: a quoted field opened on line \(line) is never closed")
            }
        }
        var (rows, failed, seen) = ([Row](), [RowFailure](), Set<String>())
        for (index, fields) in table.enumerated() {
            let first = fields[0].trimmingCharacters(in: .whitespaces)
            if index == 0 && first.caseInsensitiveCompare("Account address") == .orderedSame { continue }
            guard let row = Self.row(first, fields: fields, kind: kind) else {
                failed.append(RowFailure(address: String(first.prefix(200)), error: "Not an account address"))
                continue
            }
            if seen.insert(row.address.lowercased()).inserted { rows.append(row) }
        }
        guard !rows.isEmpty || !failed.isEmpty else { throw .validation("The file lists no accounts") }
        guard rows.count <= maxRows else { throw .validation("The file has too many rows (at most \(maxRows))") }
        return (rows, failed)
    }

    private static func row(_ field: String, fields: [String], kind: Kind) -> Row? {
        let address = field.hasPrefix("@") ? String(field.dropFirst()) : field
        let parts = address.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), let username = parts.first, (1...64).contains(username.count),
            username.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "_.-".unicodeScalars.contains($0) })
        else { return nil }
        let domain = parts.count == 2 ? parts[1].lowercased() : nil
        if let domain, !(1...253).contains(domain.count)
            || !domain.unicodeScalars.allSatisfy({ ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || ".-:".unicodeScalars.contains($0) }) {
            return nil
        }
        let hide = kind == .mutes && fields.count > 1 ? fields[1].trimmingCharacters(in: .whitespaces).lowercased() != "false" : true
        return Row(address: address, username: username, domain: domain, hideNotifications: hide)
    }

    /// Each row's account, `concurrency` lookups at a time, in row order.
    private func resolve(_ rows: [Row]) async -> [Result<Account, NodeError>] {
        let node = node
        var results = [Result<Account, NodeError>?](repeating: nil, count: rows.count)
        await withTaskGroup(of: (Int, Result<Account, NodeError>).self) { group in
            var next = 0
            func startNext() {
                guard next < rows.count else { return }
                let (index, row) = (next, rows[next])
                next += 1
                group.addTask {
                    do throws(NodeError) {
                        guard let domain = row.domain else { return (index, .success(try await node.accounts.local(row.username))) }
                        return (index, .success(try await node.remoteAccounts.resolve(username: row.username, domain: domain)))
                    } catch { return (index, .failure(error.isServerFault ? .notFound("Could not be reached") : error)) }
                }
            }
            for _ in 0..<Self.concurrency { startNext() }
            for await (index, result) in group {
                results[index] = result
                startNext()
            }
        }
        return results.map { $0 ?? .failure(.notFound("Record not found")) }
    }

    private func apply(_ kind: Kind, to target: Account, row: Row, for account: Account) async throws(NodeError) {
        guard target.id != account.id else { throw .validation("That is your own account") }
        switch kind {
        case .following: try await node.interactions.follow(target, by: account)
        case .blocks: try await node.interactions.block(target, by: account)
        case .mutes:
            let mute = Mute(accountId: account.id, targetAccountId: target.id, hideNotifications: row.hideNotifications, expiresAt: nil)
            do { try await node.database.write { db in try db.mutes.save(mute) } } catch { throw .internal("saving mute: \(error)") }
        }
    }

    /// Undoes the relations of `kind` whose target is not in `kept`.
    private func undoOthers(_ kind: Kind, keeping kept: Set<Int64>, for account: Account) async throws(NodeError) -> Int {
        let current: [Account]
        do {
            current = try await node.database.read { db in
                switch kind {
                case .following: try db.accountArchive.following(of: account.id, limit: AccountExport.maxRows)
                case .blocks: try db.accountArchive.blocked(by: account.id, limit: AccountExport.maxRows)
                case .mutes: try db.accountArchive.muted(by: account.id, limit: AccountExport.maxRows).map(\.account)
                }
            }
        } catch { throw .internal("reading relations: \(error)") }
        let stale = current.filter { !kept.contains($0.id) }
        for target in stale {
            switch kind {
            case .following: try await node.interactions.unfollow(target, by: account)
            case .blocks: try await node.interactions.unblock(target, by: account)
            case .mutes:
                do { try await node.database.write { db in _ = try db.mutes.remove(account: account.id, target: target.id) } } catch {
                    throw .internal("removing mute: \(error)")
                }
            }
        }
        return stale.count
    }
}
