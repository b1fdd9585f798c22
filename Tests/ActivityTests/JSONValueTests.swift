import Foundation
import Testing
import Activity

@Suite("JSONValue and JSONLimits")
struct JSONValueTests {
    @Test func accessorsReadTheMatchingCase() throws {
        let value = try JSONValue.parse(Data(#"{"s": "x", "n": 1920, "f": 0.5, "b": true, "a": [1], "o": {"k": null}}"#.utf8))
        #expect(value["s"]?.stringValue == "x")
        #expect(value["n"]?.intValue == 1920)
        #expect(value["n"]?.doubleValue == 1920)
        #expect(value["f"]?.intValue == nil)
        #expect(value["f"]?.doubleValue == 0.5)
        #expect(value["b"]?.boolValue == true)
        #expect(value["b"]?.intValue == nil)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["o"]?["k"] == .null)
        #expect(value["missing"] == nil)
        #expect(value["s"]?["k"] == nil)
    }

    @Test func booleansAndNumbersStayDistinct() throws {
        #expect(try JSONValue.parse(Data("[true, 1, 0, false]".utf8)) == [.bool(true), .number(1), .number(0), .bool(false)])
    }

    @Test func integersEncodeWithoutAFraction() throws {
        let value: JSONValue = ["width": 1920, "totalItems": 0, "ratio": 1.5, "negative": -3, "big": 9_007_199_254_740_992]
        let text = String(decoding: value.encoded(), as: UTF8.self)
        #expect(text == #"{"big":9007199254740992,"negative":-3,"ratio":1.5,"totalItems":0,"width":1920}"#)
    }

    @Test func roundTripsThroughText() throws {
        let value: JSONValue = ["url": "https://a.example/x?y=1&z=2", "list": [nil, true, "é", 3.25], "empty": [:]]
        #expect(try JSONValue.parse(value.encoded()) == value)
        #expect(!String(decoding: value.encoded(), as: UTF8.self).contains("\\/"))
    }

    @Test func depthCountsNestedArraysAndObjects() {
        #expect(JSONLimits.depth(of: Array("42".utf8)) == 0)
        #expect(JSONLimits.depth(of: Array("{}".utf8)) == 1)
        #expect(JSONLimits.depth(of: Array(#"{"a": [[{"b": []}]], "c": [1]}"#.utf8)) == 5)
        #expect(JSONLimits.depth(of: Array((String(repeating: "[", count: 300) + String(repeating: "]", count: 300)).utf8)) == 300)
    }

    @Test func depthIgnoresBracketsInsideStrings() {
        #expect(JSONLimits.depth(of: Array(#"{"content": "[[[{{{<p>]]]"}"#.utf8)) == 1)
        // An escaped quote does not end the string; an escaped backslash does not escape the quote after it.
        #expect(JSONLimits.depth(of: Array(#"{"a": "say \"[[[\" ok", "b": [1]}"#.utf8)) == 2)
        #expect(JSONLimits.depth(of: Array(#"{"a": "ends with \\", "b": [[1]]}"#.utf8)) == 3)
        #expect(JSONLimits.depth(of: Array(#"["\u005B", "\\\"[[["]"#.utf8)) == 1)
    }

    @Test func parseRefusesTooDeepTexts() {
        let deep = Data((String(repeating: "[", count: 65) + String(repeating: "]", count: 65)).utf8)
        #expect(throws: ActivityError.tooDeep(limit: 64)) { try JSONValue.parse(deep) }
        let allowed = Data((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8)
        #expect(throws: Never.self) { try JSONValue.parse(allowed) }
        let shallow = JSONLimits(depth: 3, values: 100)
        #expect(throws: ActivityError.tooDeep(limit: 3)) { try JSONValue.parse(Data("[[[[]]]]".utf8), limits: shallow) }
    }

    @Test func valueCountCountsScalarsArraysAndObjectsButNotKeys() {
        #expect(JSONLimits.valueCount(of: Array("42".utf8)) == 1)
        #expect(JSONLimits.valueCount(of: Array("[]".utf8)) == 1)
        #expect(JSONLimits.valueCount(of: Array(" { } ".utf8)) == 1)
        #expect(JSONLimits.valueCount(of: Array("[1, 2, 3]".utf8)) == 4)
        #expect(JSONLimits.valueCount(of: Array(#"{"a": [1, 2], "b": {}, "c": [[], [ ]]}"#.utf8)) == 8)
        #expect(JSONLimits.valueCount(of: Array(#"{"a,b": "[1,2]", "c": "\\", "d": "\",{"}"#.utf8)) == 4)
    }

    @Test func parseRefusesTextsWithTooManyValues() throws {
        let limits = JSONLimits(depth: 8, values: 6)
        #expect(try JSONValue.parse(Data("[1, 2, [3, 4]]".utf8), limits: limits) == [1, 2, [3, 4]])
        #expect(throws: ActivityError.tooManyValues(limit: 6)) { try JSONValue.parse(Data("[1, 2, [3, 4, 5]]".utf8), limits: limits) }
        // Fifty thousand empty objects are refused by the client limits before any is built.
        let many = Data(("[" + Array(repeating: "{}", count: 50_000).joined(separator: ",") + "]").utf8)
        #expect(throws: ActivityError.tooManyValues(limit: JSONLimits.clientRequest.values)) {
            try JSONValue.parse(many, limits: .clientRequest)
        }
        #expect(try JSONValue.parse(many).arrayValue?.count == 50_000)
    }
}
