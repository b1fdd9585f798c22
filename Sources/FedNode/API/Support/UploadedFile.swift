import Core
import Foundation

/// A file part of a multipart request.
public struct UploadedFile: Sendable, Equatable {
    /// The file name the client gave (never trusted for the type).
    public var filename: String?
    /// The declared content type (never trusted for the type either).
    public var contentType: String?
    /// The bytes.
    public var data: Data
}
