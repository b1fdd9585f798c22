import Core
import Foundation
import Storage

/// Renders moderation rows as Mastodon's admin entities, inside one read.
struct ModerationRenderer {
    let node: Node
    /// The staff member looking.
    let viewer: Account
    let db: Transaction

    private var entities: EntityRenderer { EntityRenderer(node: node, viewer: viewer, db: db) }

    /// The `Role` entity of `role`, with Mastodon's default ids and permission bits.
    static func role(_ role: StaffRole) -> APIRole {
        switch role {
        case .owner: APIRole(id: "3", name: "Owner", color: "", permissions: "1", highlighted: true)
        case .admin: APIRole(id: "2", name: "Admin", color: "", permissions: "1048575", highlighted: true)
        case .moderator: APIRole(id: "1", name: "Moderator", color: "", permissions: "1308", highlighted: true)
        case .user: APIRole(id: "-99", name: "", color: "", permissions: "65536", highlighted: false)
        }
    }

    /// The `Admin::Account` entity of `account`.
    func account(_ account: Account) throws -> APIAdminAccount {
        let credential = account.isLocal ? try db.accounts.credential(of: account.id) : nil
        let unconfirmed = account.isLocal ? try db.accountTokens.isUnconfirmed(account.id) : false
        let measures = try db.moderation.measures(of: account.id)
        let signUp = account.isLocal ? try db.registrations.request(of: account.id) : nil
        return APIAdminAccount(
            id: String(account.id), username: account.username, domain: account.domain,
            createdAt: Timestamps.iso8601(account.createdAt), email: credential?.email, ip: nil, ips: [],
            locale: nil, inviteRequest: signUp.flatMap { $0.reason.isEmpty ? nil : $0.reason },
            role: Self.role(try db.moderation.role(of: account.id)),
            confirmed: account.isLocal && !unconfirmed, approved: signUp.map { $0.approvedAt != nil } ?? true, disabled: measures.disabledAt != nil,
            silenced: measures.silencedAt != nil, suspended: measures.suspendedAt != nil, sensitized: measures.sensitizedAt != nil,
            account: try entities.account(account), failedSignIns: try credential.flatMap { try failedSignIns(email: $0.email) })
    }

    /// The failed sign-ins counted for `email`, while they still count.
    private func failedSignIns(email: String, now: Date = Date()) throws -> APIFailedSignIns? {
        let backoff = node.configuration.rateLimits.failedSignIns
        guard let row = try db.signInFailures.find(FailedLogins.key(email)),
            row.lastFailedAt > now.addingTimeInterval(-backoff.forgetAfter)
        else { return nil }
        return APIFailedSignIns(count: row.failures, lastFailedAt: Timestamps.iso8601(row.lastFailedAt), lastIp: row.lastAddress,
                                lockedUntil: row.lockedUntil.flatMap { $0 > now ? Timestamps.iso8601($0) : nil })
    }

    /// The `Admin::Report` entity of `report`; nil when its accounts are gone.
    func report(_ report: Report) throws -> APIAdminReport? {
        guard let reporter = try db.accounts.find(id: report.accountId),
            let target = try db.accounts.find(id: report.targetAccountId)
        else { return nil }
        let assigned = try report.assignedAccountId.flatMap { try db.accounts.find(id: $0) }
        let resolver = try report.actionTakenByAccountId.flatMap { try db.accounts.find(id: $0) }
        let posts = try db.posts.find(ids: report.postIds).sorted { $0.id < $1.id }
        return APIAdminReport(
            id: String(report.id ?? 0), actionTaken: report.actionTakenAt != nil,
            actionTakenAt: report.actionTakenAt.map(Timestamps.iso8601), category: report.category,
            comment: report.comment, forwarded: report.forwarded, createdAt: Timestamps.iso8601(report.createdAt),
            updatedAt: Timestamps.iso8601(report.updatedAt), account: try account(reporter),
            targetAccount: try account(target), assignedAccount: try assigned.map(account),
            actionTakenByAccount: try resolver.map(account), statuses: try entities.statuses(posts),
            rules: try Self.rules(report.rules, db: db))
    }

    /// The rules among `ids` that exist.
    static func rules(_ ids: [Int64], db: Transaction) throws -> [APIRule] {
        guard !ids.isEmpty else { return [] }
        let all = try db.moderation.rules()
        return all.filter { ids.contains($0.id ?? 0) }.map { APIRule(id: String($0.id ?? 0), text: $0.text) }
    }

    /// The `Admin::DomainBlock` entity of `block`.
    static func domainBlock(_ block: InstanceDomainBlock) -> APIAdminDomainBlock {
        APIAdminDomainBlock(
            id: String(block.id ?? 0), domain: block.domain, digest: digest(block.domain),
            createdAt: Timestamps.iso8601(block.createdAt), severity: block.severity,
            rejectMedia: block.rejectMedia, rejectReports: block.rejectReports,
            privateComment: block.privateComment.isEmpty ? nil : block.privateComment,
            publicComment: block.publicComment.isEmpty ? nil : block.publicComment, obfuscate: block.obfuscate)
    }

    /// The public `DomainBlock` entity: an obfuscated domain is starred as Mastodon's
    /// `DomainBlock#public_domain` does it, and its `digest` stays the real domain's, so
    /// whoever knows the domain can still recognise it.
    static func publicDomainBlock(_ block: InstanceDomainBlock) -> APIDomainBlock {
        APIDomainBlock(domain: block.obfuscate ? obfuscated(block.domain) : block.domain, digest: digest(block.domain),
                       severity: block.severity, comment: block.publicComment.isEmpty ? nil : block.publicComment)
    }

    /// `domain` with the characters after its first quarter and before its last quarter starred,
    /// dots kept (`spam.example` → `spam.****ple`), as Mastodon does it.
    static func obfuscated(_ domain: String) -> String {
        let characters = Array(domain), visible = characters.count / 4
        return String(characters.enumerated().map { index, character in
            index > visible && index < characters.count - visible && character != "." ? "*" : character
        })
    }

    /// SHA-256 of `domain`, hex, as Mastodon publishes it.
    static func digest(_ domain: String) -> String {
        SHA256.hexDigest(Data(domain.utf8))
    }
}
