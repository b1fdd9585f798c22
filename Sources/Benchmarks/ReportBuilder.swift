import Foundation
/// Turns what the parts measured into the report's rows, cost curve and notes.
struct ReportBuilder {
    let settings: BenchSettings
    let results: Results

    /// The budget each figure is judged against, in the units measured.
    enum Budget {
        static let inboxPerSecond = 5_000.0
        static let deliveryShareOfSigning = 0.5
        /// How much longer an honest activity, a delivery or a first contact may take under attack.
        static let attackExtraSeconds = 2.0
        static let timelineP99Milliseconds = 5.0
        static let idleBytes = 50_000_000
        static let peakBytes = 300_000_000
        static let startSeconds = 1.0
        static let listShareOfHealthz = 0.1
        static let listP99Milliseconds = 50.0
        static let photoShareOfDecode = 0.5
        static let photoPeakBytes = 250_000_000
    }

    func fill(_ report: inout BenchReport) {
        report.rows += inboxRows() + deliveryRows() + attackRows() + timelineRows() + memoryRows() + mediaRows() + postgresRows()
        fillCurve(&report)
        report.notes += notes()
    }

    var size: Int { settings.largestSize }
    var sizeLabel: String { Self.count(size) + " posts" }

    private func mediaRows() -> [BenchReport.Row] {
        guard let media = results.media else { return [] }
        return [
            .init(figure: "Photos: 12-megapixel JPEG through the upload pipeline (photos/s, \(media.concurrency) at a time)",
                  value: String(format: "%.2f/s", media.photosPerSecond),
                  reference: String(format: "bare libvips decode: %.2f/s", media.decodesPerSecond),
                  ratio: Format.ratio(media.photosPerSecond / media.decodesPerSecond), budget: "≥ 0.5 × reference",
                  verdict: Format.verdict(media.photosPerSecond >= Budget.photoShareOfDecode * media.decodesPerSecond)),
            .init(figure: "Photos: peak RSS of the process while processing", value: Format.mb(media.peak),
                  reference: "before: " + Format.mb(media.residentBefore),
                  ratio: Format.ratio(Double(media.peak) / Double(max(media.residentBefore, 1))), budget: "≤ 250 MB",
                  verdict: Format.verdict(media.peak <= Budget.photoPeakBytes)),
        ]
    }

    /// The PostgreSQL part: each figure against the same figure on SQLite in this run, and the
    /// two-process inbox against the one-process one (the scaling).
    private func postgresRows() -> [BenchReport.Row] {
        guard let postgres = results.postgres else { return [] }
        let label = Self.count(postgres.posts) + " posts"
        var rows: [BenchReport.Row] = []
        let sqlite = results.inbox[postgres.posts]
        let one = postgres.inbox.first { $0.processes == 1 }
        for run in postgres.inbox {
            let processes = run.processes == 1 ? "1 process" : "\(run.processes) processes"
            let accepted = run.acceptedRate, drain = run.drainRate
            let acceptRef: (String, Double?) = run.processes == 1
                ? ("SQLite: " + (sqlite.map { Format.rate($0.accepted.rate(of: 202)) } ?? "—"), sqlite?.accepted.rate(of: 202))
                : ("1 process: " + (one.map { Format.rate($0.acceptedRate) } ?? "—"), one?.acceptedRate)
            let drainRef: (String, Double?) = run.processes == 1
                ? ("SQLite: " + (sqlite.map { Format.rate($0.drainRate) } ?? "—"), sqlite?.drainRate)
                : ("1 process: " + (one.map { Format.rate($0.drainRate) } ?? "—"), one?.drainRate)
            rows.append(.init(figure: "PostgreSQL, \(processes): inbox accepted (202), \(settings.connections) connections, \(label)",
                              value: Format.rate(accepted), reference: acceptRef.0, ratio: acceptRef.1.map { Format.ratio(accepted / $0) } ?? "—"))
            rows.append(.init(figure: "PostgreSQL, \(processes): inbox queue drained (processed/s)",
                              value: Format.rate(drain) + (run.drained ? "" : " (not drained)"),
                              reference: drainRef.0, ratio: drainRef.1.map { Format.ratio(drain / $0) } ?? "—"))
        }
        // The SQLite lists at the same size (measured at every size of the cost curve).
        let sqlitePages = results.startups[postgres.posts]?.http ?? []
        for page in postgres.timeline {
            let rate = page.load.rate(of: 200)
            let reference = sqlitePages.first { $0.figure == page.figure }.map { $0.load.rate(of: 200) }
            rows.append(.init(figure: "PostgreSQL, 1 process: \(page.figure), \(label) (requests/s)",
                              value: "\(Format.rate(rate)) (p99 \(Format.ms(page.load.stats.p99)))",
                              reference: "SQLite: " + (reference.map(Format.rate) ?? "—"),
                              ratio: reference.map { Format.ratio(rate / $0) } ?? "—"))
        }
        if let delivery = postgres.delivery {
            let reference = results.delivery?.rate
            rows.append(.init(figure: "PostgreSQL: deliveries to \(settings.sinkCount) loopback inboxes (deliveries/s)",
                              value: Format.rate(delivery.rate), reference: "SQLite: " + (reference.map(Format.rate) ?? "—"),
                              ratio: reference.map { Format.ratio(delivery.rate / $0) } ?? "—"))
        }
        return rows
    }

    private func inboxRows() -> [BenchReport.Row] {
        guard let inbox = results.inbox[size] else { return [] }
        let accepted = inbox.accepted.rate(of: 202), reference = inbox.reference.rate(of: 200)
        let stats = inbox.accepted.stats, referenceStats = inbox.reference.stats
        return [
            .init(figure: "Inbox: signed Create(Note) accepted (202), \(settings.connections) connections, \(sizeLabel)",
                  value: Format.rate(accepted), reference: "GET /healthz: \(Format.rate(reference))",
                  ratio: Format.ratio(accepted / reference), budget: "≥ 5,000/s", verdict: Format.verdict(accepted >= Budget.inboxPerSecond)),
            .init(figure: "Inbox: latency p50 / p99", value: "\(Format.ms(stats.p50)) / \(Format.ms(stats.p99))",
                  reference: "GET /healthz: \(Format.ms(referenceStats.p50)) / \(Format.ms(referenceStats.p99))",
                  ratio: Format.ratio(stats.p99 / referenceStats.p99)),
            .init(figure: "Inbox: queue drained by the worker (processed/s)",
                  value: Format.rate(inbox.drainRate) + (inbox.drained ? "" : " (not drained)"),
                  reference: "accepted: \(Format.rate(accepted))", ratio: Format.ratio(inbox.drainRate / accepted)),
        ] + sustainedRows(accepted: accepted)
    }

    /// The highest rate the queue stayed bounded at, against the burst's accept rate.
    private func sustainedRows(accepted: Double) -> [BenchReport.Row] {
        guard !results.sustained.isEmpty else { return [] }
        let best = results.sustained.filter(\.sustained).map(\.rate).max() ?? 0
        let tried = results.sustained.map { "\(Int($0.rate))/s \($0.sustained ? "held" : "grew")" }.joined(separator: ", ")
        return [.init(figure: "Inbox: sustained accept rate, queue bounded for \(Int(SustainedInboxBench.seconds(settings))) s (tried \(tried))",
                      value: best > 0 ? Format.rate(best) : "none held", reference: "accepted (burst): \(Format.rate(accepted))",
                      ratio: Format.ratio(best / accepted), budget: "≥ 0.8 × accepted",
                      verdict: settings.sustainedRates == nil ? Format.verdict(best >= 0.8 * accepted) : "—")]
    }

    private func deliveryRows() -> [BenchReport.Row] {
        guard let delivery = results.delivery, let openssl = results.openssl else { return [] }
        let share = delivery.rate / openssl.signPerSecond
        return [
            .init(figure: "Delivery: local posts to followers on \(settings.sinkCount) loopback inboxes (deliveries/s)",
                  value: Format.rate(delivery.rate), reference: "openssl RSA-2048 sign: \(Format.rate(openssl.signPerSecond))",
                  ratio: Format.ratio(share), budget: "≥ 0.50 × reference", verdict: Format.verdict(share >= Budget.deliveryShareOfSigning)),
        ]
    }

    /// Each attacked figure against the same figure on the quiet node, in the same run.
    private func attackRows() -> [BenchReport.Row] {
        guard let attack = results.attack else { return [] }
        let rows: [(String, (quiet: Double, attacked: Double))] = [
            ("Under attack: an honest Create processed (post on B to stored on A), 80 actors on 20 hanging authorities boosting posts there", attack.inbox),
            ("Under attack: a healthy follower receives a post (post on A to stored on B), 80 followers' inboxes hanging on 20 authorities", attack.delivery),
            ("Under attack: a new actor's first signed POST answered, 30 POSTs whose keyIds hang on 20 authorities", attack.firstContact),
        ]
        return rows.map { figure, times in
            .init(figure: figure, value: Format.seconds(times.attacked), reference: "quiet node: \(Format.seconds(times.quiet))",
                  ratio: Format.ratio(times.attacked / max(times.quiet, 0.001)), budget: "≤ quiet + 2 s",
                  verdict: Format.verdict(times.attacked <= times.quiet + Budget.attackExtraSeconds))
        }
    }

    private func timelineRows() -> [BenchReport.Row] {
        var rows: [BenchReport.Row] = []
        if let timeline = results.timeline[size] {
            rows.append(.init(figure: "Home timeline: 20-post page in-process p50, \(sizeLabel)", value: Format.ms(timeline.page.p50),
                              reference: "raw index scan: \(Format.ms(timeline.rawScan.p50))",
                              ratio: Format.ratio(timeline.page.p50 / timeline.rawScan.p50)))
            rows.append(.init(figure: "Home timeline: 20-post page in-process p99", value: Format.ms(timeline.page.p99),
                              reference: "raw index scan: \(Format.ms(timeline.rawScan.p99))",
                              ratio: Format.ratio(timeline.page.p99 / timeline.rawScan.p99), budget: "≤ 5 ms",
                              verdict: Format.verdict(timeline.page.p99 <= Budget.timelineP99Milliseconds)))
        }
        if let pages = results.startup?.http, !pages.isEmpty {
            let reference = results.inbox[size].map { "GET /healthz: \(Format.rate($0.reference.rate(of: 200)))" } ?? "—"
            let referenceRate = results.inbox[size]?.reference.rate(of: 200) ?? .nan
            for page in pages {
                let (rate, p99) = (page.load.rate(of: 200), page.load.stats.p99)
                rows.append(.init(figure: "Lists over HTTP: \(page.figure) (requests/s)",
                                  value: "\(Format.rate(rate)) (p50 \(Format.ms(page.load.stats.p50)), p99 \(Format.ms(p99)))",
                                  reference: reference, ratio: Format.ratio(rate / referenceRate), budget: "≥ 0.1 × /healthz, p99 ≤ 50 ms",
                                  verdict: Format.verdict(rate >= Budget.listShareOfHealthz * referenceRate && p99 <= Budget.listP99Milliseconds)))
            }
        }
        return rows
    }

    private func memoryRows() -> [BenchReport.Row] {
        var rows: [BenchReport.Row] = []
        if let startup = results.startup, let references = results.startupReferences, settings.parts.contains(.memory) {
            rows.append(.init(figure: "Memory: RSS idle, \(Self.count(startup.posts)) posts", value: Format.mb(startup.idleBytes),
                              reference: "empty node: \(Format.mb(references.emptyIdleBytes))",
                              ratio: Format.ratio(Double(startup.idleBytes) / Double(references.emptyIdleBytes)),
                              budget: "≤ 50 MB", verdict: Format.verdict(startup.idleBytes <= Budget.idleBytes)))
        }
        let idle = results.startup.map { Double($0.idleBytes) } ?? .nan
        let idleText = results.startup.map { "idle: \(Format.mb($0.idleBytes))" } ?? "—"
        if let inbox = results.inbox[size] {
            rows.append(.init(figure: "Memory: peak RSS during inbox (part 1)", value: Format.mb(inbox.peakBytes), reference: idleText,
                              ratio: Format.ratio(Double(inbox.peakBytes) / idle), budget: "≤ 300 MB",
                              verdict: Format.verdict(inbox.peakBytes <= Budget.peakBytes)))
        }
        if let delivery = results.delivery {
            rows.append(.init(figure: "Memory: peak RSS during delivery (part 2)", value: Format.mb(delivery.peakBytes), reference: idleText,
                              ratio: Format.ratio(Double(delivery.peakBytes) / idle), budget: "≤ 300 MB",
                              verdict: Format.verdict(delivery.peakBytes <= Budget.peakBytes)))
        }
        if let startup = results.startup, let references = results.startupReferences, settings.parts.contains(.memory) {
            let start = Self.median(startup.starts), help = Self.median(references.helpRuns)
            rows.append(.init(figure: "Start: spawn to first 200 on /healthz, \(Self.count(startup.posts)) posts (median of \(startup.starts.count))",
                              value: Format.seconds(start), reference: "`fednode --help`: \(Format.seconds(help))",
                              ratio: Format.ratio(start / help), budget: "≤ 1 s", verdict: Format.verdict(start <= Budget.startSeconds)))
        }
        return rows
    }

    private func fillCurve(_ report: inout BenchReport) {
        guard results.timeline.count + results.inbox.count > 0 else { return }
        report.curveHeader = ["posts", "timeline rows", "page p50", "page p99", "raw scan p99",
                              "inbox accepted/s", "inbox p99", "drained/s", "start", "peak RSS", "home over HTTP", "web feed over HTTP", "idle RSS"]
        for size in settings.sizes.sorted() {
            let timeline = results.timeline[size], inbox = results.inbox[size], startup = results.startups[size]
            func list(_ figure: String) -> String {
                guard let page = startup?.http.first(where: { $0.figure.hasPrefix(figure) }) else { return "—" }
                return "\(Format.rate(page.load.rate(of: 200))) (p99 \(Format.ms(page.load.stats.p99)))"
            }
            report.curve.append([
                Self.count(size), timeline.map { Self.count($0.entries) } ?? "—",
                timeline.map { Format.ms($0.page.p50) } ?? "—", timeline.map { Format.ms($0.page.p99) } ?? "—",
                timeline.map { Format.ms($0.rawScan.p99) } ?? "—",
                inbox.map { Format.rate($0.accepted.rate(of: 202)) } ?? "—", inbox.map { Format.ms($0.accepted.stats.p99) } ?? "—",
                inbox.map { Format.rate($0.drainRate) } ?? "—", inbox.map { Format.seconds($0.startSeconds) } ?? "—",
                inbox.map { Format.mb($0.peakBytes) } ?? "—",
                list("GET /api/v1/timelines/home"), list("GET /home"),
                startup.map { Format.mb($0.idleBytes) } ?? "—",
            ])
        }
    }

    static func count(_ value: Int) -> String {
        if value >= 1_000_000, value % 1_000_000 == 0 { return "\(value / 1_000_000)M" }
        if value >= 1_000, value % 1_000 == 0 { return "\(value / 1_000)k" }
        return "\(value)"
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }
}
