import Foundation

/// The machine a run happened on, as the report states it.
struct MachineInfo: Sendable {
    var cpuModel: String
    var cores: Int
    var memoryBytes: Int
    var kernel: String
    /// `/proc/loadavg`'s three averages: other work on the machine skews every figure.
    var loadAverage: String

    /// Reads procfs now.
    static func current() -> MachineInfo {
        let cpuinfo = ProcFile.read("/proc/cpuinfo") ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let meminfo = ProcFile.read("/proc/meminfo") ?? ""
        let total = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let kernel = ProcFile.read("/proc/sys/kernel/osrelease")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
        return MachineInfo(cpuModel: model, cores: ProcessInfo.processInfo.activeProcessorCount, memoryBytes: total * 1024,
                           kernel: kernel, loadAverage: loadAverageNow())
    }

    /// The 1, 5 and 15 minute load averages.
    static func loadAverageNow() -> String {
        let text = ProcFile.read("/proc/loadavg") ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The output of a short command, or `nil` when it fails.
    static func output(of arguments: [String], scratch: String) -> String? {
        guard let (code, text) = try? Subprocess.output(of: arguments, scratch: scratch), code == 0 else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
