@testable import Core
import Foundation
import Testing
@testable import FedNode

/// The bound on background work (outbox backfills): a slot limit, a bounded waiting list, one
/// job per key.
@Suite("Background jobs")
struct BackgroundJobsTests {
    @Test("a key runs once at a time, jobs past the limit wait their turn, and past the waiting list are dropped")
    func bounds() async throws {
        let jobs = BackgroundJobs(limit: 1, maxWaiting: 1)
        let (gate, opener) = AsyncStream<Void>.makeStream()
        let (ran, ranSink) = AsyncStream<String>.makeStream()
        #expect(await jobs.start("alice") {
            ranSink.yield("alice started")
            for await _ in gate { break }
            ranSink.yield("alice done")
        })
        var events = ran.makeAsyncIterator()
        #expect(await events.next() == "alice started")
        #expect(await jobs.start("alice") { ranSink.yield("alice again") } == false, "the same key is running")
        #expect(await jobs.start("bob") { ranSink.yield("bob") }, "waits for the slot")
        #expect(await jobs.start("bob") { ranSink.yield("bob again") } == false, "the same key is waiting")
        #expect(await jobs.start("carol") { ranSink.yield("carol") } == false, "the waiting list is full")
        opener.yield()
        #expect(await events.next() == "alice done")
        #expect(await events.next() == "bob")
        // With the slot free again, a new job runs.
        #expect(await jobs.start("carol") { ranSink.yield("carol") })
        #expect(await events.next() == "carol")
        // dave runs once carol has finished (at once, or from the waiting list when her slot frees).
        #expect(await jobs.start("dave") { ranSink.yield("dave") })
        #expect(await events.next() == "dave")
        #expect((3...4).contains(await jobs.completed), "alice, bob and carol finished; the refused jobs never ran")
    }

    @Test("stopping cancels the running job and waits for it, drops the waiting one and refuses new ones")
    func stopping() async throws {
        let jobs = BackgroundJobs(limit: 1, maxWaiting: 1)
        let (ran, ranSink) = AsyncStream<String>.makeStream()
        #expect(await jobs.start("alice") {
            ranSink.yield("alice started")
            // Sleeps until cancelled: a fetch that would outlive the node.
            try? await Task.sleep(for: .seconds(3600))
            ranSink.yield(Task.isCancelled ? "alice cancelled" : "alice slept")
        })
        var events = ran.makeAsyncIterator()
        #expect(await events.next() == "alice started")
        #expect(await jobs.start("bob") { ranSink.yield("bob") })
        await jobs.stopAll()
        #expect(await events.next() == "alice cancelled", "stopAll returned after the job ended")
        #expect(await jobs.start("carol") { ranSink.yield("carol") } == false)
        ranSink.finish()
        #expect(await events.next() == nil, "bob was dropped and carol never started")
        #expect(await jobs.completed == 1)
    }
}
