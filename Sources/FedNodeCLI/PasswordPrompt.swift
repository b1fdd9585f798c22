import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a password from the terminal without echo (twice, to confirm), or one line from a
/// pipe when stdin is not a terminal.
enum PasswordPrompt {
    static func read() throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = Swift.readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("No password given: pass --password or type it on stdin")
            }
            return line
        }
        let first = try readHidden(prompt: "Password: ")
        let second = try readHidden(prompt: "Repeat password: ")
        guard first == second else { throw ValidationError("Passwords do not match") }
        return first
    }

    private static func readHidden(prompt: String) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = Swift.readLine(strippingNewline: true) else { throw ValidationError("No password given") }
        return line
    }
}
