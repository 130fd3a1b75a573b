import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// The site's files (Sources/HearthServer/Resources), read from the bundle beside the program
/// and served with a hash of their bytes as ETag.
@Suite struct WebAssetsTests {
    /// Every page links the stylesheet with its version; the file answers with its type, a strong
    /// ETag, a 304 when the browser holds it (weakly compared, and for `*`), and is cached for good
    /// only under the version it is linked with.
    @Test func theStylesheetIsLinkedWithItsVersionAndRevalidated() async throws {
        try await withServer { server in
            let base = "http://127.0.0.1:\(server.httpPort)"
            let (body, _) = try await Web.fetch(try #require(URL(string: base + "/")))
            let html = String(decoding: body, as: UTF8.self)
            let linked = try #require(html.firstMatch(of: /href="(\/static\/hearth\.css\?v=[0-9a-f]{16})"/)?.1)
            let (css, file) = try await Web.fetch(try #require(URL(string: base + linked)))
            #expect(file.statusCode == 200)
            #expect(file.value(forHTTPHeaderField: "Content-Type") == "text/css; charset=utf-8")
            #expect(file.value(forHTTPHeaderField: "Cache-Control") == "public, max-age=31536000, immutable")
            #expect(String(decoding: css, as: UTF8.self).contains("prefers-color-scheme: dark"))
            let etag = try #require(file.value(forHTTPHeaderField: "ETag"))
            #expect(etag == "\"" + linked.split(separator: "=").last! + "\"")
            for held in [etag, "\"other\", " + etag, "W/" + etag, "*"] {
                let (again, answer) = try await Web.fetch(
                    try #require(URL(string: base + "/static/hearth.css")), headers: ["If-None-Match": held])
                #expect(answer.statusCode == 304, "\(held)")
                #expect(again.isEmpty && answer.value(forHTTPHeaderField: "ETag") == etag)
                #expect(answer.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
            }
            // Another version, an old one: sent in full, and not to be kept for good.
            let (_, old) = try await Web.fetch(
                try #require(URL(string: base + "/static/hearth.css?v=0123456789abcdef")),
                headers: ["If-None-Match": "\"0123456789abcdef\""])
            #expect(old.statusCode == 200 && old.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
            let (head, headAnswer) = try await Web.fetch(try #require(URL(string: base + linked)), method: "HEAD")
            #expect(headAnswer.statusCode == 200 && head.isEmpty)
            #expect(headAnswer.value(forHTTPHeaderField: "ETag") == etag)
        }
    }

    /// The chat page links its files with the versions they are served under.
    @Test func aPageLinksTheFilesWithTheirVersions() throws {
        let assets = try WebAssets.loaded.get()
        let page = try #require(assets.byPath["/chat"])
        let html = String(buffer: page.body)
        for path in ["/static/chat.js", "/static/chat.css", "/static/hearth.css"] {
            let version = try #require(assets.byPath[path]?.version)
            #expect(html.contains("\"\(path)?v=\(version)\""), "\(path)")
        }
        #expect(!page.versioned && page.contentType == "text/html; charset=utf-8")
    }

    /// Without its files the server does not start, and says what is missing and where.
    @Test func missingFilesStopTheStartWithAClearError() throws {
        let empty = URL(fileURLWithPath: try Self.temporaryDirectory())
        defer { try? FileManager.default.removeItem(at: empty) }
        let error = #expect(throws: WebAssets.Missing.self) { try WebAssets.load(from: empty) }
        #expect(error?.description.contains("no hearth.css in \(empty.path)") == true, "\(String(describing: error))")
        #expect(error?.description.contains("*.resources") == true)
        // A file that is there but empty is no better.
        for name in WebAssets.required {
            let contents = Data((name == "chat.js" ? "" : "x").utf8)
            _ = FileManager.default.createFile(atPath: empty.appendingPathComponent(name).path, contents: contents)
        }
        let emptyFile = #expect(throws: WebAssets.Missing.self) { try WebAssets.load(from: empty) }
        #expect(emptyFile?.description.contains("chat.js is empty") == true)
    }

    /// Installed as the package does it (/usr/bin/hearth a link to /usr/lib/hearth/hearth, the
    /// bundles beside the latter): the program finds its files beside its real path and serves.
    @Test func aLinkToTheProgramFindsTheFilesBesideIt() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let program = URL(fileURLWithPath: Programs.hearthBinary()).standardizedFileURL.path
        try FileManager.default.createSymbolicLink(atPath: directory + "/hearth", withDestinationPath: program)
        let link = directory + "/hearth"
        let (status, _) = try await Programs.serving(dataDirectory: directory + "/data", program: link) { running, _ in
            let http = try #require(running.output.firstMatch(of: /http:\/\/localhost:(\d+)\/health/)?.1)
            let (_, answer) = try await Web.fetch(try #require(URL(string: "http://127.0.0.1:\(http)/static/chat.js")))
            return answer.statusCode
        }
        #expect(status == 200)
    }

    /// A copy of the program without its bundles beside it does not start (it would otherwise serve
    /// pages without their styles and a chat without its script), and says why.
    @Test func theProgramWithoutItsFilesDoesNotStart() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A hard link: the program's own bytes at a path with no bundles beside it.
        try FileManager.default.linkItem(atPath: Programs.hearthBinary(), toPath: directory + "/hearth")
        let arguments = [
            directory + "/hearth", "serve", "--host", "127.0.0.1", "--irc-port", "0", "--http-port", "0",
            "--data-dir", directory + "/data",
        ]
        let (_, finished) = try await Programs.whileRunning(arguments) { running in
            // Until it says it stopped, or that it is up (which would be the bug).
            while !running.output.contains("Error") && !running.output.contains("is up") {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        #expect(finished.status == 1, "\(finished.output)")
        #expect(!finished.output.contains("is up"))
        #expect(
            finished.output.contains(
                "the web pages' files (stylesheets, the chat's script) are missing: no Hearth_HearthServer.resources "
                    + "beside the program in \(directory)"), "\(finished.output)")
    }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-assets-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
