import Core

/// Numbers, all read by `IntParameter`'s one parser.
extension APIParams {
    /// The value of `parameter` (see `IntParameter` for absent, unreadable and out-of-range values).
    /// - Throws: `NodeError.validation` (422) for a value above a range that is not clamped.
    func int(_ parameter: IntParameter) throws(NodeError) -> Int {
        try parameter.value(string(parameter.name))
    }

    /// An integer that must be given right or not at all (a duration, an expiry, a position):
    /// `nil` when absent or blank.
    /// - Throws: `NodeError.validation` (422) with `invalid` for a value that is not an integer
    ///   in `range`.
    func int(_ key: String, in range: ClosedRange<Int>, invalid: String) throws(NodeError) -> Int? {
        guard let raw = nonEmpty(key) else { return nil }
        guard let number = IntParameter.integer(raw), range.contains(number) else { throw .validation(invalid) }
        return number
    }

    /// An id: a paging cursor (`max_id`, `since_id`, `min_id`) or a record's, read as
    /// `IntParameter.cursor` reads it.
    public func id(_ key: String) -> Int64? { IntParameter.cursor(string(key)) }
}
