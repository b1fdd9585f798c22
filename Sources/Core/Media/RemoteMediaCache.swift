import Foundation

/// A size- and age-bounded disk cache of remote media, evicting least recently used first.
///
/// Fetching is injected, so this type holds only storage policy. The index lives in
/// memory and is rebuilt from the directory at start-up (see ``CacheEntry``). After every
/// store the cache is back within ``RemoteCacheLimits/maxTotalBytes``; concurrent
/// requests for the same URL share one fetch.
public actor RemoteMediaCache {
    /// Downloads one URL; should itself stop reading past the per-file cap.
    public typealias Fetcher = @Sendable (URL) async throws -> Data

    /// The bounds enforced.
    public let limits: RemoteCacheLimits
    private let directory: CacheDirectory
    private let fetch: Fetcher
    private let now: @Sendable () -> Date
    private var entries: [String: CacheEntry] = [:]
    private var inFlight: [String: Task<Result<Data, MediaError>, Never>] = [:]

    /// Opens (or creates) a cache directory and rebuilds the index from it.
    /// - Parameters:
    ///   - directory: A directory used by this cache only.
    ///   - limits: Size, age and per-file bounds.
    ///   - now: The clock; injected so tests control age and recency.
    ///   - fetch: Downloads a URL.
    /// - Throws: `MediaError.storageFailed` when the directory cannot be used.
    public init(
        directory: URL, limits: RemoteCacheLimits = RemoteCacheLimits(),
        now: @escaping @Sendable () -> Date = { Date() }, fetch: @escaping Fetcher
    ) throws(MediaError) {
        self.limits = limits
        self.directory = CacheDirectory(url: directory)
        self.fetch = fetch
        self.now = now
        try self.directory.prepare()
        var index = Self.index(self.directory)
        let victims = CacheEvictionPolicy.victims(
            of: Array(index.values), limits: limits, now: now(), keeping: nil)
        for entry in victims {
            self.directory.remove(entry)
            index[entry.key] = nil
        }
        self.entries = index
    }

    /// Total bytes currently cached.
    public var totalBytes: Int {
        entries.values.reduce(0) { $0 + $1.size }
    }

    /// Number of files currently cached.
    public var count: Int {
        entries.count
    }

    /// Whether a fresh copy of `url` is cached.
    /// - Parameter url: A remote media URL.
    public func contains(_ url: URL) -> Bool {
        entries[Self.key(for: url)].map(isFresh) ?? false
    }

    /// Returns the bytes of `url`, from disk when fresh, else fetched, stored and bounded.
    /// - Parameter url: A remote media URL.
    /// - Returns: The media bytes.
    /// - Throws: `MediaError.tooLarge` above the per-file cap, `.fetchFailed` when the
    ///   fetch fails.
    public func get(_ url: URL) async throws(MediaError) -> Data {
        let key = Self.key(for: url)
        if let data = cachedData(key: key) { return data }
        if let pending = inFlight[key] { return try await pending.value.get() }
        let task = Task { [fetch, limits] in await Self.download(url, fetch: fetch, cap: limits.maxFileBytes) }
        inFlight[key] = task
        let result = await task.value
        inFlight[key] = nil
        let data = try result.get()
        store(data, key: key)
        return data
    }

    /// Drops every entry older than ``RemoteCacheLimits/maxAge`` and trims to size.
    public func evictExpired() {
        enforceLimits(keeping: nil)
    }

    /// Serves a fresh cached copy and marks it used; drops a stale or missing one.
    private func cachedData(key: String) -> Data? {
        guard var entry = entries[key] else { return nil }
        guard isFresh(entry), let data = directory.read(entry), data.count == entry.size else {
            remove(entry)
            return nil
        }
        entry.lastAccess = now()
        entries[key] = entry
        directory.touch(entry, at: entry.lastAccess)
        return data
    }

    /// Records fetched bytes; a disk failure only means the bytes are not cached.
    private func store(_ data: Data, key: String) {
        if let previous = entries[key] { remove(previous) }
        guard data.count <= limits.maxTotalBytes else { return }
        let date = now()
        let entry = CacheEntry(key: key, fetchedAt: date, size: data.count, lastAccess: date)
        guard (try? directory.write(data, for: entry)) != nil else { return }
        entries[key] = entry
        enforceLimits(keeping: key)
    }

    /// Removes expired entries, then least recently used ones until within budget.
    private func enforceLimits(keeping kept: String?) {
        let victims = CacheEvictionPolicy.victims(
            of: Array(entries.values), limits: limits, now: now(), keeping: kept)
        for entry in victims { remove(entry) }
    }

    private func remove(_ entry: CacheEntry) {
        directory.remove(entry)
        if entries[entry.key] == entry { entries[entry.key] = nil }
    }

    private func isFresh(_ entry: CacheEntry) -> Bool {
        CacheEvictionPolicy.isFresh(entry, limits: limits, now: now())
    }

    /// Builds the index, keeping the newest file per key and deleting older duplicates.
    private static func index(_ directory: CacheDirectory) -> [String: CacheEntry] {
        var index: [String: CacheEntry] = [:]
        for entry in directory.entries() {
            if let existing = index[entry.key], existing.fetchedAt >= entry.fetchedAt {
                directory.remove(entry)
                continue
            }
            if let older = index[entry.key] { directory.remove(older) }
            index[entry.key] = entry
        }
        return index
    }

    private static func key(for url: URL) -> String {
        SHA256.hexDigest(Data(url.absoluteString.utf8))
    }

    private static func download(_ url: URL, fetch: Fetcher, cap: Int) async -> Result<Data, MediaError> {
        do {
            let data = try await fetch(url)
            return data.count <= cap ? .success(data) : .failure(.tooLarge(bytes: data.count))
        } catch let error as MediaError {
            return .failure(error)
        } catch {
            return .failure(.fetchFailed(String(describing: error)))
        }
    }
}
