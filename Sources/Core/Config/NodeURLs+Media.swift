import Foundation

extension NodeURLs {
    /// The public URL of a stored media reference (uploads, avatars, covers): absolute URLs (remote accounts) as
    /// they are, data-directory paths (`profile/<sha256>.jpg`) under `/media/`.
    package func mediaURL(_ reference: String?) -> String? {
        guard let reference, !reference.isEmpty else { return nil }
        if reference.hasPrefix("https://") || reference.hasPrefix("http://") { return reference }
        return "\(base)/media/\(reference)"
    }
}
