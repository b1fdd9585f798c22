import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CPU seconds (user + system) a process has used, from /proc/PID/stat, to show how the
/// cores were shared between the server under test and the load generator.
enum CPUTime {
    /// CPU seconds used so far by process `pid` (all its threads); 0 when unreadable.
    static func seconds(pid: Int32) -> Double {
        guard let stat = ProcFile.read("/proc/\(pid)/stat"),
            let afterName = stat.range(of: ") ", options: .backwards)
        else { return 0 }
        // Fields after the name start at field 3 (state); utime and stime are fields 14 and 15.
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// CPU seconds used so far by this process.
    static func ownSeconds() -> Double {
        seconds(pid: getpid())
    }
}
