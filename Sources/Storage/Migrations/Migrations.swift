import GRDB

/// The schema's migrations. Once shipped, a migration never changes: add a new one instead.
/// Migrations use raw SQL only, never app types, so they stay valid as the records evolve.
///
/// Each step is one file of this folder, `NNNN-<identifier>.swift`, numbered in the order of
/// `all`, that defines the step's statements as a static member of `Migrations`. A new step
/// takes the next number and an identifier in lowercase kebab-case naming what it adds (for
/// example `account-notes`), and is appended to `all`; an identifier is never reused.
enum Migrations {
    /// Every migration, in order: its identifier and its statements (SQLite's dialect; on
    /// PostgreSQL rewritten by `PostgresSchemaDialect`).
    static let all: [(identifier: String, statements: [String])] = [
        ("v1-initial-schema", initialSchema),
        ("v2-client-api", clientAPISchema),
        ("v-inbox-hardening", inboxHardeningSchema),
        ("v3-queue-hardening", queueHardeningSchema),
        ("v4-departed-actors", departedActorsSchema),
        ("v5-counters", countersSchema),
        ("fed-origin-counts", originCountsSchema),
        ("mail-tokens", mailSchema),
        ("moderation-1", moderationSchema),
        ("a-bookmarks-mutes-pins-edits-markers", curationSchema),
        ("b-curation", listsSchema),
        ("web-push", pushSchema),
        ("discovery-suggestion-dismissals", discoverySchema),
        ("Registration-1", registrationSchema),
        ("Move-domain-hiding-aliases-moves", moveSchema),
        ("processes-1", processesSchema),
        ("lookups-by-url", urlLookupSchema),
        ("account-last-post", lastPostSchema),
        ("account-notes", accountNotesSchema),
        ("sign-in-protection", signInProtectionSchema),
        ("conversation-mutes", conversationMutesSchema),
        ("posting-defaults", postingDefaultsSchema),
        ("polls", pollsSchema),
        ("scheduled-posts", scheduledPostsSchema),
    ]

    /// Every migration, in order, for SQLite.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (identifier, statements) in all {
            migrator.registerMigration(identifier) { db in
                for statement in statements { try db.execute(sql: statement) }
            }
        }
        return migrator
    }
}
