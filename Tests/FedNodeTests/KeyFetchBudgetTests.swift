@testable import Core
import Testing

@testable import FedNode

/// The bounds on signing-key fetches: an origin past its share waits its own turn (or is told
/// to retry), and a fetch that hangs holds a node-wide slot only so long.
@Suite struct KeyFetchBudgetTests {
    /// A fetch that waits until released, counting how many wait at once.
    private actor Gate {
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private(set) var entered = 0
        func enter() async {
            entered += 1
            await withCheckedContinuation { waiting.append($0) }
        }
        func open() {
            waiting.forEach { $0.resume() }
            waiting = []
        }
    }

    private func waitFor(_ condition: () async -> Bool) async throws {
        for _ in 0..<400 where !(await condition()) { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func anOriginPastItsQueueIsToldToRetryAndOthersAreNot() async throws {
        let budget = KeyFetchBudget(perOrigin: 2, queuedPerOrigin: 1, maxWait: .seconds(30), slots: 8, holdFor: .seconds(30))
        let gate = Gate()
        let held = (0..<3).map { _ in Task { try await budget.run(for: "hang.example") { await gate.enter(); return 1 } } }
        try await waitFor { await gate.entered == 2 }
        await #expect(throws: NodeError.self) { try await budget.run(for: "hang.example") { 0 } }
        #expect(try await budget.run(for: "fair.example") { 7 } == 7, "another origin goes ahead")
        await gate.open()
        try await waitFor { await gate.entered == 3 }
        await gate.open()
        for task in held { #expect(try await task.value == 1, "the queued one got its turn") }
    }

    @Test func aHangingFetchHoldsItsSlotOnlySoLong() async throws {
        let budget = KeyFetchBudget(perOrigin: 4, queuedPerOrigin: 4, maxWait: .seconds(30), slots: 1, holdFor: .milliseconds(200))
        let gate = Gate()
        let hanging = Task { try await budget.run(for: "hang.example") { await gate.enter(); return 0 } }
        try await waitFor { await gate.entered == 1 }
        #expect(try await budget.run(for: "fair.example") { 5 } == 5, "the one slot came back while the first fetch still hangs")
        #expect(await gate.entered == 1)
        await gate.open()
        _ = try await hanging.value
        #expect(await budget.holdingSlots == 0)
    }

    @Test func waitingForATurnEnds() async throws {
        let budget = KeyFetchBudget(perOrigin: 1, queuedPerOrigin: 4, maxWait: .milliseconds(100), slots: 4, holdFor: .seconds(30))
        let gate = Gate()
        let hanging = Task { try await budget.run(for: "hang.example") { await gate.enter(); return 0 } }
        try await waitFor { await gate.entered == 1 }
        await #expect(throws: NodeError.self, "out of time: the sender is told to retry") {
            try await budget.run(for: "hang.example") { 1 }
        }
        await gate.open()
        _ = try await hanging.value
        #expect(try await budget.run(for: "hang.example") { 2 } == 2)
    }

    @Test func aFreedSlotGoesToTheOriginWithTheFewestFetches() async throws {
        let budget = KeyFetchBudget(perOrigin: 4, queuedPerOrigin: 4, maxWait: .seconds(30), slots: 1, holdFor: .seconds(30))
        let gate = Gate()
        let first = Task { try await budget.run(for: "busy.example") { await gate.enter(); return "busy first" } }
        try await waitFor { await gate.entered == 1 }
        let order = Order()
        let second = Task { try await budget.run(for: "busy.example") { await order.append("busy second"); return 0 } }
        try await Task.sleep(for: .milliseconds(50))
        let newcomer = Task { try await budget.run(for: "new.example") { await order.append("newcomer"); return 0 } }
        try await Task.sleep(for: .milliseconds(50))
        await gate.open()
        _ = try await (first.value, second.value, newcomer.value)
        #expect(await order.items == ["newcomer", "busy second"], "the newcomer waited less than the busy origin's second fetch")
    }

    private actor Order {
        private(set) var items: [String] = []
        func append(_ item: String) { items.append(item) }
    }
}
