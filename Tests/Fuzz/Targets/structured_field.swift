@testable import Signatures

/// RFC 8941 dictionaries and items: never crash; keys are unique and valid; each member's
/// `raw` text parses to the same member; serialising a member and parsing it gives it back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStructuredField(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = fuzzText(start, count)
    if let item = try? StructuredField.parseItem(text) {
        let serialized = StructuredField.serialize(item.value) + StructuredField.serialize(item.parameters)
        let again = try? StructuredField.parseItem(serialized)
        fuzzCheck(again.map { same($0, item) } == true, "item \(text) serialised as \(serialized)")
    }
    guard let entries = try? StructuredField.parseDictionary(text) else { return 0 }
    fuzzCheck(Set(entries.map(\.key)).count == entries.count, "repeated keys in \(entries.map(\.key))")
    for entry in entries {
        fuzzCheck(entry.key.first.map { $0 == "*" || ("a"..."z").contains($0) } == true, "key \(entry.key)")
        let serialized = "\(entry.key)=\(serialize(entry.member))"
        let again = try? StructuredField.parseDictionary(serialized)
        fuzzCheck(again?.count == 1 && again.map { same($0[0].member, entry.member) } == true,
                  "member \(entry.key) of \(text) serialised as \(serialized)")
        guard entry.raw.first != ";", !entry.raw.isEmpty else { continue }
        let fromRaw = try? StructuredField.parseDictionary("\(entry.key)=\(entry.raw)")
        fuzzCheck(fromRaw.map { $0.count == 1 && same($0[0].member, entry.member) } == true,
                  "raw \(entry.raw) of \(entry.key) in \(text)")
    }
    return 0
}

private func serialize(_ member: StructuredField.Member) -> String {
    switch member {
    case .item(let item): return StructuredField.serialize(item.value) + StructuredField.serialize(item.parameters)
    case .innerList(let items, let parameters): return StructuredField.serialize(innerList: items, parameters: parameters)
    }
}

private func same(_ left: StructuredField.Member, _ right: StructuredField.Member) -> Bool {
    switch (left, right) {
    case (.item(let a), .item(let b)): return same(a, b)
    case (.innerList(let a, let p), .innerList(let b, let q)):
        return a.count == b.count && zip(a, b).allSatisfy(same) && same(p, q)
    default: return false
    }
}

private func same(_ left: StructuredField.Item, _ right: StructuredField.Item) -> Bool {
    left.value == right.value && same(left.parameters, right.parameters)
}

private func same(_ left: StructuredField.Parameters, _ right: StructuredField.Parameters) -> Bool {
    left.count == right.count && zip(left, right).allSatisfy { $0.key == $1.key && $0.value == $1.value }
}
