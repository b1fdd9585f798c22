import Foundation

/// Writes a ZIP archive (APPNOTE 6.3.x) of stored, uncompressed entries to a seekable file,
/// one entry at a time: each entry's bytes are streamed in, and its local header is patched with
/// the CRC-32 and sizes once they are known (so no data descriptors, which some readers
/// mishandle for stored entries). Photos are already compressed, so storing costs little.
/// Limits of the classic format (no ZIP64): at most 65,535 entries and 4 GiB minus one byte in
/// all; going past either throws `ZipWriter.Failure.tooLarge`.
package final class ZipWriter {
    /// Why an archive could not be written.
    package enum Failure: Error, Equatable {
        /// The archive would pass the classic format's limits.
        case tooLarge
        /// A name is empty, too long, absolute or climbs out with `..`.
        case badName(String)
        /// An entry was begun while another is open, or data came with none open.
        case misuse
    }

    private struct Entry {
        var name: [UInt8]
        var offset: UInt32
        var crc: UInt32
        var size: UInt32
    }

    /// Largest archive written (the classic format's offsets are 32-bit).
    package static let maxBytes: UInt64 = 0xFFFF_FFFF
    /// Most entries in one archive.
    package static let maxEntries = 0xFFFF

    private let handle: FileHandle
    private let time: UInt16
    private let date: UInt16
    private var entries: [Entry] = []
    private var open: (entry: Entry, crc: CRC32, size: UInt64)?
    private var position: UInt64 = 0

    /// An archive written to `handle` (at its start), each entry dated `modified`.
    package init(handle: FileHandle, modified: Date = Date()) {
        self.handle = handle
        (time, date) = Self.dosTime(modified)
    }

    /// Adds an entry holding `data`.
    package func add(_ name: String, data: Data) throws {
        try begin(name)
        try write(data)
        try end()
    }

    /// Adds an entry with the contents of the file at `url`, read 64 KiB at a time.
    package func add(_ name: String, contentsOf url: URL) throws {
        let source = try FileHandle(forReadingFrom: url)
        defer { try? source.close() }
        try begin(name)
        while let chunk = try source.read(upToCount: 65_536), !chunk.isEmpty { try write(chunk) }
        try end()
    }

    /// Starts an entry named `name` (a relative path with `/` separators).
    package func begin(_ name: String) throws {
        guard open == nil else { throw Failure.misuse }
        guard entries.count < Self.maxEntries else { throw Failure.tooLarge }
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 1024, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
            throw Failure.badName(name)
        }
        let entry = Entry(name: bytes, offset: UInt32(position), crc: 0, size: 0)
        try emit(localHeader(entry))
        open = (entry, CRC32(), 0)
    }

    /// Appends `data` to the open entry.
    package func write(_ data: Data) throws {
        guard var current = open else { throw Failure.misuse }
        current.crc.update(data)
        current.size += UInt64(data.count)
        open = current
        try emit(data)
    }

    /// Closes the open entry: its local header gets the CRC-32 and size.
    package func end() throws {
        guard var current = open else { throw Failure.misuse }
        open = nil
        current.entry.crc = current.crc.value
        current.entry.size = UInt32(current.size)
        try handle.seek(toOffset: UInt64(current.entry.offset) + 14)
        var patch = Data()
        patch.appendLittleEndian(current.entry.crc)
        patch.appendLittleEndian(current.entry.size)
        patch.appendLittleEndian(current.entry.size)
        try handle.write(contentsOf: patch)
        try handle.seekToEnd()
        entries.append(current.entry)
    }

    /// Writes the central directory and its end record; the archive is complete.
    package func finish() throws {
        guard open == nil else { throw Failure.misuse }
        let start = position
        for entry in entries { try emit(centralHeader(entry)) }
        var end = Data()
        end.appendLittleEndian(UInt32(0x0605_4B50))
        end.appendLittleEndian(UInt16(0))
        end.appendLittleEndian(UInt16(0))
        end.appendLittleEndian(UInt16(entries.count))
        end.appendLittleEndian(UInt16(entries.count))
        end.appendLittleEndian(UInt32(position - start))
        end.appendLittleEndian(UInt32(start))
        end.appendLittleEndian(UInt16(0))
        try emit(end)
    }

    private func emit(_ data: Data) throws {
        guard position + UInt64(data.count) < Self.maxBytes else { throw Failure.tooLarge }
        try handle.write(contentsOf: data)
        position += UInt64(data.count)
    }

    // Version 2.0, bit 11 (names are UTF-8), method 0 (stored).
    private func common(_ entry: Entry) -> Data {
        var data = Data()
        data.appendLittleEndian(UInt16(20))
        data.appendLittleEndian(UInt16(0x0800))
        data.appendLittleEndian(UInt16(0))
        data.appendLittleEndian(time)
        data.appendLittleEndian(date)
        data.appendLittleEndian(entry.crc)
        data.appendLittleEndian(entry.size)
        data.appendLittleEndian(entry.size)
        data.appendLittleEndian(UInt16(entry.name.count))
        data.appendLittleEndian(UInt16(0))
        return data
    }

    private func localHeader(_ entry: Entry) -> Data {
        var data = Data()
        data.appendLittleEndian(UInt32(0x0403_4B50))
        data.append(common(entry))
        data.append(contentsOf: entry.name)
        return data
    }

    // Made by Unix (3) with version 2.0; a regular file readable by all (0644).
    private func centralHeader(_ entry: Entry) -> Data {
        var data = Data()
        data.appendLittleEndian(UInt32(0x0201_4B50))
        data.appendLittleEndian(UInt16(0x0314))
        data.append(common(entry))
        data.appendLittleEndian(UInt16(0))
        data.appendLittleEndian(UInt16(0))
        data.appendLittleEndian(UInt16(0))
        data.appendLittleEndian(UInt32(0o100644) << 16)
        data.appendLittleEndian(entry.offset)
        data.append(contentsOf: entry.name)
        return data
    }

    /// MS-DOS time and date fields (UTC; two-second resolution; years 1980...2107).
    package static func dosTime(_ date: Date) -> (time: UInt16, date: UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = min(max((parts.year ?? 1980) - 1980, 0), 127)
        let time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
        return (time, UInt16(year << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1)))
    }
}

extension Data {
    /// Appends `value` in little-endian byte order.
    fileprivate mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
