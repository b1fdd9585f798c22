@testable import Core
import Foundation
@testable import FedNode

/// One `/metrics` answer parsed from the Prometheus text exposition format, so tests look up
/// series by name and labels instead of comparing text.
struct MetricsScrape {
    /// One sample line: `name{label="value",...} number`.
    struct Sample {
        /// The series name (`_bucket`, `_sum` and `_count` included for histograms).
        let name: String
        /// The labels, unescaped.
        let labels: [String: String]
        /// The number.
        let value: Double
    }

    /// Every sample, in the order served.
    let samples: [Sample]
    /// The `# HELP` text of each metric name.
    let help: [String: String]
    /// The `# TYPE` of each metric name.
    let types: [String: String]

    /// Parses `text`; a line that is not a comment and does not parse fails the whole scrape.
    init(_ text: String) throws {
        var samples: [Sample] = []
        var help: [String: String] = [:]
        var types: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.isEmpty {
            let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
            if line.hasPrefix("# HELP "), parts.count >= 3 {
                help[parts[2]] = parts.count == 4 ? parts[3] : ""
            } else if line.hasPrefix("# TYPE "), parts.count == 4 {
                types[parts[2]] = parts[3]
            } else if !line.hasPrefix("#") {
                samples.append(try Self.sample(String(line)))
            }
        }
        self.samples = samples
        self.help = help
        self.types = types
    }

    /// The sum of the samples named `name` whose labels include every pair of `labels`;
    /// `nil` when there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let matching = samples.filter { sample in
            sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }
        return matching.isEmpty ? nil : matching.reduce(0) { $0 + $1.value }
    }

    /// The distinct values label `label` takes in the samples named `name`.
    func labelValues(_ name: String, _ label: String) -> Set<String> {
        Set(samples.filter { $0.name == name }.compactMap { $0.labels[label] })
    }

    private static func sample(_ line: String) throws -> Sample {
        let characters = Array(line)
        var index = 0
        var name = ""
        while index < characters.count, characters[index] != "{", characters[index] != " " {
            name.append(characters[index]); index += 1
        }
        var labels: [String: String] = [:]
        if index < characters.count, characters[index] == "{" {
            index += 1
            while index < characters.count, characters[index] != "}" {
                var key = ""
                while index < characters.count, characters[index] != "=" { key.append(characters[index]); index += 1 }
                guard index + 1 < characters.count, characters[index + 1] == "\"" else { throw ScrapeError(line: line) }
                index += 2
                var value = ""
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\\", index + 1 < characters.count {
                        index += 1
                        value.append(characters[index] == "n" ? "\n" : characters[index])
                    } else {
                        value.append(characters[index])
                    }
                    index += 1
                }
                index += 1  // the closing quote
                labels[key] = value
                if index < characters.count, characters[index] == "," { index += 1 }
            }
            index += 1  // the closing brace
        }
        let rest = String(characters[min(index, characters.count)...]).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, let value = Double(rest.split(separator: " ").first.map(String.init) ?? "") else {
            throw ScrapeError(line: line)
        }
        return Sample(name: name, labels: labels, value: value)
    }

    /// A line of the exposition that is not a comment, a blank or a sample.
    struct ScrapeError: Error, CustomStringConvertible {
        /// The line.
        let line: String
        /// What went wrong, for the test log.
        var description: String { "not an exposition line: \(line)" }
    }
}

extension ServedNode {
    /// `GET /metrics` over a real connection from 127.0.0.1, with `headers`.
    func scrapeResponse(headers: [(name: String, value: String)] = []) async throws -> HTTPClientResponse {
        try await node.httpClient.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/metrics", headers: headers))
    }

    /// Scrapes until `done` holds for the parsed answer (background workers move the counters),
    /// for at most about 20 s; then answers the last scrape, which the caller's `#expect`s judge.
    func scrape(until done: (MetricsScrape) -> Bool = { _ in true }) async throws -> MetricsScrape {
        var last = try MetricsScrape(String(decoding: try await scrapeResponse().body, as: UTF8.self))
        var tries = 0
        while !done(last), tries < 400 {
            tries += 1
            try await Task.sleep(for: .milliseconds(50))
            last = try MetricsScrape(String(decoding: try await scrapeResponse().body, as: UTF8.self))
        }
        return last
    }
}
