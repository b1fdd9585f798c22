import Core
import CVips
import FedNode
import Foundation

/// Photos processed per second: a 12-megapixel JPEG (4000×3000, deterministic noisy content,
/// so it compresses like a photo) through the upload pipeline (`MediaProcessor`: header check,
/// decode, autorot, metadata strip, sRGB, 1920 px display image, 500×500 thumbnail, blurhash),
/// as many at once as the processor allows, and the peak memory while doing it. Reference: the
/// bare libvips decode of the same JPEG, the floor any pipeline pays.
struct MediaBench {
    /// What the part measured.
    struct Figures: Sendable {
        /// Photos through the whole pipeline per second.
        var photosPerSecond: Double
        /// Bare decodes per second (reference).
        var decodesPerSecond: Double
        /// Photos processed in the timed window.
        var photos: Int
        /// Processing concurrency.
        var concurrency: Int
        /// The input's size in bytes.
        var inputBytes: Int
        /// Resident memory before the part.
        var residentBefore: Int
        /// Peak resident memory during the part (`VmHWM` after a reset).
        var peak: Int
    }

    let settings: BenchSettings
    let log: @Sendable (String) -> Void

    /// Runs the part in this process (its memory is read from /proc/self).
    func run() async throws -> Figures {
        let jpeg = try Self.photo(width: 4000, height: 3000)
        let processor = MediaProcessor()
        let photos = settings.quick ? 4 : 32
        log("media: \(photos) photos of \(jpeg.count / 1024) KiB, \(processor.maxConcurrent) at a time")
        _ = try await processor.process(jpeg, kind: .post)  // warm-up: libvips start, code paths
        let before = ProcessMemory.read(pid: getpid()).resident
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let start = MonotonicClock.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<photos { group.addTask { _ = try await processor.process(jpeg, kind: .post) } }
            try await group.waitForAll()
        }
        let seconds = MonotonicClock.seconds(from: start, to: MonotonicClock.now())
        let peak = ProcessMemory.read(pid: getpid()).peak
        let decodes = try await Self.decodeRate(jpeg, count: photos, concurrency: processor.maxConcurrent)
        return Figures(photosPerSecond: Double(photos) / seconds, decodesPerSecond: decodes, photos: photos,
                       concurrency: processor.maxConcurrent, inputBytes: jpeg.count, residentBefore: before, peak: peak)
    }

    /// A `width`×`height` JPEG (Q 90) of a gradient with seeded noise.
    static func photo(width: Int, height: Int) throws -> Data {
        guard fn_vips_init("fednode-bench") == 0 else { throw BenchError.setup("libvips did not start") }
        var state: UInt32 = 2026
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 27)  // 0...31
                let i = (y * width + x) * 3
                pixels[i] = UInt8(min(255, x * 200 / width + noise))
                pixels[i + 1] = UInt8(min(255, y * 200 / height + noise))
                pixels[i + 2] = UInt8(min(255, 96 + noise * 2))
            }
        }
        guard let image = pixels.withUnsafeBytes({ raw in
            fn_vips_image_new_from_memory_copy(raw.baseAddress, raw.count, Int32(width), Int32(height), 3, VIPS_FORMAT_UCHAR)
        }) else { throw BenchError.setup("libvips could not make the test photo") }
        defer { fn_g_object_unref(image) }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard fn_vips_jpegsave_buffer(image, &buffer, &length, 90, 0, 0) == 0, let buffer else {
            throw BenchError.setup("libvips could not encode the test photo")
        }
        defer { fn_g_free(buffer) }
        return Data(bytes: buffer, count: length)
    }

    /// Full decodes of `jpeg` to memory per second, `concurrency` at a time, off the cooperative pool.
    static func decodeRate(_ jpeg: Data, count: Int, concurrency: Int) async throws -> Double {
        let start = MonotonicClock.now()
        let perWorker = (count + concurrency - 1) / concurrency
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                        DispatchQueue.global().async {
                            do { for _ in 0..<perWorker { try decode(jpeg) }; continuation.resume() } catch { continuation.resume(throwing: error) }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        return Double(perWorker * concurrency) / MonotonicClock.seconds(from: start, to: MonotonicClock.now())
    }

    private static func decode(_ jpeg: Data) throws {
        try jpeg.withUnsafeBytes { raw in
            var lazy: UnsafeMutablePointer<VipsImage>?
            guard fn_vips_jpegload_buffer(UnsafeMutableRawPointer(mutating: raw.baseAddress), raw.count, &lazy, VIPS_FAIL_ON_ERROR) == 0,
                let lazy
            else { throw BenchError.setup("decode failed") }
            defer { fn_g_object_unref(lazy) }
            guard let decoded = fn_vips_image_copy_memory(lazy) else { throw BenchError.setup("decode failed") }
            fn_g_object_unref(decoded)
        }
    }
}
