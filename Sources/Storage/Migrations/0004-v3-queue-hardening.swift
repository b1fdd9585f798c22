extension Migrations {
    // The inbox queue's crash accounting and fair scheduling.
    // - `unfinished_attempts` is raised, durably, before an item is handed to its handler and
    //   cleared when the attempt ends; an item that keeps killing the process therefore shows
    //   a growing count and is parked (`parked_at`) instead of being retried forever.
    // - `domain` is the sender's authority (host[:port], lowercased) derived from `actor_uri`,
    //   so the worker can cap the items in flight per domain with a plain SQL filter.
    static let queueHardeningSchema = [
        "ALTER TABLE inbox_queue ADD COLUMN unfinished_attempts INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE inbox_queue ADD COLUMN parked_at DATETIME",
        """
        ALTER TABLE inbox_queue ADD COLUMN domain TEXT GENERATED ALWAYS AS (lower(substr(
          actor_uri, instr(actor_uri, '://') + 3,
          CASE WHEN instr(substr(actor_uri, instr(actor_uri, '://') + 3), '/') > 0
               THEN instr(substr(actor_uri, instr(actor_uri, '://') + 3), '/') - 1
               ELSE length(actor_uri) END))) VIRTUAL
        """,
        "CREATE INDEX inbox_queue_parked ON inbox_queue(parked_at) WHERE parked_at IS NOT NULL",
    ]
}
