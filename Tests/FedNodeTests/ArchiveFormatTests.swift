@testable import Core
import Foundation
import Testing
@testable import FedNode

/// The pieces of the data export and import: CRC-32, the ZIP writer's limits and headers, and
/// the CSV reader on what Mastodon writes and what people type.
@Suite("Archive formats: CRC-32, ZIP and CSV")
struct ArchiveFormatTests {
    @Test("CRC-32 gives the standard check value, also when fed in pieces")
    func crc() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        var pieces = CRC32()
        pieces.update(Array("1234".utf8))
        pieces.update(Array("56789".utf8))
        #expect(pieces.value == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test("a stored entry's local header carries its CRC-32 and size; the archive ends with the count of entries; unsafe names are refused")
    func zipLayout() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("zip-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: url) }
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        let zip = ZipWriter(handle: handle, modified: Date(timeIntervalSince1970: 1_700_000_000))
        try zip.add("a.txt", data: Data("123456789".utf8))
        try zip.begin("dir/b.txt")
        try zip.write(Data("12345".utf8))
        try zip.write(Data("6789".utf8))
        try zip.end()
        #expect(throws: ZipWriter.Failure.badName("../escape")) { try zip.add("../escape", data: Data()) }
        #expect(throws: ZipWriter.Failure.badName("/etc/passwd")) { try zip.add("/etc/passwd", data: Data()) }
        #expect(throws: ZipWriter.Failure.misuse) { try zip.write(Data("x".utf8)) }
        try zip.finish()
        try handle.close()
        let bytes = [UInt8](try Data(contentsOf: url))
        func le32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
        func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        #expect(le32(0) == 0x0403_4B50 && le32(14) == 0xCBF4_3926 && le32(18) == 9 && le32(22) == 9)
        let second = 30 + 5 + 9
        #expect(le32(second) == 0x0403_4B50 && le32(second + 14) == 0xCBF4_3926 && le32(second + 22) == 9)
        let end = bytes.count - 22
        #expect(le32(end) == 0x0605_4B50 && le16(end + 10) == 2)
        #expect(le32(Int(le32(end + 16))) == 0x0201_4B50, "the central directory starts where the end record says")
    }

    @Test("CSV: quoted fields with commas, doubled quotes and line breaks; CRLF; blank lines skipped; unclosed quotes and too many rows refused")
    func csv() throws {
        let rows = try CSVTable.rows("Account address,Hide notifications\r\n\"a,b\"\"c\",true\r\n\r\n\"two\nlines\",x\nlast", maxRows: 10)
        #expect(rows == [["Account address", "Hide notifications"], ["a,b\"c", "true"], ["two\nlines", "x"], ["last"]])
        #expect(CSVTable.line(["a,b\"c", "plain", ""]) == "\"a,b\"\"c\",plain,\n")
        #expect(throws: CSVTable.Failure.unclosedQuote(line: 2)) { try CSVTable.rows("ok\n\"never closed,\n", maxRows: 10) }
        #expect(throws: CSVTable.Failure.tooManyRows(2)) { try CSVTable.rows("a\nb\nc\n", maxRows: 2) }
    }

    @Test("an import reads Mastodon's header or none, leading @ and bare names, each address once; it reports what is not an address")
    func importRows() throws {
        let (rows, failed) = try AccountImport.parse(Data("Account address,Hide notifications\n@Bob@Far.Example,false\nbob@far.example,true\ncarol\nwho is this,true\n".utf8), kind: .mutes)
        #expect(rows == [AccountImport.Row(address: "Bob@Far.Example", username: "Bob", domain: "far.example", hideNotifications: false),
                         AccountImport.Row(address: "carol", username: "carol", domain: nil, hideNotifications: true)])
        #expect(failed == [AccountImport.RowFailure(address: "who is this", error: "Not an account address")])
        #expect(throws: NodeError.validation("The file is not UTF-8 text")) { try AccountImport.parse(Data([0xFF, 0xFE, 0x00]), kind: .blocks) }
    }
}
