import Foundation
import HearthTesting
import Testing

/// The web chat page (`/chat`) in a real headless Chromium against a real server: a browser
/// user, an `nc` user and the bot in one channel.
@Suite struct ChatPageTests {
    /// Where screenshots go: `HEARTH_SCREENSHOTS` (scripts/screenshots sets docs/screenshots).
    static func screenshotPath(_ name: String) -> String {
        let directory =
            ProcessInfo.processInfo.environment["HEARTH_SCREENSHOTS"] ?? NSTemporaryDirectory() + "hearth-screenshots"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return (directory as NSString).appendingPathComponent(name)
    }

    /// The text of the messages in the buffer on screen.
    static let shown = "[...document.querySelectorAll('#messages .log:not([hidden]) .message')].map(m => m.textContent)"

    /// Types `text` into the input line and sends it, as a person would press Enter.
    static func say(_ browser: Chromium, _ text: String) async throws {
        try await browser.evaluate(
            "document.getElementById('input').value = \(Chromium.literal(text)); "
                + "document.getElementById('compose').requestSubmit()")
    }

    /// Fills the form and connects; waits for the chat to show (or, failing, for `status`).
    static func connect(
        _ browser: Chromium, nick: String, account: String = "", password: String = "", channels: String = ""
    ) async throws {
        var script = ""
        for (id, value) in [("nick", nick), ("account", account), ("password", password), ("channels", channels)] {
            script += "document.getElementById('\(id)').value = \(Chromium.literal(value)); "
        }
        try await browser.evaluate(script + "document.getElementById('login').requestSubmit()")
    }

    @Test func aBrowserChatsWithAnNcUserAndTheBot() async throws {
        try await withServer { server in
            let base = "http://127.0.0.1:\(server.httpPort)"
            let nc = try await TestClient.user(server, "cook")
            try await nc.send("/join #kitchen")
            try await nc.expect("You joined #kitchen")
            try await Chromium.withBrowser { browser in
                try await browser.navigate(to: base + "/chat")
                try await Self.connect(browser, nick: "webby")
                try await browser.waitUntil("!document.getElementById('client').hidden")
                try await browser.evaluate(
                    "document.getElementById('join').value = 'kitchen'; "
                        + "document.getElementById('join-form').requestSubmit()")
                try await browser.waitUntil(
                    "document.getElementById('title').textContent === '#kitchen' "
                        + "&& \(Self.shown).some(t => t.includes('Here:') && t.includes('cook'))")
                try await nc.expect("[#kitchen] * webby joined")

                // A bot command said in the channel is answered there.
                try await Self.say(browser, "!help")
                try await browser.waitUntil(
                    "[...document.querySelectorAll('#messages .message')].some(m => "
                        + "m.querySelector('.nick').textContent === 'hearth' && m.textContent.includes('!fortune'))")

                // nc → page: text stays text, links are links, this server's pictures show inline.
                try await nc.send("hello from nc <b>not bold</b> https://example.com/recipes?x=1.")
                try await browser.waitUntil("\(Self.shown).some(t => t.includes('hello from nc <b>not bold</b>'))")
                #expect(try await browser.evaluate("document.querySelectorAll('#messages b').length") == "0")
                let link = "document.querySelector('#messages a[href=\"https://example.com/recipes?x=1\"]')"
                #expect(
                    try await browser.evaluate("\(link).rel + ' ' + \(link).target") == "noopener noreferrer _blank")
                try await nc.send("!meme sunset soup's on | come to the kitchen")
                try await browser.waitUntil(
                    "[...document.querySelectorAll('#messages img.inline-image')]"
                        + ".some(i => i.complete && i.naturalWidth > 0 && i.src.startsWith(\(Chromium.literal(base))))",
                    timeout: 20)

                // page → nc, and an action.
                try await Self.say(browser, "hi from the browser")
                try await nc.expect("[#kitchen] <webby> hi from the browser")
                try await Self.say(browser, "/me waves")
                try await nc.expect("[#kitchen] * webby waves")
                try await browser.waitUntil("\(Self.shown).some(t => t.includes('hi from the browser'))")

                try await nc.send("nice, see you at dinner webby")
                try await browser.waitUntil("document.querySelector('#messages .message.highlight') !== null")
                try await browser.screenshot(to: Self.screenshotPath("chat.png"))

                // A phone in dark mode: nothing wider than the screen.
                try await browser.emulate(width: 390, height: 844)
                try await browser.colorScheme("dark")
                try await browser.waitUntil("innerWidth === 390")
                #expect(try await browser.evaluate("document.documentElement.scrollWidth <= innerWidth") == "true")
                try await browser.screenshot(to: Self.screenshotPath("chat-phone-dark.png"))

                let problems = browser.problems()
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }

    @Test func aBrowserSignsInWithItsAccount() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            try await Chromium.withBrowser { browser in
                try await browser.navigate(to: "http://127.0.0.1:\(server.httpPort)/chat")
                try await Self.connect(browser, nick: "", account: "ann", password: "wrong-pass")
                try await browser.waitUntil("document.getElementById('status').textContent.includes('Sign-in failed')")
                try await Self.connect(browser, nick: "", account: "ann", password: "s3cret-pass")
                try await browser.waitUntil("!document.getElementById('client').hidden")
                try await Self.say(browser, "/msg hearth !whoami")
                try await browser.waitUntil(
                    "document.getElementById('title').textContent === 'hearth' "
                        + "&& \(Self.shown).some(t => t.includes('logged in as ann'))")
                #expect(try await browser.evaluate("document.getElementById('password').value") == "")
                // Quitting shows the form again; connecting again starts afresh.
                try await Self.say(browser, "/quit")
                try await browser.waitUntil("!document.getElementById('login').hidden")
                try await Self.connect(browser, nick: "ann2")
                try await browser.waitUntil(
                    "document.getElementById('title').textContent === 'Server' "
                        + "&& document.querySelectorAll('#buffers .buffer').length === 1")
                #expect(!browser.console.contains { $0.hasPrefix("exception") }, "\(browser.console)")
            }
        }
    }

    @Test func theServedFilesAreTypedCachedAndUnderTheContentPolicy() async throws {
        try await withServer { server in
            let base = "http://127.0.0.1:\(server.httpPort)"
            let (body, page) = try await Web.fetch(try #require(URL(string: base + "/chat")))
            #expect(page.statusCode == 200)
            #expect(page.value(forHTTPHeaderField: "Content-Type") == "text/html; charset=utf-8")
            let policy = page.value(forHTTPHeaderField: "Content-Security-Policy") ?? ""
            #expect(policy.contains("script-src 'self'") && policy.contains("connect-src 'self'"), "\(policy)")
            let html = String(decoding: body, as: UTF8.self)
            #expect(!html.contains("<script>") && !html.contains("<style") && !html.contains("style="))
            for (path, type) in [
                ("/static/chat.js", "text/javascript; charset=utf-8"), ("/static/chat.css", "text/css; charset=utf-8"),
            ] {
                // Linked with its version: cacheable for good; without it, revalidated by its ETag.
                let start = try #require(html.range(of: path + "?v="))
                let linked = String(html[start.lowerBound...].prefix { $0 != "\"" })
                let (_, file) = try await Web.fetch(try #require(URL(string: base + linked)))
                #expect(file.statusCode == 200)
                #expect(file.value(forHTTPHeaderField: "Content-Type") == type)
                #expect(file.value(forHTTPHeaderField: "Cache-Control")?.contains("immutable") == true)
                let etag = try #require(file.value(forHTTPHeaderField: "ETag"))
                let (_, again) = try await Web.fetch(
                    try #require(URL(string: base + path)), headers: ["If-None-Match": etag])
                #expect(again.statusCode == 304)
                #expect(again.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
            }
        }
    }
}
