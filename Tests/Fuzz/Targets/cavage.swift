import Foundation
@testable import Signatures

/// draft-cavage `Signature` headers: never crash; what is accepted has a key id, a non-empty
/// signature and covered headers, and writing it back with `headerValue` and parsing that
/// gives the same parameters (when no value holds a `"`, which the writer cannot quote).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCavage(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = fuzzText(start, count)
    guard let parameters = try? CavageSignature.parse(text) else { return 0 }
    fuzzCheck(!parameters.keyId.isEmpty && !parameters.signature.isEmpty, "accepted \(text) as \(parameters)")
    fuzzCheck(!parameters.headers.isEmpty && parameters.headers.allSatisfy { !$0.isEmpty && $0 == $0.lowercased() },
              "headers \(parameters.headers) from \(text)")
    let values = [parameters.keyId, parameters.algorithm ?? ""] + parameters.headers
    guard !values.contains(where: { $0.contains("\"") }) else { return 0 }
    let written = CavageSignature.headerValue(parameters)
    let again = try? CavageSignature.parse(written)
    fuzzCheck(again == parameters, "\(text) → \(parameters) → \(written) → \(String(describing: again))")
    let authorization = try? CavageSignature.parse("Signature " + written)
    fuzzCheck(authorization == parameters, "Authorization form of \(written)")
    return 0
}
