import Core
import Foundation
import Hummingbird

/// Client API responses: Mastodon entities as snake_case JSON.
public enum APIResponse {
    /// The encoder every API entity goes through (camelCase properties → snake_case keys).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// The decoder matching `encoder()` (tests read entities back with it).
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// `value` as the JSON `encoder()` gives, written by `APISnakeCaseJSON` (by `encoder()`
    /// itself for what that does not follow).
    public static func bytes(_ value: some Encodable) throws -> [UInt8] {
        do {
            return try APISnakeCaseJSON.encode(value)
        } catch is APISnakeCaseJSON.Unsupported {
            return Array(try encoder().encode(value))
        }
    }

    /// `value` as a JSON response.
    public static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        JSONResponse.bytes((try? bytes(value)) ?? Array("{}".utf8), contentType: JSONResponse.json, status: status, headers: headers)
    }

    /// An empty JSON object (`{}`), as Mastodon answers several actions.
    public static func empty() -> Response { JSONResponse.bytes(Data("{}".utf8), contentType: JSONResponse.json) }
}
