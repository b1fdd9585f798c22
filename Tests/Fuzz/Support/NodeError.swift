/// Stand-in for `FedNode.NodeError` so the request parsers (`MultipartParser.swift`, the
/// `APIParams` files) compile on their own in the multipart and apiparams fuzz targets: the
/// real type imports Hummingbird for its HTTP statuses, which the parsers do not use. Only the
/// cases the parsers throw are declared.
public enum NodeError: Error, Equatable {
    /// Malformed request (400).
    case badRequest(String)
    /// Unknown or invisible resource (404).
    case notFound(String)
    /// Well-formed but invalid input (422).
    case validation(String)
}
