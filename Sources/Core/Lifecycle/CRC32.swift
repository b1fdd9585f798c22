/// CRC-32 as ZIP uses it (ISO 3309 / ITU-T V.42: polynomial 0xEDB88320 reflected, initial and
/// final value 0xFFFFFFFF), computed in pieces so large files never sit in memory whole.
package struct CRC32: Sendable {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private var state: UInt32 = 0xFFFF_FFFF

    /// A checksum of nothing yet.
    package init() {}

    /// Adds `bytes` to the checksum.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        var crc = state
        for byte in bytes { crc = Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        state = crc
    }

    /// The checksum of everything added so far.
    package var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// The checksum of `bytes`.
    package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
