@testable import Core
import Foundation
import Storage
import Testing

@testable import FedNode

/// The scheduling rules of the two workers, on their own: what may start given what runs.
@Suite struct QueueSchedulingTests {
    private func delivery(_ id: Int64, _ domain: String) -> Delivery {
        var row = Delivery(activityUri: "https://social.test/\(id)", accountId: 1, inboxUrl: "https://\(domain)/inbox", domain: domain, payload: Data())
        row.id = id
        return row
    }

    private func candidate(_ id: Int64, actor: String, domain: String, unfinished: Int = 0) -> InboxQueue.Candidate {
        InboxQueue.Candidate(id: id, actorUri: "https://\(domain)/users/\(actor)", domain: domain, unfinishedAttempts: unfinished)
    }

    @Test func inboxRunsOneItemPerActorAndCapsEachDomain() {
        var inFlight = InboxInFlight(limits: QueueLimits(maxInFlight: 16, maxInFlightPerDomain: 2), maxUnfinished: 3)
        let choice = inFlight.choose(from: [
            candidate(1, actor: "a", domain: "slow.example"), candidate(2, actor: "a", domain: "slow.example"),
            candidate(3, actor: "b", domain: "slow.example"), candidate(4, actor: "c", domain: "slow.example"),
            candidate(5, actor: "d", domain: "fast.example"),
        ])
        #expect(choice.start.map(\.id) == [1, 3, 5], "a's second item waits for its first; slow.example holds two slots")
        inFlight.remove(choice.start[0])
        #expect(inFlight.choose(from: [candidate(2, actor: "a", domain: "slow.example")]).start.map(\.id) == [2])
    }

    @Test func inboxRefillsUpToTheGlobalLimit() {
        var inFlight = InboxInFlight(limits: QueueLimits(maxInFlight: 3, maxInFlightPerDomain: 3), maxUnfinished: 3)
        let many = (1...5).map { candidate(Int64($0), actor: "u\($0)", domain: "d\($0).example") }
        #expect(inFlight.choose(from: many).start.count == 3)
        #expect(inFlight.choose(from: Array(many.dropFirst(3))).start.isEmpty)
        inFlight.remove(many[1])
        #expect(inFlight.choose(from: Array(many.dropFirst(3))).start.map(\.id) == [4], "one slot freed, one item started")
    }

    @Test func inboxRefillsWhenAQuarterIsFreeAndWakesWaitOnlySoLong() {
        var inFlight = InboxInFlight(limits: QueueLimits(maxInFlight: 8, maxInFlightPerDomain: 8), maxUnfinished: 3)
        #expect(inFlight.refillBelow == 6 && inFlight.candidateWindow == 32)
        #expect(inFlight.refillsOnWake(sinceLastRefill: .zero), "idle: new work starts at once")
        _ = inFlight.choose(from: (1...7).map { candidate(Int64($0), actor: "u\($0)", domain: "d.example") })
        #expect(!inFlight.refillsAfterEnding && inFlight.candidateWindow == 16)
        #expect(!inFlight.refillsOnWake(sinceLastRefill: .milliseconds(100)), "seven of eight busy: the next endings refill")
        #expect(inFlight.refillsOnWake(sinceLastRefill: .seconds(1)), "but not for ever: items stuck on slow servers hold nothing back")
        inFlight.remove(candidate(1, actor: "u1", domain: "d.example"))
        #expect(inFlight.refillsAfterEnding && inFlight.refillsOnWake(sinceLastRefill: .zero))
        _ = inFlight.choose(from: (10...11).map { candidate(Int64($0), actor: "u\($0)", domain: "d.example") })
        #expect(inFlight.count == 8 && !inFlight.refillsOnWake(sinceLastRefill: .seconds(5)), "no free slot: nothing to refill")
    }

    @Test func inboxRunsASuspectAloneAndParksARepeatOffender() {
        var inFlight = InboxInFlight(limits: QueueLimits(), maxUnfinished: 3)
        let running = candidate(1, actor: "a", domain: "a.example")
        #expect(inFlight.choose(from: [running]).start.count == 1)
        let suspect = candidate(2, actor: "b", domain: "b.example", unfinished: 1)
        let waiting = inFlight.choose(from: [suspect, candidate(3, actor: "c", domain: "c.example")])
        #expect(waiting.start.isEmpty && waiting.draining, "nothing starts while the suspect waits for the others")
        inFlight.remove(running)
        let alone = inFlight.choose(from: [suspect, candidate(3, actor: "c", domain: "c.example")])
        #expect(alone.start.map(\.id) == [2], "the suspect runs alone")
        #expect(inFlight.choose(from: [candidate(3, actor: "c", domain: "c.example")]).start.isEmpty)
        inFlight.remove(suspect)
        let offender = candidate(4, actor: "d", domain: "d.example", unfinished: 3)
        let parked = inFlight.choose(from: [offender, candidate(3, actor: "c", domain: "c.example")])
        #expect(parked.park.map(\.id) == [4] && parked.start.map(\.id) == [3])
    }

    @Test func deliveriesGoRoundRobinWithinPerDomainCaps() {
        var inFlight = DeliveryInFlight(limits: QueueLimits(maxInFlight: 6, maxInFlightPerDomain: 2))
        // The order the queue read gives: first of each domain, then second of each, ...
        let slow = (1...5).map { delivery($0, "slow.example") }
        let fast = delivery(10, "fast.example")
        inFlight.refill([slow[0], fast, slow[1], slow[2], slow[3], slow[4]])
        #expect(inFlight.take().map(\.id) == [1, 10, 2], "the slow domain holds only its two slots")
        #expect(inFlight.take().isEmpty)
        inFlight.finish(slow[0])
        #expect(inFlight.take().map(\.id) == [3], "a freed slot is refilled at once")
        inFlight.refill([slow[1], slow[2], slow[3]])
        #expect(inFlight.waiting.map(\.id) == [4], "what is in flight is not read twice")
    }

    @Test func inboxGivesBackTheSlotsOfItemsThatWaitOnAServer() {
        var inFlight = InboxInFlight(limits: QueueLimits(maxInFlight: 5, maxInFlightPerDomain: 4), maxUnfinished: 3)
        let hanging = (1...4).map { candidate(Int64($0), actor: "h\($0)", domain: "hang.example") }
        let busy = candidate(9, actor: "db", domain: "busy.example")
        #expect(inFlight.choose(from: hanging + [busy]).start.count == 5)
        let start = ContinuousClock.now
        for item in hanging { inFlight.remoteWait(of: item)?.begin(at: start) }
        #expect(!inFlight.hasRoom && inFlight.releaseSlow(now: start) == 0, "nothing has waited for long yet")
        #expect(inFlight.releaseSlow(now: start + InboxInFlight.holdAfter) == 4, "only the items waiting on a server")
        #expect(inFlight.count == 1 && inFlight.total == 5 && inFlight.hasRoom, "the item busy on the database keeps its slot")
        inFlight.remove(busy)
        let next = inFlight.choose(from: [candidate(5, actor: "h5", domain: "hang.example"), candidate(6, actor: "honest", domain: "fair.example")])
        #expect(next.start.map(\.id) == [6], "the hanging domain keeps its share; an honest item starts at once")
        inFlight.remove(hanging[0])
        #expect(inFlight.count == 1 && inFlight.total == 4, "a background item ending frees no slot it did not hold")
        #expect(inFlight.maxBackground == 20)
    }

    @Test func inboxKeepsASuspectInItsSlot() {
        var inFlight = InboxInFlight(limits: QueueLimits(), maxUnfinished: 3)
        #expect(inFlight.choose(from: [candidate(1, actor: "a", domain: "a.example", unfinished: 1)]).start.count == 1)
        let suspect = candidate(1, actor: "a", domain: "a.example", unfinished: 1)
        inFlight.remoteWait(of: suspect)?.begin(at: .now)
        #expect(inFlight.releaseSlow(now: .now + .seconds(60)) == 0, "a suspect runs alone, holding its slot, until it ends")
    }

    @Test func deliveriesGiveBackTheSlotsOfRequestsThatWaitLong() {
        var inFlight = DeliveryInFlight(limits: QueueLimits(maxInFlight: 2, maxInFlightPerDomain: 2))
        let start = ContinuousClock.now
        inFlight.refill([delivery(1, "hang.example"), delivery(2, "hang.example"), delivery(3, "hang.example"), delivery(4, "fair.example")])
        let taken = inFlight.take()
        #expect(taken.map(\.id) == [1, 2])
        for row in taken { inFlight.remoteWait(of: row)?.begin(at: start) }
        #expect(inFlight.releaseSlow(now: start + .milliseconds(500)) == 0)
        #expect(inFlight.releaseSlow(now: start + DeliveryInFlight.holdAfter) == 2)
        #expect(inFlight.count == 0 && inFlight.total == 2)
        #expect(inFlight.take().map(\.id) == [4], "the hanging domain keeps its two; the healthy one starts")
        inFlight.finish(delivery(1, "hang.example"))
        #expect(inFlight.total == 2 && inFlight.count == 1)
    }

    @Test func oneAddressHoldsABoundedShareAndASlowHostLess() throws {
        let load = AddressLoad(limit: 3, slowLimit: 1, slowFor: .seconds(60))
        let key = try #require(AddressKey(text: "192.0.2.7"))
        #expect((0..<4).map { index in load.acquire(key, host: "h\(index).example") } == [true, true, true, false], "many names, one machine")
        #expect(load.inFlight("192.0.2.7") == 3)
        #expect(AddressKey(text: "2001:db8::1") == AddressKey(text: "2001:db8::ffff"), "an IPv6 /64 is one address")
        #expect(AddressKey(text: "2001:db8::1") != AddressKey(text: "2001:db8:0:1::1"))
        #expect(AddressKey(text: "64:ff9b::c000:207") == AddressKey(text: "192.0.2.7"), "IPv4 through NAT64 is that IPv4 address")
        #expect(AddressKey(text: "64:ff9b::c000:208") != AddressKey(text: "192.0.2.7"))
        load.release(key, host: "h0.example", timedOut: true)
        load.release(key, host: "h1.example")
        load.release(key, host: "h2.example")
        #expect(load.isSlow(host: "h0.example") && !load.isSlow(host: "h1.example"))
        #expect(load.acquire(key, host: "h0.example") && !load.acquire(key, host: "h0.example"), "a slow host: one at a time")
        #expect(load.acquire(key, host: "h1.example") && load.acquire(key, host: "h1.example"), "its neighbours on the address are not slowed")
        load.release(key, host: "h0.example", answered: true)
        #expect(!load.isSlow(host: "h0.example"), "an answer lifts the mark")
    }
}
