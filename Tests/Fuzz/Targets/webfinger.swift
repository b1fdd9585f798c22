@testable import Activity

/// WebFinger resources: never crashes; an account has a non-empty name and a lowercased
/// domain with no `@`, and parsing its `uri` gives it back; a URL is kept as given.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebFinger(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = fuzzText(start, count)
    guard let resource = try? WebFingerResource(parsing: text) else { return 0 }
    switch resource {
    case .account(let username, let domain):
        fuzzCheck(!username.isEmpty && !username.contains("@"), "username \(username) from \(text)")
        fuzzCheck(!domain.isEmpty && !domain.contains("@") && domain == domain.lowercased(), "domain \(domain) from \(text)")
        fuzzCheck(!text.unicodeScalars.contains { $0.properties.isWhitespace }, "whitespace accepted in \(text)")
    case .url(let url):
        fuzzCheck(url == text, "url \(url) from \(text)")
        let lowered = url.lowercased()
        fuzzCheck(lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), "scheme of \(url)")
    }
    let again = try? WebFingerResource(parsing: resource.uri)
    fuzzCheck(again == resource, "\(resource.uri) parses as \(String(describing: again)), not \(resource)")
    return 0
}
