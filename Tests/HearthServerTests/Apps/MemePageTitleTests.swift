import Foundation
import HearthTesting
import Testing

/// A walkthrough: `/m/1` for `!meme sunset "hello" "world"` titled "hello  world" (the stored
/// `hello | world` split on the bar kept its spaces). The page names the non-empty captions, trimmed,
/// one separator apart.
@Suite struct MemePageTitleTests {
    @Test func thePageJoinsTheNonEmptyCaptionsWithOneSeparator() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            try await ann.send("!meme sunset \"hello\" \"world\"")
            try await ann.expect("meme #1 by ann")
            let url = try #require(URL(string: "http://127.0.0.1:\(server.httpPort)/m/1"))
            let (body, response) = try await Web.fetch(url)
            #expect(response.statusCode == 200)
            let html = String(decoding: body, as: UTF8.self)
            let heading = try #require(html.range(of: "<h1>.*?</h1>", options: .regularExpression).map { html[$0] })
            #expect(
                heading.hasPrefix("<h1><span class=\"caption\">hello</span> <span class=\"caption\">world</span>"),
                "\(heading)")
        }
    }
}
