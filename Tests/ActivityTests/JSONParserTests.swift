import Foundation
import Testing
import Activity

@Suite("JSON parsing")
struct JSONParserTests {
    static func parse(_ text: String) throws -> JSONValue {
        try JSONValue.parse(Data(text.utf8))
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", 0.0), ("1920", 1920.0), ("-42", -42.0), ("3.25", 3.25), ("-0.32", -0.32),
        ("1e3", 1000.0), ("2.5E-2", 0.025), ("1E+2", 100.0), ("107224289116410645", 107224289116410645.0),
        ("  7  ", 7.0),
    ])
    func numbers(text: String, expected: Double) throws {
        #expect(try Self.parse(text) == .number(expected))
    }

    @Test(arguments: [
        (#""plain""#, "plain"),
        (#""a\"b\\c\/d""#, "a\"b\\c/d"),
        (#""line\nbreak\ttab\r\b\f""#, "line\nbreak\ttab\r\u{8}\u{C}"),
        (#""\u003cp\u003e""#, "<p>"),
        (#""caf\u00e9 \u00E9""#, "café é"),
        (#""\ud83c\udf05 sunrise""#, "🌅 sunrise"),
        (#""lone \ud83c here""#, "lone \u{FFFD} here"),
        (#""湖の朝焼け""#, "湖の朝焼け"),
        (#""mixed 湖 \n 🌅""#, "mixed 湖 \n 🌅"),
        (#""""#, ""),
    ])
    func strings(text: String, expected: String) throws {
        #expect(try Self.parse(text) == .string(expected))
    }

    @Test func nestedStructures() throws {
        #expect(try Self.parse(#" {"a" : [ true , false , null , {} , [] ], "b": {"c": "d"}} "#)
            == ["a": [true, false, nil, [:], []], "b": ["c": "d"]])
    }

    @Test(arguments: [
        "", " ", "{", "}", "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{a: 1}", "'x'", "tru", "nul", "True",
        "01", "1.", ".5", "-", "1e", "+1", "0x10", "NaN", "Infinity", "1e999", "\"unterminated", "\"bad \\q escape\"",
        "\"\\u12\"", "\"raw\nnewline\"", "{} {}", "[] x", "\"a\"\"b\"",
    ])
    func invalidTextsAreRejected(text: String) {
        #expect(throws: ActivityError.invalidJSON) { try Self.parse(text) }
    }

    @Test func invalidUTF8InsideStringsIsRepaired() throws {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x62, 0x22]
        #expect(try JSONValue.parse(Data(bytes)) == .string("a\u{FFFD}b"))
    }

    @Test func nulEscapesAreDropped() throws {
        #expect(try Self.parse(#"{"content": "harbour\u0000lights\u0000", "k\u0000": 1}"#)["content"] == "harbourlights")
        #expect(try Self.parse(#"{"k\u0000": "v"}"#)["k"] == "v")
    }

    @Test func duplicateKeysKeepTheLast() throws {
        #expect(try Self.parse(#"{"type": "Note", "type": "Question"}"#)["type"] == "Question")
    }

    @Test func codableDecodingAgreesWithTheParser() throws {
        let text = #"{"n": 1920, "b": false, "s": "x\u00e9", "a": [null, 0.5], "o": {}}"#
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == (try Self.parse(text)))
    }
}
