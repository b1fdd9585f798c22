@testable import Core
import Foundation
import Testing

@testable import FedNode

/// Records how many tasks are inside the limited section at once.
actor OccupancyRecorder {
    /// Tasks inside right now.
    private(set) var current = 0
    /// Most tasks ever inside at once.
    private(set) var peak = 0
    /// Tasks that have left.
    private(set) var completed = 0

    /// Marks a task as inside.
    func enter() {
        current += 1
        peak = max(peak, current)
    }

    /// Marks a task as done.
    func leave() {
        current -= 1
        completed += 1
    }
}

/// The limiter and the processor built on it.
@Suite("Bounded concurrency")
struct ConcurrencyLimiterTests {
    @Test("never more than the limit run at once, and every task runs", arguments: [1, 2, 3])
    func bounded(limit: Int) async {
        let limiter = ConcurrencyLimiter(limit: limit)
        let recorder = OccupancyRecorder()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<24 {
                group.addTask {
                    await limiter.withSlot { () async -> Void in
                        await recorder.enter()
                        for _ in 0..<5 { await Task.yield() }
                        await recorder.leave()
                    }
                }
            }
        }
        #expect(await recorder.peak <= limit)
        #expect(await recorder.peak >= 1)
        #expect(await recorder.completed == 24)
    }

    @Test("errors thrown inside a slot release it")
    func errorsReleaseSlots() async {
        let limiter = ConcurrencyLimiter(limit: 1)
        for _ in 0..<3 {
            await #expect(throws: MediaError.unsupportedType) {
                try await limiter.withSlot { () async throws(MediaError) -> Int in throw .unsupportedType }
            }
        }
        let value = await limiter.withSlot { () async -> Int in 7 }
        #expect(value == 7)
    }

    @Test("many uploads processed concurrently all succeed with correct sizes")
    func processorUnderLoad() async throws {
        let processor = MediaProcessor(maxConcurrent: 2)
        let inputs = try (0..<6).map { index in
            try TestImages.jpeg(try TestImages.gradient(width: 700 + index * 100, height: 500))
        }
        let results = try await withThrowingTaskGroup(of: (Int, ProcessedImage).self) { group in
            for (index, input) in inputs.enumerated() {
                group.addTask { (index, try await processor.process(input, kind: .post)) }
            }
            return try await group.reduce(into: [Int: ProcessedImage]()) { $0[$1.0] = $1.1 }
        }
        for index in 0..<6 {
            #expect(results[index]?.main.width == 700 + index * 100)
        }
    }
}
