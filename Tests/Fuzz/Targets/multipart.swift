import Foundation

/// Multipart bodies. The input's first line is the boundary and the rest the body: parsing
/// never crashes, keeps at most `maxParts`, and no part's bytes hold the delimiter. Then the
/// input is cut at 0xFF bytes into part bodies, written out as a well-formed body, and must
/// parse back into exactly those parts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let boundary = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = Data(bytes[min(newline + 1, bytes.count)...])
    if !boundary.isEmpty, let parts = try? MultipartParser.parts(of: body, boundary: boundary) {
        fuzzCheck(parts.count <= MultipartParser.maxParts, "\(parts.count) parts")
        let delimiter = Data("\r\n--\(boundary)".utf8)
        for part in parts {
            fuzzCheck(part.body.range(of: delimiter) == nil, "part \(part.name) holds the delimiter")
        }
    }
    _ = MultipartParser.boundary(in: "multipart/form-data; " + boundary)
    roundTrip(bytes)
    return 0
}

private func roundTrip(_ bytes: [UInt8]) {
    let boundary = "----FedNodeFuzz7MA4YWxkTrZu0gW"
    let bodies = bytes.split(separator: 0xFF, omittingEmptySubsequences: false).prefix(MultipartParser.maxParts).map { Data($0) }
    let separator = Data("\r\n--\(boundary)".utf8)
    guard !bodies.contains(where: { $0.range(of: separator) != nil }) else { return }
    var body = Data()
    for (index, part) in bodies.enumerated() {
        body.append(Data("--\(boundary)\r\n".utf8))
        body.append(Data("Content-Disposition: form-data; name=\"f\(index)\"; filename=\"p\(index).bin\"\r\n".utf8))
        body.append(Data("Content-Type: application/octet-stream\r\n\r\n".utf8))
        body.append(part)
        body.append(Data("\r\n".utf8))
    }
    body.append(Data("--\(boundary)--\r\n".utf8))
    guard let parts = try? MultipartParser.parts(of: body, boundary: boundary) else {
        fuzzCheck(false, "well-formed body of \(bodies.count) parts refused")
        return
    }
    fuzzCheck(parts.map(\.body) == bodies, "bodies changed: \(bodies) → \(parts.map(\.body))")
    fuzzCheck(parts.map(\.name) == bodies.indices.map { "f\($0)" }, "names \(parts.map(\.name))")
    fuzzCheck(parts.allSatisfy { $0.contentType == "application/octet-stream" }, "content types")
    fuzzCheck(zip(parts, parts.indices).allSatisfy { $0.filename == "p\($1).bin" }, "file names")
}
