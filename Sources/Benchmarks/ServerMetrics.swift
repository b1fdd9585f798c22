import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a `fednode serve` process reports at `GET /metrics` (Prometheus text format), read by
/// the benchmark from 127.0.0.1, which the default `--metrics private` admits.
struct ServerMetrics: Sendable {
    /// Each sample's value by its series as served: `name` or `name{label="value",...}`.
    let series: [String: Double]

    /// Parses an exposition; comments and lines without a number are skipped.
    init(exposition: String) {
        var series: [String: Double] = [:]
        for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            series[String(line[..<space])] = value
        }
        self.series = series
    }

    /// The value of one series (`fednode_sqlite_group_commit_size_count`,
    /// `fednode_inbox_processed_total{outcome="processed"}`), `nil` when not served.
    func value(_ key: String) -> Double? { series[key] }

    /// The samples of metric `name` (every label set), each with its labels.
    func samples(_ name: String) -> [(labels: [String: String], value: Double)] {
        series.compactMap { key, value in
            if key == name { return ([:], value) }
            guard key.hasPrefix(name + "{"), key.hasSuffix("}") else { return nil }
            var labels: [String: String] = [:]
            // `a="x",b="y"`: label values here never hold quotes or commas (routes, outcomes).
            for pair in key.dropFirst(name.count + 1).dropLast().split(separator: "\",") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                labels[String(pair[..<equals])] = pair[pair.index(after: equals)...].trimmingCharacters(in: ["\""])
            }
            return (labels, value)
        }
    }

    /// Each value of label `label` of metric `name`, with its sample summed over the other labels.
    func totals(_ name: String, by label: String) -> [String: Double] {
        samples(name).reduce(into: [:]) { totals, sample in
            if let value = sample.labels[label] { totals[value, default: 0] += sample.value }
        }
    }

    /// Scrapes the server on `port`; `nil` when it does not answer 200 with a complete body.
    static func scrape(port: Int) -> ServerMetrics? {
        guard let fd = try? LoopbackSocket.connect(port: port) else { return nil }
        defer { close(fd) }
        LoopbackSocket.setTimeout(fd, seconds: 5)
        let request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        guard LoopbackSocket.writeAll(fd, Array(request.utf8)) else { return nil }
        var buffer: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 65536)
        while true {
            if let head = HTTPFraming.head(in: buffer), let end = HTTPFraming.messageLength(head, in: buffer) {
                guard head.status == 200 else { return nil }
                return ServerMetrics(exposition: String(decoding: buffer[head.bodyStart..<end], as: UTF8.self))
            }
            let count = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: scratch[0..<count])
        }
    }
}
