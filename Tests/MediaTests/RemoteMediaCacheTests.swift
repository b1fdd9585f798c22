@testable import Core
import Foundation
import Testing

@testable import FedNode

/// A settable clock shared between a test and the cache it drives.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)

    /// The current time.
    func now() -> Date {
        lock.withLock { current }
    }

    /// Moves time forward.
    func advance(_ seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }
}

/// Stands in for remote servers: `size` bytes per URL, derived from the URL, counting fetches.
actor FakeRemote {
    /// Fetch count per URL path.
    private(set) var fetches: [String: Int] = [:]
    private var sizes: [String: Int] = [:]
    private var failing: Set<String> = []

    /// Makes `path` serve `size` bytes (default 300).
    func setSize(_ size: Int, for path: String) { sizes[path] = size }
    /// Makes every fetch of `path` fail.
    func fail(_ path: String) { failing.insert(path) }
    /// How often `path` was fetched.
    func fetchCount(_ path: String) -> Int { fetches[path, default: 0] }

    /// The bytes a URL serves; the same every time.
    static func body(for url: URL, size: Int) -> Data {
        let seed = Array(url.path.utf8)
        return Data((0..<size).map { seed[$0 % seed.count] &+ UInt8(truncatingIfNeeded: $0) })
    }

    /// Serves one request.
    func fetch(_ url: URL) throws -> Data {
        fetches[url.path, default: 0] += 1
        if failing.contains(url.path) { throw URLError(.badServerResponse) }
        return Self.body(for: url, size: sizes[url.path] ?? 300)
    }
}

/// Size, age and per-file limits, LRU order, restarts and shared fetches.
@Suite("Remote media cache")
struct RemoteMediaCacheTests {
    /// The cache's clock, advanced by hand.
    let clock = ManualClock()
    /// The remote servers.
    let remote = FakeRemote()

    private func url(_ name: String) -> URL {
        URL(string: "https://remote.example/media/\(name)")!
    }

    private func cache(at directory: URL, limits: RemoteCacheLimits) throws -> RemoteMediaCache {
        let remote = self.remote
        let clock = self.clock
        return try RemoteMediaCache(directory: directory, limits: limits, now: { clock.now() }) { url in
            try await remote.fetch(url)
        }
    }

    private func bytesOnDisk(_ directory: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.fileSizeKey])
            .reduce(0) { $0 + (try $1.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) }
    }

    @Test("stays within its size limit while far more than the limit is fetched")
    func staysUnderLimit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = try cache(at: directory.url, limits: RemoteCacheLimits(maxTotalBytes: 1000, maxFileBytes: 400))
        for index in 0..<20 {
            clock.advance(1)
            let data = try await cache.get(url("file\(index)"))
            #expect(data == FakeRemote.body(for: url("file\(index)"), size: 300))
            #expect(await cache.totalBytes <= 1000)
            #expect(try bytesOnDisk(directory.url) <= 1000)
        }
        #expect(await cache.count == 3)
        #expect(try bytesOnDisk(directory.url) == 900)
    }

    @Test("evicts the least recently used file first and refetches it on demand")
    func leastRecentlyUsed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = try cache(at: directory.url, limits: RemoteCacheLimits(maxTotalBytes: 1000))
        for name in ["a", "b", "c"] {
            clock.advance(1)
            _ = try await cache.get(url(name))
        }
        clock.advance(1)
        _ = try await cache.get(url("a"))  // a is now more recent than b
        clock.advance(1)
        _ = try await cache.get(url("d"))
        #expect(await cache.contains(url("a")))
        #expect(await !cache.contains(url("b")))
        #expect(await cache.contains(url("c")))
        #expect(await cache.contains(url("d")))
        #expect(await remote.fetchCount("/media/a") == 1)

        clock.advance(1)
        let again = try await cache.get(url("b"))
        #expect(again == FakeRemote.body(for: url("b"), size: 300))
        #expect(await remote.fetchCount("/media/b") == 2)
        #expect(await !cache.contains(url("c")))  // c was the oldest now
    }

    @Test("a file over the per-file cap is refused and not cached")
    func perFileCap() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = try cache(at: directory.url, limits: RemoteCacheLimits(maxTotalBytes: 10_000, maxFileBytes: 500))
        await remote.setSize(600, for: "/media/big")
        await #expect(throws: MediaError.tooLarge(bytes: 600)) {
            try await cache.get(url("big"))
        }
        #expect(await cache.count == 0)
        #expect(try bytesOnDisk(directory.url) == 0)
        await remote.setSize(500, for: "/media/edge")
        #expect(try await cache.get(url("edge")).count == 500)
    }

    @Test("entries older than the age limit are fetched again")
    func ageLimit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = try cache(at: directory.url, limits: RemoteCacheLimits(maxTotalBytes: 10_000, maxAge: 60))
        _ = try await cache.get(url("x"))
        clock.advance(30)
        _ = try await cache.get(url("x"))
        #expect(await remote.fetchCount("/media/x") == 1)
        clock.advance(31)
        #expect(await !cache.contains(url("x")))
        _ = try await cache.get(url("x"))
        #expect(await remote.fetchCount("/media/x") == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).count == 1)
    }

    @Test("the index is rebuilt from disk, recency included")
    func rebuildsIndex() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let limits = RemoteCacheLimits(maxTotalBytes: 1000)
        let first = try cache(at: directory.url, limits: limits)
        for name in ["a", "b", "c", "a"] {
            clock.advance(1)
            _ = try await first.get(url(name))
        }
        let second = try cache(at: directory.url, limits: limits)
        #expect(await second.count == 3)
        #expect(await second.totalBytes == 900)
        clock.advance(1)
        _ = try await second.get(url("b"))
        #expect(await remote.fetchCount("/media/b") == 1)  // served from disk
        clock.advance(1)
        _ = try await second.get(url("d"))
        #expect(await !second.contains(url("c")))  // least recently used before the restart
        #expect(await second.contains(url("a")))
    }

    @Test("a restart with a smaller budget trims to it")
    func restartTrims() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try cache(at: directory.url, limits: RemoteCacheLimits(maxTotalBytes: 1000))
        for name in ["a", "b", "c"] {
            clock.advance(1)
            _ = try await first.get(url(name))
        }
        let second = try cache(at: directory.url, limits: RemoteCacheLimits(maxTotalBytes: 400))
        #expect(await second.count == 1)
        #expect(await second.contains(url("c")))
        #expect(try bytesOnDisk(directory.url) == 300)
    }

    @Test("a failed fetch is reported and caches nothing")
    func fetchFailure() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = try cache(at: directory.url, limits: RemoteCacheLimits())
        await remote.fail("/media/broken")
        await #expect {
            try await cache.get(url("broken"))
        } throws: { error in
            guard case .fetchFailed = error as? MediaError else { return false }
            return true
        }
        #expect(await cache.count == 0)
    }

    @Test("concurrent requests for one URL share a single fetch")
    func sharedFetch() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = try cache(at: directory.url, limits: RemoteCacheLimits())
        let target = url("popular")
        async let one = cache.get(target)
        async let two = cache.get(target)
        async let three = cache.get(target)
        let results = try await [one, two, three]
        #expect(Set(results).count == 1)
        #expect(await remote.fetchCount("/media/popular") == 1)
    }
}
