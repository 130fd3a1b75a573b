import Foundation
import Testing

@testable import HearthCrypto

/// Short codes are stored keyed with the server secret, which lives in a 0600 file.
@Suite struct CodeHasherTests {
    @Test func keyedHashesDependOnTheKeyAndDifferFromPlainOnes() {
        let a = CodeHasher(key: [UInt8](repeating: 1, count: CodeHasher.keyBytes))
        let b = CodeHasher(key: [UInt8](repeating: 2, count: CodeHasher.keyBytes))
        #expect(a.hash("K7QPM2XD9FWT") == a.hash("K7QPM2XD9FWT"))
        #expect(a.hash("K7QPM2XD9FWT") != b.hash("K7QPM2XD9FWT"))
        #expect(a.hash("K7QPM2XD9FWT").hasPrefix(CodeHasher.keyedPrefix))
        #expect(a.hash("K7QPM2XD9FWT").count == CodeHasher.keyedPrefix.count + 64)
        #expect(a.candidates("K7QPM2XD9FWT") == [a.hash("K7QPM2XD9FWT"), Sodium.hashSecret("K7QPM2XD9FWT")])
    }

    @Test func theSecretIsMadeOnceAsAPrivateFileAndReadBack() throws {
        let dir = NSTemporaryDirectory() + "hearth-key-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let first = try CodeHasher.load(directory: dir)
        let path = dir + "/" + CodeHasher.fileName
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600 && info.st_size == off_t(CodeHasher.keyBytes))
        let again = try CodeHasher.load(directory: dir)
        #expect(first.hash("X") == again.hash("X"))
        // A key of the wrong size is refused, with what to do about it.
        try Data(repeating: 7, count: CodeHasher.keyBytes + 1).write(to: URL(fileURLWithPath: path))
        #expect(throws: CodeHasher.KeyFileError.self) { try CodeHasher.load(directory: dir) }
    }
}
