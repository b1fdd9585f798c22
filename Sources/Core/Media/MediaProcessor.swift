import Dispatch
import Foundation

/// Turns uploads into stored-ready outputs off the caller's thread, a bounded number at once.
///
/// Each image decodes on a Dispatch worker, never on a Swift concurrency thread, because
/// libvips calls block for as long as a large decode takes. At most `maxConcurrent`
/// images are in flight; further callers wait their turn.
public final class MediaProcessor: Sendable {
    /// The limits enforced on every input.
    public let limits: MediaLimits
    /// How many images may be processed at the same time.
    public let maxConcurrent: Int
    private let pipeline: ImagePipeline
    private let limiter: ConcurrencyLimiter
    /// Told how long each image took (the node's metrics).
    private let observer: (@Sendable (_ kind: MediaKind, _ elapsed: Duration, _ succeeded: Bool) -> Void)?
    private let queue = DispatchQueue(label: "fednode.media", qos: .utility, attributes: .concurrent)

    /// Creates a processor; libvips itself starts on the first image.
    /// - Parameters:
    ///   - limits: Input limits and output quality.
    ///   - maxConcurrent: Images processed at once; defaults to the number of cores.
    ///   - observer: Told, after each image, its kind, the time libvips spent on it (waiting for
    ///     a slot left out) and whether it succeeded.
    public init(
        limits: MediaLimits = MediaLimits(), maxConcurrent: Int = ProcessInfo.processInfo.activeProcessorCount,
        observer: (@Sendable (_ kind: MediaKind, _ elapsed: Duration, _ succeeded: Bool) -> Void)? = nil
    ) {
        self.limits = limits
        self.observer = observer
        self.maxConcurrent = max(1, maxConcurrent)
        self.pipeline = ImagePipeline(limits: limits)
        self.limiter = ConcurrencyLimiter(limit: self.maxConcurrent)
    }

    /// Validates an upload and makes the outputs for its kind.
    ///
    /// Outputs are upright (EXIF orientation applied), sRGB, and carry no metadata at
    /// all: no EXIF, GPS, XMP, IPTC or ICC block.
    /// - Parameters:
    ///   - data: The raw upload; its name and declared type are irrelevant.
    ///   - kind: What the image is for.
    ///   - focus: The point crops keep in view; the centre when `nil`.
    /// - Returns: The encoded outputs with sizes and BlurHashes.
    /// - Throws: `MediaError` when the input is refused or cannot be processed.
    public func process(_ data: Data, kind: MediaKind, focus: FocalPoint? = nil) async throws(MediaError) -> ProcessedImage {
        let (pipeline, observer) = (self.pipeline, self.observer)
        return try await run { () throws(MediaError) in
            let start = ContinuousClock.now
            do throws(MediaError) {
                let image = try pipeline.process(data, kind: kind, focus: focus)
                observer?(kind, ContinuousClock.now - start, true)
                return image
            } catch {
                observer?(kind, ContinuousClock.now - start, false)
                throw error
            }
        }
    }

    /// Recognises the container of an upload from its bytes, without decoding.
    /// - Parameter data: The raw upload.
    /// - Returns: The format if it is one FedNode accepts and this libvips can decode.
    public func detectFormat(_ data: Data) -> ImageFormat? {
        guard let format = ImageFormat.detect(data) else { return nil }
        guard format.needsHeifCodec else { return format }
        guard (try? Vips.start()) != nil, Vips.loaderName(for: data) != nil else { return nil }
        return format
    }

    /// Runs blocking work on the Dispatch queue while holding a limiter slot.
    private func run<T: Sendable>(_ work: @escaping @Sendable () throws(MediaError) -> T) async throws(MediaError) -> T {
        let queue = self.queue
        let result = await limiter.withSlot { () async -> Result<T, MediaError> in
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: Result(catching: work)) }
            }
        }
        return try result.get()
    }
}
