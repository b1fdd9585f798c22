import Foundation

/// Downloads remote media for the cache with the node's libcurl client (SSRF-guarded on the
/// resolved address, size-capped while reading), keeping only images.
package enum RemoteMediaFetch {
    /// The bytes at `url`.
    /// - Throws: `MediaError.fetchFailed` for transport errors, non-2xx answers and non-images.
    package static func download(_ url: URL, with client: CurlHTTPClient) async throws -> Data {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(HTTPClientRequest(url: url.absoluteString, headers: [("Accept", "image/*")]))
        } catch { throw MediaError.fetchFailed("\(url.absoluteString): \(error)") }
        guard (200..<300).contains(response.status) else { throw MediaError.fetchFailed("\(url.absoluteString) answered \(response.status)") }
        let data = Data(response.body)
        // Served with the type of its bytes only: never relay HTML or scripts from elsewhere.
        guard ImageFormat.detect(data) != nil else { throw MediaError.fetchFailed("\(url.absoluteString) is not an image") }
        return data
    }
}
