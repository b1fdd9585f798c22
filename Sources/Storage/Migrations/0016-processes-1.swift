extension Migrations {
    /// Several `fednode` processes on one database (PostgreSQL): queued work carries a lease
    /// (who claimed it, until when), rate-limit windows are counted in the database, and
    /// scheduled jobs record their last run.
    static let processesSchema = [
        "ALTER TABLE inbox_queue ADD COLUMN claimed_by TEXT",
        "ALTER TABLE inbox_queue ADD COLUMN claimed_until DATETIME",
        // The actors with an item in flight somewhere: their next item waits.
        "CREATE INDEX inbox_queue_claimed ON inbox_queue(actor_uri, claimed_until) WHERE claimed_until IS NOT NULL",
        "ALTER TABLE delivery_queue ADD COLUMN claimed_by TEXT",
        "ALTER TABLE delivery_queue ADD COLUMN claimed_until DATETIME",
        "ALTER TABLE push_deliveries ADD COLUMN claimed_by TEXT",
        "ALTER TABLE push_deliveries ADD COLUMN claimed_until DATETIME",
        """
        CREATE TABLE rate_limit_windows (
          key TEXT PRIMARY KEY NOT NULL,              -- what is counted: rule and client or account
          started_at DATETIME NOT NULL,
          hits INTEGER NOT NULL
        ) WITHOUT ROWID
        """,
        "CREATE INDEX rate_limit_windows_by_start ON rate_limit_windows(started_at)",
        """
        CREATE TABLE scheduled_job_runs (
          name TEXT PRIMARY KEY NOT NULL,
          last_run_at DATETIME NOT NULL
        ) WITHOUT ROWID
        """,
    ]
}
