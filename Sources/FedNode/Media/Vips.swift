import CVips
import Foundation

/// Process-wide libvips set-up and error reporting.
///
/// libvips is initialised once, lazily, on first use from any thread (Swift runs a
/// global's initialiser exactly once, under a lock). Its operation cache is switched
/// off, because FedNode never repeats an operation on the same input and the cache
/// would keep decoded uploads alive; its per-image thread pool is kept to one thread,
/// because ``MediaProcessor`` already runs several images side by side.
enum Vips {
    /// Whether `vips_init` succeeded; computed once for the process.
    private static let started: Bool = {
        guard vips_init("fednode") == 0 else { return false }
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        vips_cache_set_max_files(0)
        vips_concurrency_set(1)
        // Loaders flagged "untrusted" (SVG, CSV, matrix, FITS, ...) are never reachable.
        vips_block_untrusted_set(1)
        return true
    }()

    /// Initialises libvips if it is not yet running.
    /// - Throws: `MediaError.processingFailed` when libvips cannot start.
    static func start() throws(MediaError) {
        guard started else {
            throw .processingFailed("vips_init failed: \(takeErrorMessage())")
        }
    }

    /// Reads and clears libvips' error buffer.
    ///
    /// The buffer is process-wide, so with concurrent jobs it may hold another job's
    /// text too; it is only ever used for logs.
    static func takeErrorMessage() -> String {
        guard let copy = vips_error_buffer_copy() else { return "unknown libvips error" }
        defer { g_free(copy) }
        let text = String(cString: copy).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "unknown libvips error" : text
    }

    /// The name of the loader libvips would pick for these bytes, if any.
    /// - Parameter data: The raw file.
    /// - Returns: A loader nickname such as `heifload_buffer`, or `nil`.
    static func loaderName(for data: Data) -> String? {
        let name = data.withUnsafeBytes { raw in
            vips_foreign_find_load_buffer(raw.baseAddress, raw.count)
        }
        // find_load_buffer reports "not found" through the error buffer too.
        guard let name else {
            _ = takeErrorMessage()
            return nil
        }
        return String(cString: name)
    }
}
