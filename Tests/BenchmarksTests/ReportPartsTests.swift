import Foundation
import GRDB
import Storage
import Testing
@testable import Benchmarks

/// The small pieces the report's figures pass through.
@Suite struct ReportPartsTests {
    @Test func percentilesAreNearestRank() {
        let stats = LatencyStats((1...100).map { UInt64($0) * 1_000_000 })  // 1 ms ... 100 ms
        #expect(stats.p50 == 50)
        #expect(stats.p99 == 99)
        #expect(stats.percentile(100) == 100)
        #expect(LatencyStats([]).p99 == 0)
    }

    @Test func generatedTimesAreStoredAsGRDBStoresDates() throws {
        let millis: Int64 = 1_767_225_605_042  // 2026-01-01 00:00:05.042 UTC
        let stored = try DatabaseQueue().read { db in
            try String.fetchOne(db, sql: "SELECT ?", arguments: [Date(timeIntervalSince1970: Double(millis) / 1000)])
        }
        #expect(SQLiteTime.text(millis: millis) == stored)
        #expect(SQLiteTime.iso8601(millis: millis) == "2026-01-01T00:00:05Z")
    }

    @Test func seededGeneratorRepeatsItsSequence() {
        var first = SeededGenerator(seed: 42), second = SeededGenerator(seed: 42), other = SeededGenerator(seed: 43)
        let a = (0..<5).map { _ in first.next() }
        #expect(a == (0..<5).map { _ in second.next() })
        #expect(a != (0..<5).map { _ in other.next() })
    }
}
