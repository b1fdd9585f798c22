import Foundation
import Storage
extension ReportBuilder {
    /// The facts behind each figure, stated in the report.
    func notes() -> [String] {
        let generator = "The server under test is `fednode serve` from the same release build, a separate process (its own RSS: `VmRSS`/`VmHWM` of /proc/PID/status) on 127.0.0.1. "
        let sockets = "The load generator (`Sources/Benchmarks/LoadGenerator.swift`) sends pre-built HTTP/1.1 requests over \(settings.connections) keep-alive sockets, "
        let latency = "one request in flight per socket, from one thread; latency is send start to last response byte."
        return [generator + sockets + latency] + inboxNotes() + deliveryNotes() + attackNotes() + timelineNotes() + memoryNotes() + mediaNotes()
            + postgresNotes()
    }

    private func attackNotes() -> [String] {
        guard let attack = results.attack else { return [] }
        return [
            "Under attack: two nodes in the benchmark process (the same release build, SQLite, test mode) on 127.0.0.1, A attacked and B honest, alice@A and bob@B "
                + "following each other; hostile servers on 127.0.0.3 and 127.0.0.4, twenty ports (authorities) each, that accept connections and never answer, "
                + "but for actor documents on 127.0.0.3; an honest newcomer on 127.0.0.2. Each figure is measured once on the quiet node, then once with all three "
                + "attacks running: 80 actors boosting, or creating by reference, posts on the hanging servers (A fetches each); 80 followers on them, whose "
                + "Accepts A cannot deliver; 30 signed POSTs, each from a client of its own, whose keyIds hang. When the attacked figures were taken the hanging "
                + "servers held \(attack.held) of A's requests, \(attack.abandoned) of them given up (timed out) by A.",
        ]
    }

    /// Statements per request of each list, and per inbound `Create`, as the server counted them.
    private static func statementsNote(_ pages: [TimelineHTTPBench.Page], inbound: Double?) -> String {
        var parts = pages.compactMap { page in page.statements.map { "\(page.figure) \(Format.decimal($0))" } }
        if let inbound { parts.append("an inbound Create \(Format.decimal(inbound))") }
        guard !parts.isEmpty else { return "" }
        return " SQL statements per operation on PostgreSQL (each a round trip; from the server's `/metrics`): \(parts.joined(separator: "; "))."
    }

    private func postgresNotes() -> [String] {
        guard let postgres = results.postgres else { return [] }
        let outcomes = postgres.inbox.map { run in
            "\(run.processes) process\(run.processes == 1 ? "" : "es"): " + run.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }.joined(separator: "; ")
        return [
            "PostgreSQL: a throwaway cluster (`scripts/pg-cluster start DIR durable`, Debian's PostgreSQL, Unix socket) on the same machine, "
                + "with \(postgres.serverSettings) as the server reported them; "
                + "the \(Self.count(postgres.posts))-post database copied into a fresh PostgreSQL database with `fednode migrate-data`, "
                + "then, with one process, the lists over HTTP as on SQLite (same pages, same session and token) and "
                + "the inbox part as on SQLite (same warm-up and timed requests, \(settings.connections) connections), "
                + "once with one `fednode serve --database` process and once with two on the same database and data directory, "
                + "the timed requests dealt round-robin to them (\(settings.connections / 2) connections each) and both processes working the queue. "
                + "Outcomes (warm-up included): \(outcomes). Deliveries: the delivery part on a fresh PostgreSQL database, one process. "
                + "The PostgreSQL server's own CPU shares the machine's cores with the node processes"
                + (postgres.serverCPUShare.map { ": its processes used \(Int(($0 * 100).rounded())) % of all cores' time over the part." } ?? ".")
                + (postgres.timelineFailure.map { " The lists over HTTP on PostgreSQL gave no figures: \($0)." } ?? "")
                + Self.statementsNote(postgres.timeline, inbound: postgres.statementsPerCreate),
        ]
    }

    private func inboxNotes() -> [String] {
        guard let inbox = results.inbox[size] else { return [] }
        let actors = BenchWorld.keyedActorCount
        let bodyBytes = InboxTraffic.activity(actors).utf8.count
        let setup = "Inbox: each size runs on a fresh copy of its generated database. \(actors) remote actors on \(BenchWorld.domainCount) domains, "
            + "their public keys stored in the node's database; a warm-up of \(actors) activities (one per actor: fills the node's key cache) is sent and drained first, "
        let traffic = "then \(settings.inboxRequests) timed, distinct `Create(Note)` activities (\(bodyBytes)-byte photo posts with a hashtag and an image, "
            + "draft-cavage signed with `(request-target) host date digest content-type`, all signed before timing). "
            + "The inbox worker runs in the same server meanwhile, as in production; the posts fan out to the reader who follows every sender."
        let backlogs = settings.sizes.sorted().compactMap { size in results.inbox[size].map { "\(Self.count(size)): \($0.backlog)" } }
        let outcomes = inbox.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        let drain = "Inbox drain: timed activities divided by the time from the first request to an empty queue (`inbox_queue` rows not yet attempted, polled every 20 ms). "
            + "Backlog when the last 202 came back: \(backlogs.joined(separator: ", ")). "
            + "Outcomes at \(Self.count(size)) posts (warm-up included\(inbox.outcomesFromMetrics ? ", the server's `fednode_inbox_processed_total`" : ", from the database")): "
            + "\(outcomes.joined(separator: ", "))."
            + (inbox.serverQueued.map { " The server counted \($0) of the timed activities as queued (`fednode_inbox_accepted_total`)." } ?? "")
        let window = inbox.accepted.seconds
        let cpu = "While the timed requests were sent (\(String(format: "%.1f", window)) s at \(Self.count(size)) posts) the server used "
            + String(format: "%.2f cores and the benchmark process (the load generator) %.2f.", inbox.serverCPU / window, inbox.generatorCPU / window)
        var notes = [setup + traffic + " " + cpu, drain]
        let acceptedCount = inbox.accepted.statuses[202, default: 0]
        if let share = inbox.cpuPerActivity(accepted: acceptedCount) {
            let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
            let ceiling = cores / (share.accepting + share.processing)
            notes.append("Inbox CPU per activity at \(Self.count(size)) posts, the server's utime + stime: processing "
                + "\(Format.ms(share.processing * 1000)) (the worker alone, from the last 202 to the empty queue: "
                + String(format: "%.2f", inbox.drainCPU) + " CPU-seconds for the \(inbox.backlog) items not yet started at the last 202), accepting "
                + "\(Format.ms(share.accepting * 1000)) (the burst's CPU less the processing of the \(acceptedCount - inbox.backlog) items started during it). "
                + "A steady rate r costs about r × (accepting + processing) CPU-seconds a second: at these costs \(Int(cores)) cores could carry at most "
                + "\(Int(ceiling))/s (less, as the load generator shares them); 0.8 × the burst's accepted rate is \(Int(0.8 * inbox.accepted.rate(of: 202)))/s.")
        }
        if let groups = inbox.groupCommits, groups.transactions > 0 {
            notes.append("Group commit while the timed requests were sent, from the server's `/metrics` (`fednode_sqlite_group_commit_size`): "
                + "\(Int(groups.transactions)) durable transactions held \(Int(groups.writes)) inbox writes, "
                + String(format: "%.1f per transaction on average.", groups.writes / groups.transactions))
        }
        let others = inbox.accepted.statuses.filter { $0.key != 202 }
        if !others.isEmpty || inbox.accepted.failures > 0 {
            notes.append("Inbox answers other than 202 at \(Self.count(size)) posts: \(others) and \(inbox.accepted.failures) without an answer.")
        }
        notes.append("Inbox reference: the same generator and connections sending `GET /healthz` (one `SELECT 1` through the database pool) to the same server, before the inbox traffic.")
        if !results.sustained.isEmpty {
            let steps = results.sustained.map { step in
                "\(Int(step.rate))/s: \(step.accepted.statuses[202, default: 0]) accepted\(Self.otherAnswers(step.accepted)), queue depth by 10 s \(stride(from: 0, to: step.depths.count, by: 10).map { String(step.depths[$0]) }.joined(separator: " → ")) (\(step.sustained ? "held" : "grew"); the benchmark process used \(String(format: "%.2f", step.generatorCores)) cores)"
            }
            notes.append("Inbox sustained, at \(Self.count(size)) posts on a fresh copy, after the warm-up: signed activities sent at a steady pace "
                + "(open loop: request n leaves n/rate seconds after the start) for \(Int(SustainedInboxBench.seconds(settings))) s each, the queue "
                + "(`inbox_queue` rows not yet attempted) sampled every second. A rate holds when every request got its 202 and the depth over the last "
                + "tenth of the run is at most the depth over the third tenth plus one second of arrivals, and under five seconds of arrivals. "
                + (settings.sustainedRates == nil
                    ? "The first rate is the burst's drain rate; then 1.5 × the best rate that held, or 2/3 of the lowest that did not. "
                    : "The rates were chosen (`--sustained-rates`), not searched, so the table gives no verdict. ")
                + steps.joined(separator: "; ") + ".")
        }
        return notes
    }

    /// What else a paced run's requests got besides 202s, if anything: other statuses, no
    /// answer, and the requests sent again after a kept-alive connection closed under them.
    static func otherAnswers(_ result: LoadResult) -> String {
        var parts = result.statuses.filter { $0.key != 202 }.sorted { $0.key < $1.key }.map { "\($0.value) answered \($0.key)" }
        if result.failures > 0 { parts.append("\(result.failures) not answered") }
        if result.resent > 0 { parts.append("\(result.resent) sent again on a new connection") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    private func deliveryNotes() -> [String] {
        guard let delivery = results.delivery, let openssl = results.openssl else { return [] }
        let perInbox = settings.followerCount / settings.sinkCount
        let perPost = String(format: "%.0f", delivery.perPost)
        let setup = "Delivery: one local account with \(settings.followerCount) remote followers spread over \(settings.sinkCount) loopback sink inboxes "
            + "(one port, so one domain, each, four domains to a loopback address as on shared hosting; \(perInbox) followers share each shared inbox), so each post queues \(perPost) deliveries. "
        let posts = "One warm-up post, then \(settings.deliveryPosts) posts written through `PostService.create` (post, outbox and delivery rows in one transaction) "
            + "by the benchmark process into the server's database. "
        let rate = "Rate = \(delivery.deliveries) deliveries / (last acknowledgement − first arrival at a sink); \(delivery.signed) requests carried a signature. "
            + "CPU per delivery from the commit to the last acknowledgement: the server \(Format.ms(delivery.serverCPU * 1000)), "
            + "the benchmark process (its sinks, one thread waiting with epoll, and its writing the posts and polling the queue) \(Format.ms(delivery.benchCPU * 1000)). "
        let wake = "From the commit to the first arrival took \(Format.seconds(delivery.wakeUp)): the posts are written by another process, "
            + "so the worker only finds them at its next poll (every 5 s); commit to last acknowledgement \(Format.seconds(delivery.endToEnd))."
        let reference = "Delivery reference: `\(openssl.command)` in the same run, with nothing else of the suite running (\(Format.rate(openssl.verifyPerSecond)) verify)."
        return [setup + posts + rate + wake, reference]
    }

    private func timelineNotes() -> [String] {
        guard let timeline = results.timeline[size] else { return [] }
        let data = "Home timeline: generated databases with \(BenchWorld.accountCount) remote accounts on \(BenchWorld.domainCount) domains, "
            + "posts spread over 2025 with seeded random authors; the local reader follows \(BenchWorld.keyedActorCount) of them and has the home-timeline rows "
            + "fan-out on write would have given it (\(Self.count(timeline.entries)) at \(Self.count(size)) posts). "
        let p99s = timeline.passP99s.map(Format.ms).joined(separator: ", ")
        let pages = "\(settings.timelineQueries) pages per size in three timed passes after an untimed one (the pass with the median p99 is reported; "
            + "page p99 of the passes at \(Self.count(size)): \(p99s)): every fourth the first page, "
            + "the rest below a seeded random post of the reader's timeline (`max_id`). "
        let method = "In-process = one read transaction around `Timelines.homeRows` (rows decoded into `Post`); "
            + "reference = `\(Timelines.rawHomeScanSQL)` as a prepared statement for the same pages."
        let plan = timeline.plan.map { "`\($0)`" }.joined(separator: "; ")
        var notes = [data + pages + method, "Query plan of the page (`EXPLAIN QUERY PLAN`): \(plan)."]
        if let pages = results.startup?.http, !pages.isEmpty {
            notes.append("Lists over HTTP: against `fednode serve` on a copy of the database, each list with the reader's bearer token "
                + "(the web feed page with a signed-in session cookie instead), \(settings.connections) connections, 200 warm-up requests, "
                + "then \(settings.timelineQueries) pages: every fourth the first page, the rest below a seeded random id of that list "
                + "(`max_id`). Every post carries #\(BenchWorld.hashtag); every tenth post of a followed actor mentions the reader "
                + "(the notifications); one actor has \(BenchWorld.popularFollowers) real follower rows, and it and a quiet actor wrote "
                + "every hundredth post. The web feed page holds fewer cards than the API's 20 statuses, with their latest comments.")
            let served = pages.compactMap { page in page.serverSeconds.map { "\(page.figure) \(Format.ms($0 * 1000))" } }
            if !served.isEmpty {
                notes.append("Lists over HTTP as the server timed them (from its `/metrics`, `fednode_http_request_duration_seconds`: the mean time "
                    + "from the router to the response head of the timed requests: waits inside a handler, for a core or a database connection, "
                    + "are included; time a request spent queued before the router is not): \(served.joined(separator: "; ")).")
            }
        }
        let counted = (results.startup?.http ?? []).compactMap { page in page.statements.map { "\(page.figure) \(Format.decimal($0))" } }
        if !counted.isEmpty {
            notes.append("SQL statements per request of the lists over HTTP on SQLite (from the server's `/metrics`, `fednode_http_request_statements`, "
                + "transaction bodies without BEGIN and COMMIT): \(counted.joined(separator: "; ")).")
        }
        return notes
    }

    private func memoryNotes() -> [String] {
        guard let startup = results.startup, let references = results.startupReferences, settings.parts.contains(.memory) else { return [] }
        let starts = startup.starts.map(Format.seconds).joined(separator: ", ")
        let start = "Start: spawn of `fednode serve` to the first 200 on `/healthz` (polled every 2 ms) on a copy of the \(Self.count(startup.posts))-post database, "
            + "page cache warm: \(starts); an empty data directory (creates the schema and instance key): \(Format.seconds(references.emptyStart)). "
        let startPeaks = [results.inbox[size].map { "inbox server \(Format.mb($0.startPeakBytes))" }, results.delivery.map { "delivery server \(Format.mb($0.startPeakBytes))" }]
            .compactMap { $0 }.joined(separator: ", ")
        let memory = "Idle RSS is read 2 s after the first 200, before any other request. Peak RSS is `VmHWM` of the server process at the end of the part, "
            + "reset (`/proc/PID/clear_refs`) once the server answered, so it is the part's own peak; the peak during start-up was \(startPeaks.isEmpty ? "not measured" : startPeaks)."
        return [start + memory, "Idle memory by kind (/proc/PID/smaps): \(startup.idleBreakdown)."]
    }

    private func mediaNotes() -> [String] {
        guard let media = results.media else { return [] }
        return ["Photos: a 4000×3000 JPEG (Q 90, \(media.inputBytes / 1024) KiB, seeded noise so it compresses like a photo) made with libvips in the run; "
            + "\(media.photos) of them through `MediaProcessor.process(_:kind: .post)` (header check, decode, EXIF orientation, metadata strip, sRGB, "
            + "1920 px progressive JPEG, 500×500 thumbnail, blurhash), \(media.concurrency) at a time, after one warm-up, in the benchmark process; "
            + "peak = its `VmHWM` after a reset (`/proc/self/clear_refs`) just before the timed photos. Reference: the same JPEG fully decoded by libvips "
            + "(`jpegload` + `copy_memory`), as many in parallel."]
    }
}
