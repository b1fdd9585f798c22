import Storage

extension Node {
    /// Runs `body` in a read transaction. A `NodeError` thrown inside passes through; any other
    /// failure is a 500 whose log detail starts with `what`.
    package func read<T: Sendable>(_ what: String, _ body: @Sendable (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await database.read(body) } catch let error as NodeError { throw error } catch {
            throw .internal("\(what) read: \(error)")
        }
    }

    /// Runs `body` in a write transaction. A `NodeError` thrown inside passes through (and rolls
    /// the transaction back); any other failure is a 500 whose log detail starts with `what`.
    package func write<T: Sendable>(_ what: String, _ body: @Sendable (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await database.write(body) } catch let error as NodeError { throw error } catch {
            throw .internal("\(what) write: \(error)")
        }
    }
}
