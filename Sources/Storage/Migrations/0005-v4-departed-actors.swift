extension Migrations {
    // A deleted local account tells other servers with a signed `Delete` of its actor, which
    // needs its key after its row is gone: the key stays on the actor's tombstone (with the old
    // account id the deliveries name as signer) until its last delivery is done. Deliveries
    // therefore no longer cascade from the account row; the table is rebuilt without that
    // foreign key (SQLite cannot drop one), its indexes and the trigger naming it recreated.
    static let departedActorsSchema = [
        "ALTER TABLE tombstones ADD COLUMN signer_id INTEGER",
        "ALTER TABLE tombstones ADD COLUMN key_id TEXT",
        "ALTER TABLE tombstones ADD COLUMN private_key_pem TEXT",
        "CREATE INDEX tombstones_by_signer ON tombstones(signer_id) WHERE signer_id IS NOT NULL",
        "DROP TRIGGER domain_block_drops_deliveries",
        """
        CREATE TABLE delivery_queue_unbound (
          id INTEGER PRIMARY KEY NOT NULL,
          activity_uri TEXT NOT NULL,
          account_id INTEGER NOT NULL, -- signer: a local account, or a deleted one keeping its key on its tombstone
          inbox_url TEXT NOT NULL,
          domain TEXT NOT NULL,
          payload BLOB NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at DATETIME NOT NULL,
          last_status INTEGER,
          last_error TEXT,
          created_at DATETIME NOT NULL,
          UNIQUE (activity_uri, inbox_url)
        )
        """,
        """
        INSERT INTO delivery_queue_unbound(id, activity_uri, account_id, inbox_url, domain, payload, attempts, next_attempt_at,
                                           last_status, last_error, created_at)
        SELECT id, activity_uri, account_id, inbox_url, domain, payload, attempts, next_attempt_at, last_status, last_error, created_at
        FROM delivery_queue
        """,
        "DROP TABLE delivery_queue",
        "ALTER TABLE delivery_queue_unbound RENAME TO delivery_queue",
        "CREATE INDEX delivery_queue_ready ON delivery_queue(next_attempt_at, id)",
        "CREATE INDEX delivery_queue_by_domain ON delivery_queue(domain, next_attempt_at)",
        "CREATE INDEX delivery_queue_by_signer ON delivery_queue(account_id)",
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
