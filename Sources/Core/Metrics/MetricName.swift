import Prometheus

/// The name and help text of every FedNode metric, in one place: the registry refuses a name
/// registered twice with different help texts, and operators read these in `# HELP` lines.
/// Every name is `fednode_SUBSYSTEM_NAME[_UNIT]`.
package enum MetricName {
    /// `fednode_inbox_accepted_total`, counter by `result` (`queued`, `duplicate`, `skipped`).
    package static var inboxAccepted: MetricNameDescriptor {
        make("inbox", "accepted", unit: "total", help: """
            Inbox POSTs answered 202 Accepted, by result: queued, duplicate (an activity id already seen) \
            or skipped (a Delete of an unknown actor).
            """)
    }
    /// `fednode_inbox_refused_total`, counter by `status` (the HTTP status answered).
    package static var inboxRefused: MetricNameDescriptor {
        make("inbox", "refused", unit: "total", help: "Inbox POSTs refused, by the HTTP status answered (401 bad signature, 403 blocked, 400 malformed, ...).")
    }
    /// `fednode_inbox_processed_total`, counter by `outcome` (`processed`, `ignored`, `refused`, `retry`, `parked`).
    package static var inboxProcessed: MetricNameDescriptor {
        make("inbox", "processed", unit: "total", help: "Inbox processing attempts that ended, by outcome: processed, ignored, refused, retry or parked.")
    }
    /// `fednode_inbox_queue_depth`, gauge by `state` (`pending`, `retrying`, `parked`).
    package static var inboxQueueDepth: MetricNameDescriptor {
        make("inbox", "queue_depth", help: """
            Inbox queue items by state: pending (due), retrying (waiting for their next attempt), parked (kept for the admin).
            """)
    }
    /// `fednode_delivery_attempts_total`, counter by `outcome` (`delivered`, `retry`, `gave_up`, `interrupted`).
    package static var deliveryAttempts: MetricNameDescriptor {
        make("delivery", "attempts", unit: "total", help: """
            Outgoing delivery attempts, by outcome: delivered, retry, gave_up, or interrupted (shutdown or not recorded; stays due).
            """)
    }
    /// `fednode_delivery_failures_total`, counter by `domain` (a bounded number, then `other`).
    package static var deliveryFailures: MetricNameDescriptor {
        make("delivery", "failures", unit: "total", help: "Failed delivery attempts by recipient domain; domains past the first few dozen count as other.")
    }
    /// `fednode_delivery_queue_depth`, gauge by `state` (`pending`, `retrying`, `unavailable`).
    package static var deliveryQueueDepth: MetricNameDescriptor {
        make("delivery", "queue_depth", help: """
            Queued deliveries by state: pending (due), retrying (waiting after a failure), unavailable (held: domain marked down).
            """)
    }
    /// `fednode_delivery_unavailable_domains`, gauge.
    package static var unavailableDomains: MetricNameDescriptor {
        make("delivery", "unavailable_domains", help: "Domains marked unavailable after failing for days (their deliveries are held and probed).")
    }
    /// `fednode_http_request_duration_seconds`, histogram by `route`, `method` and `status` (`2xx`, `4xx`, ...).
    package static var httpDuration: MetricNameDescriptor {
        make("http", "request_duration", unit: "seconds", help: """
            Time to answer an HTTP request (until the response head), by matched route pattern, method and status class.
            """)
    }
    /// `fednode_media_processing_seconds`, histogram by `kind` (`post`, `avatar`, `header`) and `result` (`ok`, `error`).
    package static var mediaProcessing: MetricNameDescriptor {
        make("media", "processing", unit: "seconds", help: "Time libvips spent on one uploaded image (decode, resize, encode, BlurHash), by kind and result.")
    }
    /// `fednode_sqlite_group_commit_size`, histogram of writes per transaction.
    package static var groupCommitSize: MetricNameDescriptor {
        make("sqlite", "group_commit_size", help: "Durable inbox writes committed together in one transaction (group commit; SQLite or PostgreSQL, the name kept).")
    }
    /// `fednode_sqlite_bookkeeping_group_size`, histogram of queue bookkeeping writes per transaction.
    package static var bookkeepingGroupSize: MetricNameDescriptor {
        make("sqlite", "bookkeeping_group_size",
             help: "Queue bookkeeping writes (attempts, delivery outcomes, retries) committed together in one transaction (SQLite or PostgreSQL).")
    }

    /// `fednode_http_request_statements`, histogram by `route` and `method`.
    package static var httpStatements: MetricNameDescriptor {
        make("http", "request_statements", help: "SQL statements run per request (transaction bodies; not BEGIN and COMMIT), by matched route pattern and method.")
    }
    /// `fednode_inbox_activity_statements`, histogram by activity `type`.
    package static var inboxStatements: MetricNameDescriptor {
        make("inbox", "activity_statements", help: "SQL statements run per processed inbox activity (handling and finishing it), by activity type.")
    }

    private static func make(_ subsystem: String, _ name: String, unit: String = "", help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "fednode", subsystem: subsystem, metricName: name, unitName: unit, helpText: help)
    }
}
