import Foundation
import Testing
@testable import Benchmarks

/// `BENCHMARKS.md` holds what the run wrote and nothing else.
@Suite struct ReportFileTests {
    private func report() -> BenchReport {
        var report = BenchReport(
            machine: MachineInfo(cpuModel: "test CPU", cores: 2, memoryBytes: 1 << 30, kernel: "6.0", loadAverage: "0.00 0.00 0.00"),
            command: "make bench", commit: "abc1234", startedAt: Date(timeIntervalSince1970: 0), quick: false)
        report.rows = [BenchReport.Row(figure: "Inbox: accepted", value: "1/s")]
        report.curveHeader = ["posts", "page p99"]
        report.curve = [["10k", "0.1 ms"]]
        report.notes = ["Inbox: how it was sent."]
        return report
    }

    @Test func writingReplacesTheWholeFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-report-\(UUID().uuidString).md").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "# Old report\n\n## Notes kept by hand\n\nanything\n".write(toFile: path, atomically: true, encoding: .utf8)

        let report = report()
        try report.write(to: path)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == report.markdown)
        #expect(!written.contains("Notes kept by hand"))
        let headings = written.split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(headings == ["# FedNode benchmarks", "## Cost curve", "## How these were measured"])
    }
}
