import Foundation
import Testing
@testable import Signatures

/// RFC 8941 dictionaries as `Signature-Input` and `Signature` carry them, including the
/// largest a 16 KiB header can hold.
@Suite("Structured field dictionaries", .timeLimit(.minutes(1)))
struct StructuredFieldTests {
    @Test func duplicateKeysReplaceInPlace() throws {
        let entries = try StructuredField.parseDictionary("a=1, b=2, a=3;x;x=?0")
        #expect(entries.map(\.key) == ["a", "b"])
        guard case .item(let first) = entries[0].member else {
            Issue.record("expected an item")
            return
        }
        #expect(first.value == .integer(3))
        #expect(first.parameters.count == 1)
        #expect(first.parameters.first?.key == "x")
        #expect(first.parameters.first?.value == .boolean(false))
        #expect(entries[0].raw == "3;x;x=?0")
    }

    @Test func manyMembersKeepOrderAndTheLastValue() throws {
        // 40,000 members, every key twice: each key keeps its first position and last value.
        let keys = (0..<20_000).map { "k\($0)" }
        let text = (keys.map { "\($0)=1" } + keys.map { "\($0)=2" }).joined(separator: ",")
        let entries = try StructuredField.parseDictionary(text)
        #expect(entries.map(\.key) == keys)
        #expect(entries.allSatisfy { $0.raw == "2" })
    }

    @Test func manyParametersKeepOrderAndTheLastValue() throws {
        let names = (0..<20_000).map { "p\($0)" }
        let text = "sig1=(\"@method\")" + names.map { ";\($0)=1" }.joined() + names.map { ";\($0)=\"v\"" }.joined()
        let entries = try StructuredField.parseDictionary(text)
        guard case .innerList(let items, let parameters) = try #require(entries.first).member else {
            Issue.record("expected an inner list")
            return
        }
        #expect(items.map(\.value) == [.string("@method")])
        #expect(parameters.map(\.key) == names)
        #expect(parameters.allSatisfy { $0.value == .string("v") })
    }
}
