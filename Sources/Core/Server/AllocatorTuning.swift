#if canImport(Glibc)
import Glibc
#endif

/// glibc `malloc` settings for a long-running server.
///
/// With glibc's defaults, an arena whose free top grows past 128 KiB gives it back to the
/// kernel at once (`madvise`), and the next requests fault the same pages in again. On a
/// busy node that happened many times a second: a page of the home timeline spent about a
/// tenth of its CPU in those calls, the page faults after them and the other core's TLB
/// flushes (docs/benchmarks-history.md). Each arena keeps up to `trimThreshold` free
/// before trimming, and only allocations of `mmapThreshold` or more (a photo's pixels) get a
/// mapping of their own, returned to the kernel when freed. Memory at start is the same;
/// after a burst, each arena may keep up to `trimThreshold` of free memory at its top.
public enum AllocatorTuning {
    /// Free bytes an arena's top may hold before they go back to the kernel.
    public static let trimThreshold: Int32 = 4 << 20
    /// Allocations at least this large get a mapping of their own.
    public static let mmapThreshold: Int32 = 4 << 20

    /// One setting: `mallopt`'s parameter number (glibc's `malloc.h`; stable ABI), its value,
    /// and how an operator sets it (a tunable in `GLIBC_TUNABLES`, or the older variable).
    private static let settings: [(parameter: Int32, value: Int32, tunable: String, variable: String)] = [
        (-1, trimThreshold, "glibc.malloc.trim_threshold", "MALLOC_TRIM_THRESHOLD_"),
        (-3, mmapThreshold, "glibc.malloc.mmap_threshold", "MALLOC_MMAP_THRESHOLD_"),
    ]

    /// Applies each setting the operator did not set themselves (through `GLIBC_TUNABLES` or
    /// glibc's `MALLOC_…_` variables: theirs win).
    /// - Returns: How many settings are now in force (0 without glibc's `mallopt`).
    @discardableResult
    public static func apply(environment: [String: String]) -> Int {
        #if canImport(Glibc)
        // `mallopt` is not in Swift's Glibc module; look it up in the process's own symbols.
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return 0 }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let tunables = environment["GLIBC_TUNABLES"] ?? ""
        var applied = 0
        for setting in settings where !tunables.contains(setting.tunable + "=") && environment[setting.variable] == nil {
            // `mallopt` returns 1 when it took the value (0 for an mmap threshold it refuses).
            if mallopt(setting.parameter, setting.value) == 1 { applied += 1 }
        }
        return applied
        #else
        return 0
        #endif
    }
}
