import Foundation

/// A part of the suite, selectable with `fednode bench --parts`.
public enum BenchPart: String, CaseIterable, Sendable {
    /// Signed activities accepted by the shared inbox, and the queue's drain rate.
    case inbox
    /// Deliveries of local posts to 200 loopback inboxes.
    case delivery
    /// Home-timeline pages in-process and over the client API.
    case timeline
    /// Idle and peak memory, and time to the first `200` on `/healthz`.
    case memory
    /// Photos through the upload pipeline per second (12-megapixel JPEG) and peak memory.
    case media
    /// The inbox (one process, then two on one database) and deliveries on PostgreSQL; runs
    /// when `FEDNODE_BENCH_DATABASE_URL` names a database on a cluster (`make bench` starts one).
    case postgres
    /// An honest activity, a delivery and a first contact, quiet and then with forty hostile
    /// authorities on two machines holding the node's requests open.
    case attack
}

/// What to run and how big: filled by `fednode bench`'s options.
public struct BenchSettings: Sendable {
    /// The `fednode` executable that runs the server under test.
    public var binary: String
    /// Where keys and generated databases are cached and runs keep their files.
    public var dataDirectory = ".bench"
    /// Where the report goes; `nil` prints only.
    public var output: String? = "BENCHMARKS.md"
    /// The parts to run.
    public var parts = Set(BenchPart.allCases)
    /// A database on the PostgreSQL cluster the `postgres` part creates its databases beside.
    public var postgresURL: String?
    /// Database sizes (posts) of the cost curve; the largest is the one budgets are read at.
    public var sizes = [10_000, 100_000, 1_000_000]
    /// Timed inbox requests per size (after 1,000 warm-up requests, one per actor).
    public var inboxRequests = 20_000
    /// Connections (requests in flight) of the load generator.
    public var connections = 64
    /// Rates of the sustained inbox part to hold, in order, instead of its search from the
    /// burst's drain rate (to compare builds at the same rates).
    public var sustainedRates: [Double]?
    /// Timed timeline pages per size.
    public var timelineQueries = 2_000
    /// Timed posts in the delivery benchmark (after one warm-up post).
    public var deliveryPosts = 20
    /// Distinct loopback inboxes the followers are spread over.
    public var sinkCount = 200
    /// Remote followers of the posting account (several per inbox, collapsed by shared inbox).
    public var followerCount = 1_000
    /// Seconds per `openssl speed` test (sign, then verify).
    public var opensslSeconds = 5
    /// The command that started the run, as the report should quote it.
    public var command: String
    /// Whether this is a smoke run (the report says so).
    public var quick = false

    /// Settings for a full run of `binary`.
    public init(binary: String, command: String) {
        self.binary = binary
        self.command = command
    }

    /// The smaller settings of `--quick`: one small database, few requests.
    public mutating func makeQuick() {
        quick = true
        sizes = [10_000]
        inboxRequests = 3_000
        timelineQueries = 300
        deliveryPosts = 3
        opensslSeconds = 1
    }

    /// The size the budgets are read at.
    public var largestSize: Int { sizes.max() ?? 0 }

    /// A directory under the data directory, for one run's scratch files.
    func runDirectory(_ name: String) -> String {
        ((dataDirectory as NSString).appendingPathComponent("run") as NSString).appendingPathComponent(name)
    }
}
