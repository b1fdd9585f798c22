import Dispatch
import Foundation
import GRDB
import Logging
import PostgresNIO
import Synchronization

/// Named prepared statements: each statement text is parsed and planned once per connection,
/// then only bound and executed. The list queries have a dozen `EXISTS` subqueries, and
/// planning one again at every request cost more than running it.
///
/// postgres-nio prepares a `PostgresPreparedStatement` on a connection on its first use there
/// and keeps it for the connection's life. Its name and SQL are static members of the type,
/// so the type below reads them from a task-local value the engine sets around each call.
/// Statements are named by text and argument types (`PreparedNames`), and a name is never
/// given to another text.
enum PreparedText {
    @TaskLocal static var current: (name: String, sql: String) = ("", "")
}

/// A statement prepared by the name and text the engine sets in `PreparedText.current`.
struct PreparedRows: PostgresPreparedStatement {
    typealias Row = PostgresRow
    static var name: String { PreparedText.current.name }
    static var sql: String { PreparedText.current.sql }
    let bindings: PostgresBindings
    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

/// Names for statement texts, shared by the engine's connections.
final class PreparedNames: Sendable {
    /// Distinct texts named before the table is emptied (the code's SQL, in all the shapes its
    /// optional clauses give, stays well below it). Numbering goes on after, so an old name is
    /// never reused for another text on a connection that still holds it.
    static let limit = 4_096
    private let names = Mutex<(byKey: [String: String], next: Int)>(([:], 0))

    /// The name of `sql` bound with arguments of the types `signature`.
    func name(sql: String, signature: String) -> String {
        let key = signature + "\u{1}" + sql
        return names.withLock { state in
            if let known = state.byKey[key] { return known }
            if state.byKey.count >= Self.limit { state.byKey.removeAll(keepingCapacity: true) }
            state.next += 1
            let name = "fednode_\(state.next)"
            state.byKey[key] = name
            return name
        }
    }
}

/// A connection of the engine's pool, with the statements it has run under their names.
final class PooledConnection: @unchecked Sendable {
    /// Statements one connection keeps prepared before it is retired (closed, and replaced by a
    /// new one when needed): postgres-nio keeps them for the connection's life.
    static let preparedLimit = 1_024

    let connection: PostgresConnection
    /// Names this connection has run successfully (only touched by the thread holding it).
    var prepared: Set<String> = []
    /// Set when the connection must not go back to the pool: a statement failed on its first
    /// use here (postgres-nio would answer every later use with that failure), or a plan went
    /// stale under a schema change.
    var retire = false
    /// What to call if the connection closes while a request waits on it.
    private let waiting = Mutex<(closed: Bool, onClose: (@Sendable () -> Void)?)>((false, nil))

    init(_ connection: PostgresConnection) {
        self.connection = connection
        connection.closeFuture.whenComplete { [weak self] _ in self?.closed() }
    }

    private func closed() {
        let onClose = waiting.withLock { state in
            state.closed = true
            defer { state.onClose = nil }
            return state.onClose
        }
        onClose?()
    }

    /// Whether the connection has closed (the server ended it, or it was closed here).
    var isClosed: Bool { connection.isClosed || waiting.withLock { $0.closed } }

    /// Waits on the calling thread (an engine thread) for the result `start` reports, or until
    /// the connection closes: postgres-nio drops a request written to a connection that the
    /// server has just closed, and its result would never come.
    func wait<T: Sendable>(_ start: (@escaping @Sendable (Result<T, any Error>) -> Void) -> Void) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let finish: @Sendable (Result<T, any Error>) -> Void = { result in
            let first = outcome.withLock { value -> Bool in
                guard value == nil else { return false }
                value = result
                return true
            }
            if first { done.signal() }
        }
        let closed = waiting.withLock { state -> Bool in
            if state.closed { return true }
            state.onClose = { finish(.failure(ConnectionClosed())) }
            return false
        }
        if closed { throw ConnectionClosed() }
        start(finish)
        done.wait()
        waiting.withLock { $0.onClose = nil }
        return try outcome.withLock { $0! }.get()
    }

    /// The connection closed while a request was waiting on it.
    struct ConnectionClosed: Error, CustomStringConvertible {
        var description: String { "the connection to PostgreSQL closed" }
    }
}

/// Runs async postgres-nio calls for the engine's threads, which wait for them: a dispatch
/// queue of its own, so they never queue behind the request handlers on the cooperative pool.
final class PostgresCallExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = PostgresCallExecutor()
    private let queue = DispatchQueue(label: "fednode.postgres.calls", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension PostgresEngine {
    /// The values GRDB `arguments` bind to `parameters` (SQLite's parameter tokens by index),
    /// by GRDB's rules: a named parameter takes the named value, every other one the next
    /// positional value; too many or too few values is an error. `nil` when the arguments'
    /// storage cannot be read (another GRDB version): the caller binds through SQLite then.
    static func nativeValues(of arguments: StatementArguments, parameters: [String]) throws -> [DatabaseValue]? {
        guard let (positional, named) = argumentStorage(arguments) else { return nil }
        var values: [DatabaseValue] = []
        values.reserveCapacity(parameters.count)
        var next = positional.makeIterator()
        var used = 0
        for token in parameters {
            if let first = token.first, first == ":" || first == "@" || first == "$", let value = named[String(token.dropFirst())] {
                values.append(value)
            } else if let value = next.next() {
                values.append(value)
                used += 1
            } else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments)")
            }
        }
        guard used == positional.count else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments)")
        }
        return values
    }

    /// GRDB keeps the positional and named values of `StatementArguments` in two stored
    /// properties it does not publish; a mirror reads them.
    private static func argumentStorage(_ arguments: StatementArguments) -> ([DatabaseValue], [String: DatabaseValue])? {
        var positional: [DatabaseValue]?
        var named: [String: DatabaseValue]?
        for child in Mirror(reflecting: arguments).children {
            switch child.label {
            case "values": positional = child.value as? [DatabaseValue]
            case "namedValues": named = child.value as? [String: DatabaseValue]
            default: break
            }
        }
        guard let positional, let named else { return nil }
        return (positional, named)
    }

    /// The elements of a JSON array of numbers or strings, the text SQLite's `json_each` reads,
    /// as the text of each (what `json_each`'s `value` column gives, cast to text).
    static func arrayElements(_ json: String) throws -> [String] {
        let trimmed = json.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "not a JSON array: \(json.prefix(80))")
        }
        if !trimmed.contains("\"") {
            // Numbers only (the batch ids): split at the commas.
            let inner = trimmed.dropFirst().dropLast()
            if inner.allSatisfy({ $0 == " " }) { return [] }
            return inner.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        guard let elements = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: [.fragmentsAllowed]) as? [Any] else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "not a JSON array: \(json.prefix(80))")
        }
        return try elements.map { element in
            switch element {
            case let string as String: return string
            case let number as NSNumber: return number.stringValue
            default: throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "a JSON array of other than numbers and strings")
            }
        }
    }
}
