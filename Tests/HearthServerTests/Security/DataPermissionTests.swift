import Foundation
import HearthTesting
import Testing

/// The data directory and backups are private to the server's user whatever the umask
/// (security round two: "data on disk is world-readable").
extension SecretsTests {
    /// Every directory under `path` (itself included) that is not 0700 and every file not 0600.
    static func looseModes(_ path: String) -> [String] {
        var loose: [String] = []
        let all =
            [path]
            + (FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String }
                .map { (path as NSString).appendingPathComponent($0) } ?? [])
        for item in all {
            var info = stat()
            guard lstat(item, &info) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            let mode = info.st_mode & 0o7777
            if kind == S_IFDIR && mode != 0o700 || kind == S_IFREG && mode != 0o600 {
                loose.append("\(item) \(String(mode, radix: 8))")
            }
        }
        return loose
    }

    /// Opens every file and directory to others, as an older Hearth under umask 022 left them.
    static func loosen(_ path: String) {
        chmod(path, 0o755)
        for name in FileManager.default.enumerator(atPath: path)?.compactMap({ $0 as? String }) ?? [] {
            let item = (path as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: item, isDirectory: &isDirectory)
            chmod(item, isDirectory.boolValue ? 0o755 : 0o644)
        }
    }

    @Test func theDataDirectoryAndBackupsArePrivateWhateverTheUmask() async throws {
        umask(0o022)
        let dir = TestServer.tempDirectory()
        chmod(dir, 0o755)
        var server = try await TestServer.start(dataDirectory: dir)
        let ann = try await TestClient.user(server, "ann")
        try await ann.send("!meme galaxy-brain one | two | three | four")
        try await ann.expect("/i/")
        #expect(server.sql.isPostgres || FileManager.default.fileExists(atPath: dir + "/hearth.sqlite-wal"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/media").count >= 1)
        #expect(Self.looseModes(dir).isEmpty, "\(Self.looseModes(dir))")

        // A backup taken under umask 022 is private too, pictures included (SQLite's; on
        // PostgreSQL `hearth backup` points to pg_dump).
        umask(0o022)
        let file = TestServer.tempDirectory() + "/backup.sqlite"
        let (status, text) = try await BackupTests.hearth(["backup", file, "--data-dir", dir])
        if server.sql.isPostgres {
            #expect(status != 0 && text.contains("use pg_dump"), "\(text)")
        } else {
            #expect(status == 0, "\(text)")
            #expect(
                Self.looseModes(file).isEmpty && Self.looseModes(file + ".media").isEmpty,
                "\(Self.looseModes(file) + Self.looseModes(file + ".media"))")
        }
        await ann.close()
        await server.stop()

        // Files an older version left open are closed at the next start, with a log line.
        Self.loosen(dir)
        #expect(!Self.looseModes(dir).isEmpty)
        let logs = LogCapture()
        server = try await TestServer.start(dataDirectory: dir, logs: logs)
        #expect(Self.looseModes(dir).isEmpty, "\(Self.looseModes(dir))")
        let database = server.sql.isPostgres ? "secret.key" : "hearth.sqlite"
        #expect(logs.text.contains("made \(dir)/\(database) private"), "\(logs.text.prefix(2000))")
        await server.stop()
    }
}
