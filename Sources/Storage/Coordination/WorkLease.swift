import Foundation
import GRDB
import Synchronization

/// A claim on queued work (an inbox item, a delivery, a push) by one process, until a time.
///
/// Several processes on one PostgreSQL database share the queues: a worker claims rows before
/// it works on them, other processes leave claimed rows alone until the claim ends or runs
/// out, and a live process renews its claims well before then. A process that dies leaves
/// its claims to run out, after which another process takes the work again (counted as an
/// unfinished attempt, as after a crash of a single process). On SQLite one process serves
/// the file and nothing is claimed.
public struct WorkLease: Sendable, Equatable {
    /// How long a claim holds without renewal.
    public static let duration: TimeInterval = 60
    /// How often a live process renews its claims.
    public static let renewalInterval: TimeInterval = 20

    /// The claiming process (`Node.processId`).
    public let holder: String
    /// When the claim runs out.
    public let until: Date

    /// A claim by `holder` from `now` for `duration`.
    public init(holder: String, from now: Date) {
        self.holder = holder
        self.until = now.addingTimeInterval(Self.duration)
    }

    /// Marks rows `ids` of `queue` as claimed by this lease (the caller chose them free).
    func claim(_ ids: [Int64], of queue: ClaimedWork.Queue, in db: SQLSession) throws {
        try db.execute(sql: "UPDATE \(queue.rawValue) SET claimed_by = ?, claimed_until = ? WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                       arguments: [holder, until] + StatementArguments(ids))
    }
}

/// The queued work this process claimed and is doing now, by queue: what `ClaimRenewal`
/// keeps alive. Workers add what they claim and remove it when its attempt ends, however it
/// ends.
public final class ClaimedWork: Sendable {
    /// The queues whose rows are claimed (their tables).
    public enum Queue: String, Sendable, CaseIterable {
        case inbox = "inbox_queue"
        case deliveries = "delivery_queue"
        case pushes = "push_deliveries"
    }

    private let work = Mutex<[Queue: Set<Int64>]>([:])

    /// An empty registry.
    public init() {}

    /// Records that `ids` of `queue` are being worked on.
    public func add(_ ids: some Sequence<Int64>, to queue: Queue) { work.withLock { $0[queue, default: []].formUnion(ids) } }

    /// Records that the work on `id` of `queue` ended.
    public func remove(_ id: Int64, from queue: Queue) { _ = work.withLock { $0[queue]?.remove(id) } }

    /// What is being worked on now.
    public var current: [Queue: Set<Int64>] { work.withLock { $0 } }
}
