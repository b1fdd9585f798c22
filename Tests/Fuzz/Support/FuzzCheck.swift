/// Shared by every fuzz target (compiled into each one; see `scripts/fuzz`).

/// Stops the run when an invariant does not hold, so libFuzzer saves the input as a crash.
/// - Parameters:
///   - condition: the invariant.
///   - message: what broke, printed before the process traps.
func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    guard !condition() else { return }
    // Long enough to see the input's shape; a whole decoded document would bury the point.
    let text = message()
    fatalError("invariant violated: \(text.count > 1_500 ? text.prefix(1_500) + "…" : Substring(text))")
}

/// The fuzz input as a byte array.
func fuzzBytes(_ start: UnsafeRawPointer, _ count: Int) -> [UInt8] {
    Array(UnsafeRawBufferPointer(start: start, count: count))
}

/// The fuzz input as text: invalid UTF-8 becomes U+FFFD, as it does when a body is decoded.
func fuzzText(_ start: UnsafeRawPointer, _ count: Int) -> String {
    String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
}
