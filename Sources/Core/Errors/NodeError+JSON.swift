import Activity

extension NodeError {
    /// The 400 for a JSON body that `JSONValue.parse` refused: what limit it broke, or that it
    /// is not JSON at all (`invalid` says that, naming what was expected).
    /// - Parameters:
    ///   - error: why the body was refused.
    ///   - invalid: the message for a body that is not valid JSON or not the expected document.
    package static func refusedJSON(_ error: ActivityError, invalid: String) -> NodeError {
        switch error {
        case .tooDeep(let limit): .badRequest("JSON nested too deeply (at most \(limit) levels)")
        case .tooManyValues(let limit): .badRequest("JSON with too many values (at most \(limit))")
        case .invalidJSON, .notAnObject, .missingType, .malformedResource: .badRequest(invalid)
        }
    }
}
