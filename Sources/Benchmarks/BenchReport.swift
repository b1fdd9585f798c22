import Foundation

/// The one table a run prints and writes to `BENCHMARKS.md`, with the cost curve, the notes
/// and where it ran.
struct BenchReport: Sendable {
    /// One figure against its same-run reference and its budget.
    struct Row: Sendable {
        var figure: String
        var value: String
        var reference: String = "—"
        var ratio: String = "—"
        var budget: String = "—"
        /// `pass`, `MISS`, or `—` when the figure has no budget.
        var verdict: String = "—"
    }

    var rows: [Row] = []
    /// The cost curve: a header and one row per database size.
    var curveHeader: [String] = []
    var curve: [[String]] = []
    /// Facts a reader needs to trust or read the numbers (plans, outcomes, caveats).
    var notes: [String] = []
    var machine: MachineInfo
    var command: String
    var commit: String
    var startedAt: Date
    var seconds: Double = 0
    var loadAtEnd = ""
    var quick: Bool

    /// The main table as aligned plain text, for the terminal.
    var text: String {
        let header = ["figure", "value", "reference", "ratio", "budget", "verdict"]
        let cells = [header] + rows.map { [$0.figure, $0.value, $0.reference, $0.ratio, $0.budget, $0.verdict] }
        var lines = Self.aligned(cells)
        if !curve.isEmpty { lines += ["", "cost curve:"] + Self.aligned([curveHeader] + curve) }
        return lines.joined(separator: "\n")
    }

    /// The report as Markdown.
    var markdown: String {
        var lines = ["# FedNode benchmarks", ""]
        if quick { lines += ["**Smoke run (`--quick`): small sizes, budgets not meaningful.**", ""] }
        lines += [
            "Written by `\(command)` on \(ISO8601DateFormatter().string(from: startedAt)) at commit `\(commit)`; the run took \(String(format: "%.0f", seconds)) s.",
            "",
            "Machine: \(machine.cpuModel), \(machine.cores) cores, \(String(format: "%.1f", Double(machine.memoryBytes) / 1_073_741_824)) GiB memory, Linux \(machine.kernel). "
                + "Load average at start \(machine.loadAverage), at end \(loadAtEnd) (other work on the machine shares its cores; each reference is measured in the same run for that reason).",
            "",
            "| figure | value | reference (same run) | ratio | budget | verdict |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        lines += rows.map { "| \($0.figure) | \($0.value) | \($0.reference) | \($0.ratio) | \($0.budget) | \($0.verdict) |" }
        if !curve.isEmpty {
            lines += ["", "## Cost curve", "", "| " + curveHeader.joined(separator: " | ") + " |",
                      "|" + String(repeating: " --- |", count: curveHeader.count)]
            lines += curve.map { "| " + $0.joined(separator: " | ") + " |" }
        }
        if !notes.isEmpty { lines += ["", "## How these were measured", ""] + notes.map { "- " + $0 } }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the report to `path`, replacing whatever the file held: `BENCHMARKS.md` is the
    /// generated report and nothing else, so every run leaves exactly what it measured.
    func write(to path: String) throws {
        try markdown.write(toFile: path, atomically: true, encoding: .utf8)
    }

    private static func aligned(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}

/// Number formats the report uses.
enum Format {
    static func rate(_ value: Double) -> String { String(format: "%.0f/s", value) }
    static func ms(_ value: Double) -> String { value < 1 ? String(format: "%.3f ms", value) : String(format: "%.2f ms", value) }
    static func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
    static func ratio(_ value: Double) -> String { value.isFinite ? String(format: "%.2f", value) : "—" }
    static func decimal(_ value: Double) -> String { String(format: "%.1f", value) }
    static func seconds(_ value: Double) -> String { String(format: "%.0f ms", value * 1000) }
    static func verdict(_ met: Bool) -> String { met ? "pass" : "MISS" }
}
