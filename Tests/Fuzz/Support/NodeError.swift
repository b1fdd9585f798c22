/// Stand-in for `FedNode.NodeError` so `MultipartParser.swift` compiles on its own in the
/// multipart fuzz target: the real type imports Hummingbird for its HTTP statuses, which the
/// parser does not use. Only the case the parser throws is declared.
enum NodeError: Error, Equatable {
    /// Malformed request (400).
    case badRequest(String)
}
