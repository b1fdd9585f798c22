import Foundation

/// ISO 8601 / RFC 3339 timestamps as ActivityStreams uses them (`published`, `updated`).
///
/// Hand-written rather than `ISO8601DateFormatter` so that one parser takes every shape real
/// servers send (with or without fractional seconds, `Z` or a `±HH:MM` offset) and stays
/// `Sendable` and allocation-light.
public enum ASDate {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM|±HHMM]`; no zone means UTC.
    /// Returns nil for anything else, including impossible dates such as month 13.
    public static func parse(_ text: String) -> Date? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let date = scanner.civilDate(), scanner.take(["T", "t", " "]),
              let time = scanner.clockTime() else { return nil }
        let fraction = scanner.fraction()
        guard let offset = scanner.zoneOffset(), scanner.atEnd else { return nil }
        let days = daysFromCivil(year: date.year, month: date.month, day: date.day)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Formats as `YYYY-MM-DDTHH:MM:SSZ` in UTC, whole seconds (the fraction is dropped), as
    /// Mastodon writes `published`/`updated`: some servers parse with that one fixed format and
    /// drop an object whose date carries fractional seconds.
    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let civil = civilFromDays(days)
        let secondOfDay = seconds - days * 86_400
        var text = pad(civil.year, 4) + "-" + pad(civil.month, 2) + "-" + pad(civil.day, 2)
        text += "T" + pad(secondOfDay / 3_600, 2) + ":" + pad(secondOfDay % 3_600 / 60, 2)
        text += ":" + pad(secondOfDay % 60, 2)
        return text + "Z"
    }

    /// Formats as `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC, the milliseconds truncated, as Mastodon's
    /// client API writes times (and as Foundation's `ISO8601FormatStyle` with fractional
    /// seconds does, at a fraction of its cost: a page of 20 statuses formats about 60 times).
    /// `dayOnly` gives midnight of the date's day (`YYYY-MM-DDT00:00:00.000Z`).
    /// - Returns: `nil` for years outside 1600...9999 (Foundation's calendar is Julian before
    ///   the Gregorian reform; later years take more than four digits).
    public static func formatMilliseconds(_ date: Date, dayOnly: Bool = false) -> String? {
        // As Foundation does: whole seconds and the fraction truncated to milliseconds, both
        // from the interval since 2001 that `Date` stores.
        let reference = date.timeIntervalSinceReferenceDate
        let whole = reference.rounded(.down)
        guard whole.magnitude < 1e15 else { return nil }
        let fraction = min(999, Int(((reference - whole) * 1000).rounded(.down)))
        var (days, secondOfDay) = (Int(whole) + 978_307_200).quotientAndRemainder(dividingBy: 86_400)
        if secondOfDay < 0 { (days, secondOfDay) = (days - 1, secondOfDay + 86_400) }
        let civil = civilFromDays(days)
        // Foundation's calendar is Julian before October 1582.
        guard (1600...9999).contains(civil.year) else { return nil }
        let time = dayOnly ? (0, 0, 0, 0) : (secondOfDay / 3_600, secondOfDay % 3_600 / 60, secondOfDay % 60, fraction)
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var index = 0
            func digits(_ value: Int, _ width: Int, then separator: UInt8) {
                var divisor = 1
                for _ in 1..<width { divisor *= 10 }
                while divisor > 0 {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value / divisor % 10)
                    index += 1
                    divisor /= 10
                }
                buffer[index] = separator
                index += 1
            }
            digits(civil.year, 4, then: UInt8(ascii: "-"))
            digits(civil.month, 2, then: UInt8(ascii: "-"))
            digits(civil.day, 2, then: UInt8(ascii: "T"))
            digits(time.0, 2, then: UInt8(ascii: ":"))
            digits(time.1, 2, then: UInt8(ascii: ":"))
            digits(time.2, 2, then: UInt8(ascii: "."))
            digits(time.3, 3, then: UInt8(ascii: "Z"))
            return index
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    // Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian calendar).
    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A cursor over the ASCII bytes of a timestamp.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    /// A cursor at the start of `bytes`.
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// True when every byte was consumed.
    var atEnd: Bool { index == bytes.count }

    /// Consumes one byte when it is one of `choices`.
    mutating func take(_ choices: [Character]) -> Bool {
        guard index < bytes.count, choices.contains(Character(UnicodeScalar(bytes[index]))) else { return false }
        index += 1
        return true
    }

    /// Consumes exactly `count` decimal digits.
    mutating func number(digits count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + count] {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += count
        return value
    }

    /// Consumes `YYYY-MM-DD`, checking the day exists.
    mutating func civilDate() -> (year: Int, month: Int, day: Int)? {
        guard let year = number(digits: 4), take(["-"]), let month = number(digits: 2), take(["-"]),
              let day = number(digits: 2), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        return (year, month, day)
    }

    /// Consumes `HH:MM:SS` (a leap second 60 counts as 59).
    mutating func clockTime() -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = number(digits: 2), take([":"]), let minute = number(digits: 2), take([":"]),
              let second = number(digits: 2), hour < 24, minute < 60, second <= 60 else { return nil }
        return (hour, minute, min(second, 59))
    }

    /// Consumes an optional `.digits` fraction of a second.
    mutating func fraction() -> Double {
        guard take([".", ","]) else { return 0 }
        // Up to nanoseconds as an integer, then one division: ".731" is exactly 731 / 1000.
        var digits = 0
        var scale = 1.0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            if scale < 1e9 {
                digits = digits * 10 + Int(bytes[index] - 48)
                scale *= 10
            }
            index += 1
        }
        return Double(digits) / scale
    }

    /// The zone offset in seconds east of UTC; nil when malformed.
    mutating func zoneOffset() -> Int? {
        if atEnd || take(["Z", "z"]) { return 0 }
        let sign: Int
        if take(["+"]) { sign = 1 } else if take(["-"]) { sign = -1 } else { return nil }
        guard let hours = number(digits: 2) else { return nil }
        _ = take([":"])
        let minutes = number(digits: 2) ?? 0
        guard hours < 24, minutes < 60 else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
