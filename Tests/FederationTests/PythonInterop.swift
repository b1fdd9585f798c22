import Foundation
import TestSupport

/// Finds the Python interpreter of the project's virtual environment (made by `make test`,
/// which sets `FEDNODE_PYTHON`) and runs the interop scripts under `interop/python`.
enum PythonInterop {
    /// The repository root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `.venv/bin/python`, or what `FEDNODE_PYTHON` names; `nil` when neither exists.
    static var python: String? {
        let candidates: [String?] = [ProcessInfo.processInfo.environment["FEDNODE_PYTHON"], root.appendingPathComponent(".venv/bin/python").path]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether the interop tests can run. `make test` always provides the environment; a bare
    /// `swift test` without it skips them, unless `FEDNODE_REQUIRE_PYTHON=1` makes that an error.
    static var available: Bool {
        python != nil || ProcessInfo.processInfo.environment["FEDNODE_REQUIRE_PYTHON"] == "1"
    }

    /// Starts `interop/python/<script>` with `arguments`; its output goes to `log`.
    static func start(_ script: String, _ arguments: [String], log: URL) throws -> ChildProcess {
        guard let python else { throw InteropError.noPython }
        return try ChildProcess(python, [root.appendingPathComponent("interop/python/\(script)").path] + arguments,
                                stdout: .file(log.path), stderr: .file(log.path))
    }

    /// The JSON lines written so far to `report`.
    static func lines(_ report: URL) -> [[String: Any]] {
        guard let text = try? String(contentsOf: report, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// Runs `interop/python/<script>` with `arguments` to its end, or kills it after `seconds`
    /// (a stuck step fails the test instead of hanging the suite).
    /// - Returns: Its exit status and everything it printed.
    static func run(_ script: String, _ arguments: [String], within seconds: Double = 240) async throws -> (status: Int32, output: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("fednode-\(script.replacingOccurrences(of: "/", with: "_"))-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = try start(script, arguments, log: log)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        process.signal(SIGKILL)
        let status = process.waitForExit()
        return (status, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// Why an interop test could not run.
    enum InteropError: Error, CustomStringConvertible {
        /// No virtual environment: run `make test` (or `make venv`).
        case noPython
        var description: String { "no Python venv: run `make test` or `make venv` (FEDNODE_PYTHON unset, .venv missing)" }
    }
}
