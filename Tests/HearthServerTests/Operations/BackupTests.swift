import Foundation
import GRDB
import HearthTesting
import Testing

/// `hearth backup` while the server runs, and `hearth restore` once it is stopped.
@Suite struct BackupTests {
    /// Runs the `hearth` executable to its end; returns its exit status and output.
    static func hearth(_ arguments: [String]) async throws -> (Int32, String) {
        try await LimitCrossingTests.hearth(arguments)
    }

    /// `hearth backup` and `restore` are SQLite's (PostgreSQL has pg_dump): SQLite on every run.
    @Test func backupWhileServingRestoresEverythingAcknowledgedBeforeIt() async throws {
        try await withServer {
            $0.sqliteOnly = true
        } run: { server in
            let ann = try await TestClient.user(server, "ann")
            try await ann.send("!bio written before the backup")
            try await ann.expect("Your bio now reads: written")
            // A recovery code made before the backup: its keyed hash needs the server secret too.
            let rue = try await TestClient.plain(server)
            try await rue.send("!register rue s3cret-pass")
            try await rue.expect("Recovery codes")
            let codesLine = try await rue.expect("a recovery code line") { $0.split(separator: " ").first?.count == 14 }
            let code = String(try #require(codesLine.split(separator: " ").first))
            let png = server.dataDirectory + "/office.png"
            try Web.samplePNG(300, 200).write(to: URL(fileURLWithPath: png))
            let (added, _) = try await Self.hearth([
                "template", "add", "office", png, "--data-dir", server.dataDirectory,
            ])
            #expect(added == 0)

            // Writes keep coming while the backup runs; the copy must be consistent anyway.
            let writer = Task {
                for i in 0..<30 { try await ann.send("!bio busy \(i)") }
            }
            let file = TestServer.tempDirectory() + "/hearth-backup.sqlite"
            let (status, text) = try await Self.hearth(["backup", file, "--data-dir", server.dataDirectory])
            try await writer.value
            #expect(status == 0, "\(text)")
            #expect(text.contains("backed up") && text.contains("1 pictures"), "\(text)")
            let (again, refused) = try await Self.hearth(["backup", file, "--data-dir", server.dataDirectory])
            #expect(again != 0 && refused.contains("exists; choose a new file name"), "\(refused)")
            let copy = try DatabaseQueue(path: file)
            let integrity = try await copy.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
            #expect(integrity == "ok")
            try copy.close()

            // Something acknowledged after the backup is not in it.
            try await ann.send("!bio written after the backup")
            // After 31 writes, two backups and a check of the copy: under CI's load once past 20 s.
            try await ann.expect("Your bio now reads: written", timeout: 60)
            _ = try await TestClient.user(server, "late")

            let fresh = TestServer.tempDirectory()
            let (restored, restoreText) = try await Self.hearth(["restore", file, "--data-dir", fresh])
            #expect(restored == 0, "\(restoreText)")
            try await withServer(dataDirectory: fresh) {
                $0.sqliteOnly = true
            } run: { back in
                let nc = try await TestClient.plain(back)
                try await nc.send("!login ann s3cret-pass")
                try await nc.expect("You are logged in as ann.")
                try await nc.send("!profile")
                let bio = try await nc.expect("ann") { $0.contains("before the backup") || $0.contains("busy") }
                #expect(!bio.contains("after the backup"))
                try await nc.send("!login late s3cret-pass")
                try await nc.expect("wrong name or password")
                try await nc.send("!recover rue \(code) n3w-s3cret-pass")
                try await nc.expect("Password reset for rue")
                try await nc.send("!templates office")
                let (_, picture) = try await Web.fetch(
                    try Web.link(in: try await nc.expect("office (everyone's)")))
                #expect(picture.statusCode == 200)
            }
        }
    }

    @Test func restoreRefusesARunningServerAndFilesThatAreNotHearthDatabases() async throws {
        let dir = TestServer.tempDirectory()
        let (file, stopped) = try await ExecutableTests.serving(dir) { _, port in
            let client = try await TestClient.connect(port: port)
            try await client.send("!register keeper s3cret-pass")
            try await client.expect("Welcome to Hearth, keeper!")
            let file = TestServer.tempDirectory() + "/keep.sqlite"
            #expect(try await Self.hearth(["backup", file, "--data-dir", dir]).0 == 0)

            let (status, text) = try await Self.hearth(["restore", file, "--data-dir", dir])
            #expect(status != 0 && text.contains("a Hearth server is running on \(dir); stop it first"), "\(text)")
            let (second, secondText) = try await Self.hearth([
                "serve", "--irc-port", "0", "--http-port", "0", "--data-dir", dir,
            ])
            #expect(second != 0 && secondText.contains("stop it first"), "\(secondText)")
            return file
        }
        #expect(stopped.status == 0, "\(stopped.output)")

        let junk = TestServer.tempDirectory() + "/junk.sqlite"
        try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: junk))
        let (bad, badText) = try await Self.hearth(["restore", junk, "--data-dir", dir])
        #expect(bad != 0 && badText.contains("not an SQLite database"), "\(badText)")
        let other = TestServer.tempDirectory() + "/other.sqlite"
        let queue = try DatabaseQueue(path: other)
        try await queue.write { try $0.execute(sql: "CREATE TABLE t(x)") }
        try queue.close()
        let (foreign, foreignText) = try await Self.hearth(["restore", other, "--data-dir", dir])
        #expect(foreign != 0 && foreignText.contains("not a Hearth database"), "\(foreignText)")

        // Stopped: the restore goes through and keeps the replaced database beside it.
        let (ok, okText) = try await Self.hearth(["restore", file, "--data-dir", dir])
        #expect(ok == 0 && okText.contains("the previous database is kept as"), "\(okText)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
            $0.hasPrefix("hearth.sqlite.before-restore-")
        }
        #expect(!kept.isEmpty)
    }
}
