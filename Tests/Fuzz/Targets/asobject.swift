import Foundation
@testable import Activity

/// ActivityStreams decoder: never crashes; what it accepts encodes to a document it accepts
/// again with the same identity, addressing and content, and a second pass changes nothing.
/// (The first pass may change dates: they are written in whole seconds, see `ASDate.format`.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzASObject(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let object = try? ASObject.decode(from: Data(bytes: start, count: count)) else { return 0 }
    let encoded = object.encoded()
    guard let again = try? ASObject.decode(from: encoded) else {
        fuzzCheck(false, "cannot decode its own encoding: \(String(decoding: encoded, as: UTF8.self))")
        return 0
    }
    fuzzCheck(again.id == object.id && again.types == object.types, "identity changed: \(object) → \(again)")
    fuzzCheck(again.actor?.id == object.actor?.id && again.object?.id == object.object?.id,
              "references changed: \(object) → \(again)")
    fuzzCheck(again.to == object.to && again.cc == object.cc, "addressing changed: \(object) → \(again)")
    fuzzCheck(again.content == object.content && again.attachment.count == object.attachment.count,
              "content changed: \(object) → \(again)")
    let third = try? ASObject.decode(from: again.encoded())
    fuzzCheck(third == again, "second pass changed \(again) into \(String(describing: third))")
    return 0
}
