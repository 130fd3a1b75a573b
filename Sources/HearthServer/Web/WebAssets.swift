import Foundation
import HearthCrypto
import NIOCore

/// The site's static files, kept as files in `Sources/HearthServer/Resources` (so they get their
/// own editors and linters) and shipped as a resource bundle beside the program. They are read
/// once at start; each carries a hash of its bytes, its ETag and the `?v=` pages link it with.
/// The site's Content-Security-Policy allows scripts and styles only from files of this origin,
/// so no page inlines them.
struct WebAssets: Sendable {
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
        /// A hash of the bytes: the ETag, and the `?v=` the pages link the file with.
        let version: String
        /// Linked with `?v=VERSION` (a stylesheet or a script), so that version is cached for good;
        /// a page (`/chat`) is revalidated on each visit instead.
        let versioned: Bool
    }

    /// What SwiftPM builds from `Resources/` (package Hearth, target HearthServer).
    static let bundleName = "Hearth_HearthServer.resources"

    /// Every file in the bundle is served: `NAME.css` and `NAME.js` at `/static/NAME.…`, a page
    /// `NAME.html` at `/NAME`. An app's page links its script as `/static/NAME.js`.
    static let types = [
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "html": "text/html; charset=utf-8",
    ]
    /// The files the server itself links: without one of them it does not start.
    static let required = ["hearth.css", "chat.css", "chat.js", "chat.html"]

    /// Each served path's file.
    let byPath: [String: Asset]

    /// Read once per process (tests start many servers); a server's start fails with the error.
    static let loaded = Result { try load(from: try bundleDirectory()) }

    /// The path a page links a stylesheet or script with: `/static/hearth.css?v=…`.
    func link(_ path: String) -> String {
        byPath[path].map { path + "?v=" + $0.version } ?? path
    }

    /// Every script by name (`countdown` for `/static/countdown.js`) with its version: a page's
    /// template links one as `{{script.countdown}}`.
    var scripts: [String: String] {
        var links: [String: String] = [:]
        for path in byPath.keys where path.hasPrefix("/static/") && path.hasSuffix(".js") {
            links[String(path.dropFirst("/static/".count).dropLast(".js".count))] = link(path)
        }
        return links
    }

    /// A short hash of the bytes.
    static func version(_ bytes: [UInt8]) -> String { String(Sodium.contentHash(bytes).prefix(16)) }

    /// Reads the files from `directory`. A page's links to the files before it get
    /// their `?v=`, so a new version of a script reaches browsers with the page that uses it.
    static func load(from directory: URL) throws -> WebAssets {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in required where !names.contains(name) {
            throw Missing(detail: "no \(name) in \(directory.path)")
        }
        let served = names.filter { types[($0 as NSString).pathExtension] != nil }.sorted()
        var byPath: [String: Asset] = [:]
        // Pages last: they link the files with their versions.
        for name in served.filter({ !$0.hasSuffix(".html") }) + served.filter({ $0.hasSuffix(".html") }) {
            let url = directory.appendingPathComponent(name)
            guard var text = try? String(contentsOf: url, encoding: .utf8), !text.isEmpty else {
                throw Missing(detail: "\(url.path) is empty or not UTF-8")
            }
            let kind = (name as NSString).pathExtension
            let page = kind == "html"
            if page {
                for (path, asset) in byPath where asset.versioned {
                    text = text.replacingOccurrences(of: "\"\(path)\"", with: "\"\(path)?v=\(asset.version)\"")
                }
            }
            let bytes = Array(text.utf8)
            let path = page ? "/" + (name as NSString).deletingPathExtension : "/static/" + name
            byPath[path] = Asset(
                body: ByteBuffer(bytes: bytes), contentType: types[kind] ?? "", version: version(bytes),
                versioned: !page)
        }
        return WebAssets(byPath: byPath)
    }

    /// Where the bundle is: beside the program (its real path, so a symlink to it is fine), where
    /// `Bundle.module` looks first. Its other place, the build directory baked into the binary,
    /// is not tried: an installed server must not depend on a build tree still being there.
    static func bundleDirectory() throws -> URL {
        #if os(Linux)
            let beside = Bundle.main.bundleURL.appendingPathComponent(bundleName)
            guard FileManager.default.fileExists(atPath: beside.path) else {
                throw Missing(detail: "no \(bundleName) beside the program in \(Bundle.main.bundleURL.path)")
            }
            return beside
        #else
            return Bundle.module.resourceURL ?? Bundle.module.bundleURL
        #endif
    }

    /// The files are not where the program expects them: the server does not start.
    struct Missing: Error, CustomStringConvertible {
        let detail: String
        var description: String {
            "the web pages' files (stylesheets, the chat's script) are missing: \(detail). "
                + "Install the program with its *.resources folders beside it (scripts/package does)."
        }
    }
}
