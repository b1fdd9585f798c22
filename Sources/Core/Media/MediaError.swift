import Foundation

/// Everything that can go wrong while accepting, processing, storing or caching media.
///
/// The input cases (`tooLarge` to `processingFailed`) describe a bad upload and map to
/// 422 Unprocessable Content. `unavailable`, `storageFailed` and `fetchFailed` are server or
/// remote-side failures. Associated values are for logs; send clients only ``message``.
public enum MediaError: Error, Sendable, Equatable {
    /// The input is larger than the configured byte limit; carries the input size.
    case tooLarge(bytes: Int)
    /// The image header declares more pixels than allowed; carries the declared size.
    case tooManyPixels(width: Int, height: Int)
    /// The bytes are a format FedNode does not accept, or this libvips cannot decode.
    case unsupportedType
    /// The bytes start like an image but are truncated or corrupt, or are not an image.
    case notAnImage
    /// libvips failed on an accepted, well-formed input; carries libvips' message.
    case processingFailed(String)
    /// libvips could not be loaded or started on this server; carries the reason. A 500, not
    /// a 503: the failure lasts until the node restarts, so asking the client to retry won't help.
    case unavailable(String)
    /// Reading or writing the media directory failed; carries the system message.
    case storageFailed(String)
    /// A remote fetch failed or its answer was unusable; carries the reason.
    case fetchFailed(String)

    /// A short explanation that is safe to show a client: no paths, no library text.
    public var message: String {
        switch self {
        case .tooLarge(let bytes):
            return "File is too large (\(bytes) bytes)."
        case .tooManyPixels(let width, let height):
            return "Image dimensions are too large (\(width)x\(height))."
        case .unsupportedType:
            return "Unsupported file type."
        case .notAnImage:
            return "File is not a valid image or is truncated."
        case .processingFailed:
            return "Image could not be processed."
        case .unavailable:
            return "Image processing is unavailable on this server."
        case .storageFailed:
            return "Media could not be stored."
        case .fetchFailed:
            return "Remote media could not be fetched."
        }
    }

    /// Whether the error is the uploader's fault (422) rather than the server's (500/502).
    public var isInvalidInput: Bool {
        switch self {
        case .tooLarge, .tooManyPixels, .unsupportedType, .notAnImage, .processingFailed:
            return true
        case .unavailable, .storageFailed, .fetchFailed:
            return false
        }
    }
}
