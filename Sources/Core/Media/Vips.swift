import CVips
import Foundation

/// Process-wide libvips set-up and error reporting.
///
/// libvips is opened (see CVips/shim.h) and initialised once, by the first upload, from any
/// thread (Swift runs a global's initialiser exactly once, under a lock). Its operation cache is switched
/// off, because FedNode never repeats an operation on the same input and the cache
/// would keep decoded uploads alive; its per-image thread pool is kept to one thread,
/// because ``MediaProcessor`` already runs several images side by side.
package enum Vips {
    /// Why libvips cannot run, or `nil` once `vips_init` succeeded. Computed once for the
    /// process, so a libvips installed later needs a restart.
    private static let failure: String? = {
        guard fn_vips_library() != nil else {
            return "libvips (\(FN_VIPS_LIBRARY)) could not be loaded: \(fn_vips_open_error().map { String(cString: $0) } ?? "no reason given")"
        }
        if let missing = fn_vips_missing_symbol() {
            return "libvips (\(FN_VIPS_LIBRARY)) lacks \(String(cString: missing)); FedNode needs libvips 8.13 or later"
        }
        guard fn_vips_init("fednode") == 0 else { return "vips_init failed: \(takeErrorMessage())" }
        fn_vips_cache_set_max(0)
        fn_vips_cache_set_max_mem(0)
        fn_vips_cache_set_max_files(0)
        fn_vips_concurrency_set(1)
        // Loaders flagged "untrusted" (SVG, CSV, matrix, FITS, ...) are never reachable.
        fn_vips_block_untrusted_set(1)
        return nil
    }()

    /// Opens and initialises libvips if it is not yet running.
    /// - Throws: `MediaError.unavailable` when libvips cannot be loaded or started.
    package static func start() throws(MediaError) {
        if let failure { throw .unavailable(failure) }
    }

    /// Reads and clears libvips' error buffer; only once libvips is open (`start()`).
    ///
    /// The buffer is process-wide, so with concurrent jobs it may hold another job's
    /// text too; it is only ever used for logs.
    package static func takeErrorMessage() -> String {
        guard let copy = fn_vips_error_buffer_copy() else { return "unknown libvips error" }
        defer { fn_g_free(copy) }
        let text = String(cString: copy).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "unknown libvips error" : text
    }

    /// The name of the loader libvips would pick for these bytes, if any; only after `start()`
    /// succeeded.
    /// - Parameter data: The raw file.
    /// - Returns: A loader nickname such as `heifload_buffer`, or `nil`.
    package static func loaderName(for data: Data) -> String? {
        let name = data.withUnsafeBytes { raw in
            fn_vips_foreign_find_load_buffer(raw.baseAddress, raw.count)
        }
        // find_load_buffer reports "not found" through the error buffer too.
        guard let name else {
            _ = takeErrorMessage()
            return nil
        }
        return String(cString: name)
    }
}
