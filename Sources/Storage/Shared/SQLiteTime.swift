import Activity

/// Formats times the way GRDB stores dates ("YYYY-MM-DD HH:MM:SS.SSS", UTC) without a
/// formatter per row, which matters when a million rows are written.
public enum SQLiteTime {
    /// The text for `millis` milliseconds since the Unix epoch.
    public static func text(millis: Int64) -> String {
        let days = millis / 86_400_000
        let inDay = millis % 86_400_000
        let (year, month, day) = ASDate.civilFromDays(Int(days))
        let hours = inDay / 3_600_000, minutes = inDay / 60_000 % 60, seconds = inDay / 1000 % 60, rest = inDay % 1000
        return "\(year)-\(pad(Int64(month), 2))-\(pad(Int64(day), 2)) \(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(rest, 3))"
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
}
