import Foundation
import Testing
@testable import Storage

@Suite("Snowflake ids")
struct SnowflakeTests {
    @Test("ids made in a burst are strictly increasing")
    func monotonic() {
        let ids = (0..<100_000).map { _ in Snowflake.next() }
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("an id carries its creation time to the millisecond")
    func encodesTime() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        let id = Snowflake.at(date)
        #expect(abs(Snowflake.date(of: id).timeIntervalSince(date)) < 0.001)
        #expect(Snowflake.lowerBound(at: date) <= id)
        #expect(Snowflake.lowerBound(at: date.addingTimeInterval(0.002)) > id)
    }

    @Test("ids sort by time across local and remote creation")
    func sortsByTime() {
        let earlier = Snowflake.at(Date(timeIntervalSinceNow: -60))
        #expect(earlier < Snowflake.next())
    }

    @Test("once the database is shared, every id carries the process's tag and they still increase")
    func taggedIds() throws {
        Snowflake.shareIdSpace(tag: 777)
        // Another test may have opened a PostgreSQL database first: its tag stays.
        let tag = try #require(Snowflake.processTag)
        let ids = (0..<20_000).map { _ in Snowflake.next() }
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
        #expect(ids.allSatisfy { ($0 >> 6) & (Snowflake.processTags - 1) == tag })
        // 20,000 ids run at most 20,000 / 64 ms ahead of the clock (other tests' ids add to it).
        #expect(Snowflake.date(of: ids[ids.count - 1]).timeIntervalSinceNow < 5)
    }
}
