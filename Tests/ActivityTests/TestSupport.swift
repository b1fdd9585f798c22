import Foundation
import Testing
import Activity

/// Fixtures and shared vectors, found from this file's location (symlinks resolved), so the
/// tests run the same from the main package and from a scratch package that links this folder.
enum TestFiles {
    /// The folder holding this file, with symlinks resolved.
    static let testsDirectory: URL = URL(fileURLWithPath: #filePath)
        .resolvingSymlinksInPath().deletingLastPathComponent()

    /// `Tests/ActivityTests/Fixtures`.
    static let fixturesDirectory = testsDirectory.appendingPathComponent("Fixtures")

    /// `shared/vectors`: the first folder up from here that has `shared/vectors`, or whose
    /// parent has it when the folder holds a `Package.swift`.
    static let vectorsDirectory: URL? = {
        let manager = FileManager.default
        var directory = testsDirectory
        while directory.path != "/" {
            let direct = directory.appendingPathComponent("shared/vectors")
            if manager.fileExists(atPath: direct.path) { return direct }
            let sibling = directory.deletingLastPathComponent().appendingPathComponent("shared/vectors")
            if manager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path),
               manager.fileExists(atPath: sibling.path) { return sibling }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    /// The bytes of `Fixtures/name`.
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixturesDirectory.appendingPathComponent(name))
    }

    /// `Fixtures/name` decoded as an ActivityStreams object.
    static func object(_ name: String) throws -> ASObject {
        try ASObject.decode(from: fixture(name))
    }

    /// The bytes of `shared/vectors/path`.
    static func vector(_ path: String) throws -> Data {
        let directory = try #require(vectorsDirectory, "shared/vectors not found above \(testsDirectory.path)")
        return try Data(contentsOf: directory.appendingPathComponent(path))
    }
}

extension ASObject {
    /// Decodes a JSON literal written in a test.
    static func decode(_ json: String) throws -> ASObject {
        try decode(from: Data(json.utf8))
    }
}

/// A fixed instant for dates in tests.
func date(_ text: String) throws -> Date {
    try #require(ASDate.parse(text))
}
