import Activity
import Foundation
import Storage

/// The domains this node blocks (suspend, silence or only note) and, in allow-list mode, the
/// ones it federates with. A suspension stops all federation with the domain both ways and
/// purges what the node stored of its accounts.
package struct DomainPolicyService: Sendable {
    /// The severities Mastodon knows.
    package static let severities: Set<String> = ["silence", "suspend", "noop"]
    /// The longest private or public comment on a block, in characters.
    package static let maxComment = 1_000

    /// What a block sets; `nil` leaves a part as it is.
    package struct BlockChanges: Sendable {
        /// `silence`, `suspend` or `noop`.
        package var severity: String?
        /// Whether the domain's media is not cached.
        package var rejectMedia: Bool?
        /// Whether the domain's reports are ignored.
        package var rejectReports: Bool?
        /// A note for the staff.
        package var privateComment: String?
        /// The reason shown in the public list.
        package var publicComment: String?
        /// Whether the public list stars part of the name.
        package var obfuscate: Bool?

        /// Changes of the parts given.
        package init(severity: String? = nil, rejectMedia: Bool? = nil, rejectReports: Bool? = nil, privateComment: String? = nil,
                     publicComment: String? = nil, obfuscate: Bool? = nil) {
            self.severity = severity
            self.rejectMedia = rejectMedia
            self.rejectReports = rejectReports
            self.privateComment = privateComment
            self.publicComment = publicComment
            self.obfuscate = obfuscate
        }
    }

    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Blocks `domain` (spelled as `HostAuthority` spells hosts).
    /// - Throws: `NodeError.validation` for a name that is not a domain, this node's own
    ///   domain, a domain already blocked, or changes `check` refuses.
    package func block(_ domain: String, _ changes: BlockChanges) async throws(NodeError) -> InstanceDomainBlock {
        let domain = try foreign(domain)
        try Self.check(changes)
        var block = InstanceDomainBlock(domain: domain, severity: "silence")
        Self.apply(changes, to: &block)
        let new = block
        let stored = try await node.write("domain block") { db -> InstanceDomainBlock? in
            guard try db.moderation.domainBlock(domain: domain) == nil else { return nil }
            return try Self.save(new, in: db)
        }
        guard let stored else { throw .validation("Validation failed: Domain is already blocked") }
        return stored
    }

    /// Changes block `id`.
    /// - Throws: `NodeError.notFound` for an unknown block; `.validation` as `check`.
    package func updateBlock(_ id: Int64, _ changes: BlockChanges) async throws(NodeError) -> InstanceDomainBlock {
        try Self.check(changes)
        let stored = try await node.write("domain block") { db -> InstanceDomainBlock? in
            guard var block = try db.moderation.domainBlock(id: id) else { return nil }
            Self.apply(changes, to: &block)
            return try Self.save(block, in: db)
        }
        guard let stored else { throw .notFound("Record not found") }
        return stored
    }

    /// Lifts block `id`: federation resumes (what a suspension purged stays gone).
    /// - Throws: `NodeError.notFound` for an unknown block.
    package func unblock(_ id: Int64) async throws(NodeError) {
        let deleted = try await node.write("domain block") { db -> Bool in
            guard let block = try db.moderation.domainBlock(id: id) else { return false }
            return try db.moderation.deleteDomainBlock(block)
        }
        guard deleted else { throw .notFound("Record not found") }
    }

    /// Allows `domain` and its subdomains (in allow-list mode); allowing it again answers the
    /// existing allow.
    /// - Throws: `NodeError.validation` for a name that is not a domain, or this node's own.
    package func allow(_ domain: String, now: Date = Date()) async throws(NodeError) -> DomainAllow {
        let domain = try foreign(domain)
        return try await node.write("domain allow") { db in try db.domainAllows.add(domain, at: now) }
    }

    /// Lifts allow `id`: in allow-list mode federation with the domain stops and its queued
    /// deliveries are dropped.
    /// - Throws: `NodeError.notFound` for an unknown allow.
    package func disallow(_ id: Int64) async throws(NodeError) {
        let deleted = try await node.write("domain allow") { db -> Bool in
            guard let allow = try db.domainAllows.find(id: id) else { return false }
            return try db.domainAllows.remove(allow)
        }
        guard deleted else { throw .notFound("Record not found") }
    }

    /// `domain` in the one spelling every check compares (`HostAuthority`: `Evil.Example.` and
    /// `bücher.example` become `evil.example` and `xn--bcher-kva.example`), when it is a host
    /// name with an optional port.
    /// - Throws: `NodeError.validation` otherwise.
    package static func normalized(_ domain: String) throws(NodeError) -> String {
        let lowered = HostAuthority.normalize(domain) ?? domain.trimmingCharacters(in: .whitespaces).lowercased()
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:_")
        guard !lowered.isEmpty, lowered.count <= 253, lowered.allSatisfy(allowed.contains), !lowered.hasPrefix("."),
              !lowered.hasSuffix("."), !lowered.contains(".."), lowered.contains(".") || lowered.contains(":")
        else { throw .validation("Validation failed: Domain is not a valid domain name") }
        return lowered
    }

    /// Refuses an unknown severity or an over-long comment.
    package static func check(_ changes: BlockChanges) throws(NodeError) {
        if let severity = changes.severity, !severities.contains(severity) {
            throw .validation("Validation failed: Severity is not included in the list")
        }
        for (key, comment) in [("private_comment", changes.privateComment), ("public_comment", changes.publicComment)]
        where (comment?.count ?? 0) > maxComment {
            throw .validation("Validation failed: \(key) is too long (maximum is 1000 characters)")
        }
    }

    /// `domain` normalised, when it is not this node's.
    private func foreign(_ domain: String) throws(NodeError) -> String {
        guard !domain.trimmingCharacters(in: .whitespaces).isEmpty else { throw .validation("Validation failed: Domain can't be blank") }
        let normalized = try Self.normalized(domain)
        guard normalized != node.urls.domain.lowercased() else { throw .validation("Validation failed: Domain cannot be this server") }
        return normalized
    }

    private static func apply(_ changes: BlockChanges, to block: inout InstanceDomainBlock) {
        if let severity = changes.severity { block.severity = severity }
        if let value = changes.rejectMedia { block.rejectMedia = value }
        if let value = changes.rejectReports { block.rejectReports = value }
        if let value = changes.privateComment { block.privateComment = value }
        if let value = changes.publicComment { block.publicComment = value }
        if let value = changes.obfuscate { block.obfuscate = value }
    }

    /// Stores `block`, applying its severity, and purges a newly suspended domain.
    private static func save(_ block: InstanceDomainBlock, in db: Transaction) throws -> InstanceDomainBlock {
        let (stored, _) = try db.moderation.saveDomainBlock(block)
        if stored.severity == "suspend" { _ = try db.moderation.purgeDomain(stored.domain) }
        return stored
    }
}
