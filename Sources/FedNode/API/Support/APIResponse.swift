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

    /// `value` as a JSON response.
    public static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let data = (try? encoder().encode(value)) ?? Data("{}".utf8)
        return JSONResponse.bytes(data, contentType: JSONResponse.json, status: status, headers: headers)
    }

    /// An empty JSON object (`{}`), as Mastodon answers several actions.
    public static func empty() -> Response { JSONResponse.bytes(Data("{}".utf8), contentType: JSONResponse.json) }
}
