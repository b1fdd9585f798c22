extension Migrations {
    /// Inbox hardening: de-duplication keyed by the sender's origin (one server cannot burn
    /// another's activity ids) with an index for pruning old rows, and queued deliveries to a
    /// domain dropped as soon as it (or a parent domain) is blocked, however the block is made.
    static let inboxHardeningSchema = [
        """
        CREATE TABLE seen_activities_by_origin (
          origin TEXT NOT NULL COLLATE NOCASE,        -- host[:port] of the sender
          uri TEXT NOT NULL,                          -- the activity id, or sha256:... of an id-less body
          type TEXT,
          outcome TEXT,                               -- queued, processed, ignored, refused
          seen_at DATETIME NOT NULL,
          PRIMARY KEY (origin, uri)
        ) WITHOUT ROWID
        """,
        """
        INSERT INTO seen_activities_by_origin(origin, uri, type, outcome, seen_at)
        SELECT lower(CASE WHEN instr(substr(uri, instr(uri, '://') + 3), '/') > 0
                          THEN substr(substr(uri, instr(uri, '://') + 3), 1, instr(substr(uri, instr(uri, '://') + 3), '/') - 1)
                          ELSE substr(uri, instr(uri, '://') + 3) END),
               uri, type, outcome, seen_at
        FROM seen_activities
        """,
        "DROP TABLE seen_activities",
        "ALTER TABLE seen_activities_by_origin RENAME TO seen_activities",
        "CREATE INDEX seen_activities_by_age ON seen_activities(seen_at)",
        "CREATE INDEX seen_activities_by_uri ON seen_activities(uri)",
        // Deliveries already queued to a domain blocked before this migration.
        """
        DELETE FROM delivery_queue WHERE EXISTS (
          SELECT 1 FROM domain_blocks b
          WHERE lower(delivery_queue.domain) = lower(b.domain)
             OR lower(CASE WHEN instr(delivery_queue.domain, ':') > 0
                           THEN substr(delivery_queue.domain, 1, instr(delivery_queue.domain, ':') - 1)
                           ELSE delivery_queue.domain END) = lower(b.domain)
             OR substr(lower(CASE WHEN instr(delivery_queue.domain, ':') > 0
                                  THEN substr(delivery_queue.domain, 1, instr(delivery_queue.domain, ':') - 1)
                                  ELSE delivery_queue.domain END), -length(b.domain) - 1) = '.' || lower(b.domain))
        """,
        """
        CREATE TRIGGER domain_block_drops_deliveries AFTER INSERT ON domain_blocks BEGIN
          DELETE FROM delivery_queue
          WHERE lower(domain) = lower(NEW.domain)
             OR lower(CASE WHEN instr(domain, ':') > 0 THEN substr(domain, 1, instr(domain, ':') - 1) ELSE domain END)
                = lower(NEW.domain)
             OR substr(lower(CASE WHEN instr(domain, ':') > 0 THEN substr(domain, 1, instr(domain, ':') - 1) ELSE domain END),
                       -length(NEW.domain) - 1) = '.' || lower(NEW.domain);
        END
        """,
    ]
}
