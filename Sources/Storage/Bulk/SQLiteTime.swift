/// Formats times the way GRDB stores dates ("YYYY-MM-DD HH:MM:SS.SSS", UTC) without a
/// formatter per row, which matters when a million rows are written.
public enum SQLiteTime {
    /// The text for `millis` milliseconds since the Unix epoch.
    public static func text(millis: Int64) -> String {
        let days = millis / 86_400_000
        let inDay = millis % 86_400_000
        let (year, month, day) = civil(days: days)
        let hours = inDay / 3_600_000, minutes = inDay / 60_000 % 60, seconds = inDay / 1000 % 60, rest = inDay % 1000
        return "\(year)-\(pad(month, 2))-\(pad(day, 2)) \(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(rest, 3))"
    }

    /// ISO 8601 in UTC with seconds ("2026-01-01T00:00:05Z"), as ActivityPub `published` reads.
    public static func iso8601(millis: Int64) -> String {
        let text = text(millis: millis)
        return String(text.prefix(10)) + "T" + String(text.dropFirst(11).prefix(8)) + "Z"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// Year, month, day of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
    private static func civil(days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
