import Foundation
import Signatures
import Testing

/// scrypt password hashes as stored for local accounts.
@Suite struct PasswordHasherTests {
    /// A cheap cost so the suite stays fast; the format and checks are the same at logN 15.
    static let testCost = 10

    @Test func rightPasswordVerifiesAndWrongOneFails() throws {
        let stored = try PasswordHasher.hash("correct horse battery staple", logN: Self.testCost)
        #expect(PasswordHasher.verify("correct horse battery staple", against: stored))
        #expect(!PasswordHasher.verify("correct horse battery stapl", against: stored))
        #expect(!PasswordHasher.verify("", against: stored))
    }

    @Test func defaultCostHashVerifies() throws {
        let stored = try PasswordHasher.hash("ünïcødé pässwörd")
        #expect(stored.hasPrefix("$scrypt$ln=15,r=8,p=1$"))
        #expect(PasswordHasher.verify("ünïcødé pässwörd", against: stored))
    }

    @Test func hashesOfOnePasswordDiffer() throws {
        let first = try PasswordHasher.hash("hunter2", logN: Self.testCost)
        let second = try PasswordHasher.hash("hunter2", logN: Self.testCost)
        #expect(first != second)
        #expect(PasswordHasher.verify("hunter2", against: first) && PasswordHasher.verify("hunter2", against: second))
    }

    @Test func storedStringCarriesParametersSaltAndHashButNoPlainText() throws {
        let stored = try PasswordHasher.hash("hunter2", logN: Self.testCost)
        #expect(!stored.contains("hunter2"))
        let fields = stored.split(separator: "$")
        #expect(fields.count == 4)
        #expect(fields[0] == "scrypt")
        #expect(fields[1] == "ln=10,r=8,p=1")
        #expect(Data(base64Encoded: String(fields[2]))?.count == 16)
        #expect(Data(base64Encoded: String(fields[3]))?.count == 32)
    }

    @Test func emptyPasswordStillHashes() throws {
        let stored = try PasswordHasher.hash("", logN: Self.testCost)
        #expect(PasswordHasher.verify("", against: stored))
        #expect(!PasswordHasher.verify(" ", against: stored))
    }

    @Test func malformedStoredStringsNeverVerify() throws {
        let stored = try PasswordHasher.hash("hunter2", logN: Self.testCost)
        let fields = stored.split(separator: "$").map(String.init)
        let malformed = [
            "", "hunter2", "$scrypt$", "$bcrypt$ln=10,r=8,p=1$\(fields[2])$\(fields[3])",
            "$scrypt$ln=10,r=8$\(fields[2])$\(fields[3])",
            "$scrypt$r=8,ln=10,p=1$\(fields[2])$\(fields[3])",
            "$scrypt$ln=40,r=8,p=1$\(fields[2])$\(fields[3])",
            "$scrypt$ln=10,r=8,p=1$!!!$\(fields[3])",
            "$scrypt$ln=10,r=8,p=1$\(fields[2])$",
            "$scrypt$ln=10,r=8,p=1$\(fields[2])$\(fields[3])$extra",
        ]
        for text in malformed {
            #expect(!PasswordHasher.verify("hunter2", against: text), "\(text)")
        }
    }

    @Test func changedParametersInTheStoredStringFail() throws {
        let stored = try PasswordHasher.hash("hunter2", logN: Self.testCost)
        #expect(!PasswordHasher.verify("hunter2", against: stored.replacingOccurrences(of: "ln=10", with: "ln=11")))
    }

    @Test func outOfRangeCostIsRefused() {
        #expect(throws: SignatureError.keyDerivationFailed) { try PasswordHasher.hash("x", logN: 0) }
        #expect(throws: SignatureError.keyDerivationFailed) { try PasswordHasher.hash("x", logN: 40) }
    }
}
