#if canImport(Glibc)
import Glibc
#endif

/// glibc `malloc` settings for a long-running server.
///
/// With glibc's defaults, an arena whose free top grows past 128 KiB gives it back to the
/// kernel at once (`madvise`), and the next requests fault the same pages in again. On a
/// busy node that happened many times a second: a page of the home timeline spent about a
/// tenth of its CPU in those calls, the page faults after them and the other core's TLB
/// flushes (BENCHMARKS.md, round eleven). Each arena now keeps up to `trimThreshold` free
/// before trimming, and only allocations of `mmapThreshold` or more (a photo's pixels) get a
/// mapping of their own, returned to the kernel when freed. Memory at idle does not change;
/// after a burst, each arena keeps at most `trimThreshold` of free memory at its top.
public enum AllocatorTuning {
    /// Free bytes an arena's top may hold before they go back to the kernel.
    public static let trimThreshold: Int32 = 4 << 20
    /// Allocations at least this large get a mapping of their own.
    public static let mmapThreshold: Int32 = 4 << 20

    /// `mallopt`'s parameter numbers (glibc's `malloc.h`; stable ABI).
    private static let trimParameter: Int32 = -1, mmapParameter: Int32 = -3

    /// Applies the settings, unless the operator set `malloc` tunables of their own in
    /// `GLIBC_TUNABLES` (those win), or the C library has no `mallopt`.
    /// - Returns: Whether the settings are now in force.
    @discardableResult
    public static func apply(environment: [String: String]) -> Bool {
        if let tunables = environment["GLIBC_TUNABLES"], tunables.contains("glibc.malloc.") { return false }
        #if canImport(Glibc)
        // `mallopt` is not in Swift's Glibc module; look it up in the process's own symbols.
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return false }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        // `mallopt` returns 1 on success.
        return mallopt(trimParameter, trimThreshold) == 1 && mallopt(mmapParameter, mmapThreshold) == 1
        #else
        return false
        #endif
    }
}
