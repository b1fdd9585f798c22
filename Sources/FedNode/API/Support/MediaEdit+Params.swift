import Core
import Foundation

extension MediaEdit {
    /// The `media_attributes` entries of an edit, in order.
    /// - Throws: `NodeError.validation` (422) for an entry without a numeric id, alt text over
    ///   `MediaService.maxDescription` characters, or a focus that is not `x,y` in -1...1.
    static func list(from params: APIParams) throws(NodeError) -> [MediaEdit] {
        var edits: [MediaEdit] = []
        for item in params.objects("media_attributes") { edits.append(try MediaEdit(item)) }
        return edits
    }

    private init(_ item: [String: String]) throws(NodeError) {
        self.init(id: 0)
        guard let id = item["id"].flatMap({ Int64($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw .validation("Each media_attributes entry needs the id of a photo in the post")
        }
        self.id = id
        if let text = item["description"] {
            guard text.count <= MediaService.maxDescription else {
                throw .validation("Validation failed: Description is too long (maximum is \(MediaService.maxDescription) characters)")
            }
            description = text
        }
        if let raw = item["focus"], !raw.isEmpty {
            let parts = raw.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, parts.allSatisfy({ (-1...1).contains($0) }) else {
                throw .validation("Focus must be two numbers between -1 and 1, as x,y")
            }
            focus = .init(x: parts[0], y: parts[1])
        }
    }
}
