/// File-extension based guesses, used only for labelling URLs we link to (never to trust input).
package enum MediaTypes {
    /// The image MIME type a path's extension suggests, or `nil`.
    package static func guess(fromPath path: String) -> String? {
        let lower = path.lowercased()
        let known: [(String, String)] = [
            (".jpg", "image/jpeg"), (".jpeg", "image/jpeg"), (".png", "image/png"), (".webp", "image/webp"),
            (".gif", "image/gif"), (".avif", "image/avif"), (".heic", "image/heic"),
        ]
        return known.first { lower.hasSuffix($0.0) }?.1
    }
}
