import Foundation
import HearthKit
import HearthMedia
import HearthTesting
import Testing

@testable import HearthApps
@testable import HearthServer

/// The meme maker on the web: a template or an upload, captions with a live preview drawn by the
/// same rules as `!meme`, and the post that is `!meme` said by the signed-in user.
@Suite struct MemeMakerTests {
    static let hostile = #"<b>bold</b> & "quoted""#

    @Test func makingAMemeFromATemplate() async throws {
        try await withServer { server in
            let alice = try await TestClient.user(server, "alice")
            // A visitor is asked to sign in, and may not post or preview.
            let visitor = WebBrowser(server)
            let asked = try await visitor.get("/make")
            #expect(asked.status == 401 && asked.body.contains("Sign in to make a meme."))
            let posted = try await visitor.post("/make", form: ["source": "sunset", "text1": "hi"])
            #expect(posted.status == 303 && posted.location == "/signin?next=%2Fmake")
            #expect(try await visitor.get("/make/preview?source=sunset&text1=hi").status == 401)
            let browser = WebBrowser(server)
            try await browser.signIn("alice")
            // The grid of templates, searchable with and without the script.
            let grid = try await browser.get("/make")
            #expect(grid.status == 200 && grid.body.contains(#"href="/make?source=sunset""#))
            #expect(grid.body.contains(#"data-filter="templates""#))
            #expect(grid.headers["content-security-policy"]?.contains("script-src 'self'") == true)
            let none = try await browser.get("/make?q=%3Cscript%3Ezzz")
            #expect(none.body.contains("No template matches “&lt;script&gt;zzz”."))
            #expect(!none.body.contains("<script>zzz"))
            let searched = try await browser.get("/make?q=sun")
            #expect(searched.body.contains(#"href="/make?source=sunset""#))
            // The editor: one field per caption box, the preview of what is typed.
            let editor = try await browser.get("/make?source=sunset&text1=%3Cb%3Ehi")
            #expect(editor.body.contains(#"name="text1" value="&lt;b&gt;hi""#) && editor.body.contains("Bottom text"))
            #expect(editor.body.contains(#"src="/make/preview?source=sunset&amp;text1=%3Cb%3Ehi""#))
            let preview = try await browser.get("/make/preview?source=sunset&text1=%3Cb%3Ehi")
            #expect(preview.status == 200 && preview.headers["content-type"] == "image/jpeg")
            #expect(preview.headers["cache-control"] == "private, max-age=300")
            #expect(!MemeTests.mediaFiles(server).contains { $0.hasSuffix(".jpg") })  // a preview is kept nowhere
            // Without the form's token nothing is made.
            #expect(try await browser.post("/make", form: ["source": "sunset"], csrf: false).status == 403)
            // A caption over the limit: back to the maker with what was typed and why; nothing made.
            let long = String(repeating: "x", count: MediaLimits.maxCaptionBytes + 1)
            #expect(try await browser.get("/make/preview?source=sunset&text1=\(long)").status == 400)
            // The form comes back as it was sent (not through a URL: a long non-ASCII one is too long for one).
            let wide = String(repeating: "é", count: MediaLimits.maxCaptionBytes)
            let again = try await browser.post("/make", form: ["source": "sunset", "text1": wide, "text2": "b"])
            #expect(again.status == 422 && again.location == nil)
            #expect(again.body.contains("is too long: a text may have \(MediaLimits.maxCaptionBytes) bytes"))
            #expect(again.body.contains(#"name="text1" value="\#(wide)""#))
            #expect(again.body.contains(#"name="text2" value="b""#))
            // Posted: the meme's page. A | typed in a caption stays in that caption.
            let made = try await browser.post(
                "/make", form: ["source": "sunset", "text1": Self.hostile, "text2": "a | b\nc"])
            #expect(made.status == 303 && made.location == "/m/1")
            let page = try await browser.get("/m/1")
            #expect(page.body.contains("meme #1 by alice"))
            #expect(page.body.contains("&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;"))
            #expect(page.body.contains(#"data-share-url="/m/1""#) && page.body.contains("Copy link"))
            try await alice.send("!meme show 1")
            try await alice.expect(#"from sunset: “<b>bold</b> & "quoted" | a / b c”"#)
            // Past the fields and word the form knows: a seventh text is not read, a long word is no source.
            let six = "/make/preview?source=sunset&text1=a"
            #expect(
                try await browser.get(six + "&text\(MemeMaker.maxFields + 1)=zzz").body
                    == (try await browser.get(six)).body)
            let word = String(repeating: "s", count: MemeMaker.maxWordLength + 1)
            let tooLong = try await browser.post("/make", form: ["source": word, "text1": "x"])
            #expect(tooLong.location == "/make")
            #expect(try await browser.get("/make").body.contains("That form was empty or not understood"))
            // An unknown template: the bot's answer with its suggestion.
            let wrong = try await browser.post("/make", form: ["source": "sunsett", "text1": "x"])
            #expect(wrong.status == 422 && wrong.body.contains("did you mean sunset?"))
        }
    }

    @Test func previewsArePerAccountAndLimited() async throws {
        // The test's clock stands still: the window cannot end while a slow machine sends 121 requests.
        let clock = TestClock("2026-03-02T10:00:00Z")
        try await withServer(configure: { $0.clock = clock.hearth }) { server in
            _ = try await TestClient.user(server, "alice")
            _ = try await TestClient.user(server, "bob")
            let alice = WebBrowser(server)
            try await alice.signIn("alice")
            let path = "/make/preview?source=sunset&text1=again"
            for _ in 0..<WebLimits.previewsPerMinute { #expect(try await alice.get(path).status == 200) }
            let over = try await alice.get(path)
            #expect(over.status == 429 && over.headers["retry-after"] == "60")
            #expect(over.body.contains("at most \(WebLimits.previewsPerMinute) a minute"))
            let bob = WebBrowser(server)
            try await bob.signIn("bob")
            #expect(try await bob.get(path).status == 200)
        }
    }

    @Test func thePreviewCacheKeepsItsBounds() {
        let cache = PictureCache(entries: 2, bytes: 10)
        let picture = { (n: Int) in WebPicture.Drawn(bytes: [UInt8](repeating: 1, count: n), contentType: "image/jpeg")
        }
        cache.put("a", picture(4))
        cache.put("b", picture(4))
        _ = cache.get("a")
        cache.put("c", picture(4))  // one past the entries: b, the least recently used, goes
        #expect(cache.get("a") != nil && cache.get("b") == nil && cache.get("c") != nil)
        cache.put("d", picture(8))  // past the bytes: all but d go
        #expect(cache.get("a") == nil && cache.get("c") == nil && cache.get("d") != nil)
        cache.put("e", picture(11))  // larger than the cache: not kept
        #expect(cache.get("e") == nil)
        let clock = TestClock("2026-03-02T10:00:00Z")
        let limit = WindowLimit(count: 2, window: .seconds(60), clock: clock.hearth)
        #expect(limit.allow(1) && limit.allow(1) && !limit.allow(1) && limit.allow(2))
        clock.set("2026-03-02T10:00:59Z")
        #expect(!limit.allow(1))
        clock.set("2026-03-02T10:01:00Z")  // the window ended
        #expect(limit.allow(1))
    }

    /// A multipart body as a browser sends the maker's upload form.
    static func uploadForm(csrf: String?, file: Data, next: String = "/make") -> (Data, [String: String]) {
        let boundary = "----hearthtest"
        var body = Data()
        func part(_ headers: String, _ content: Data) {
            body.append(Data("--\(boundary)\r\n\(headers)\r\n\r\n".utf8))
            body.append(content)
            body.append(Data("\r\n".utf8))
        }
        if let csrf { part(#"Content-Disposition: form-data; name="csrf""#, Data(csrf.utf8)) }
        part(#"Content-Disposition: form-data; name="next""#, Data(next.utf8))
        part(
            "Content-Disposition: form-data; name=\"file\"; filename=\"cat.png\"\r\nContent-Type: image/png", file)
        body.append(Data("--\(boundary)--\r\n".utf8))
        return (body, ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
    }

    @Test func aMemeFromAnUploadedPicture() async throws {
        try await withServer { server in
            let alice = try await TestClient.user(server, "alice")
            _ = try await TestClient.user(server, "bob")
            let browser = WebBrowser(server)
            try await browser.signIn("alice")
            _ = try await browser.get("/make")
            let token = try #require(browser.cookies["hearth_csrf"])
            let files = MemeTests.mediaFiles(server).count  // the templates' previews
            // Without the token, or signed out: nothing stored.
            let (forged, headers) = Self.uploadForm(csrf: "0123456789abcdef0123456789abcdef", file: Web.samplePNG())
            #expect(try await browser.send("POST", "/pictures", body: forged, headers: headers).status == 403)
            let visitor = WebBrowser(server)
            _ = try await visitor.get("/make")
            let (signedOut, _) = Self.uploadForm(csrf: visitor.cookies["hearth_csrf"], file: Web.samplePNG())
            let asked = try await visitor.send("POST", "/pictures", body: signedOut, headers: headers)
            #expect(asked.status == 303 && asked.location?.hasPrefix("/signin?next=") == true)
            // Not a picture: back to the maker with the reason. Too large: refused before reading it all.
            let (text, _) = Self.uploadForm(csrf: token, file: Data("hello".utf8))
            let notPicture = try await browser.send("POST", "/pictures", body: text, headers: headers)
            #expect(notPicture.status == 303 && notPicture.location == "/make")
            #expect(try await browser.get("/make").body.contains("Not stored:"))
            let (huge, _) = Self.uploadForm(csrf: token, file: Data(count: MediaRoutes.maxBodyBytes + 1))
            #expect(try await browser.send("POST", "/pictures", body: huge, headers: headers).status == 413)
            #expect(MemeTests.mediaFiles(server).count == files)
            // A picture: the maker with it chosen (a hostile next goes home instead).
            let (good, _) = Self.uploadForm(csrf: token, file: Web.samplePNG())
            let stored = try await browser.send("POST", "/pictures", body: good, headers: headers)
            let location = try #require(stored.location)
            #expect(stored.status == 303 && location.hasPrefix("/make?picture="))
            let short = String(location.dropFirst("/make?picture=".count))
            let editor = try await browser.get(location)
            #expect(editor.body.contains("Top text") && editor.body.contains("/make/preview?source=\(short)"))
            #expect(try await browser.get("/make/preview?source=\(short)&text1=mine").status == 200)
            let made = try await browser.post("/make", form: ["picture": short, "text1": "my cat", "text2": ""])
            #expect(made.location == "/m/1")
            try await alice.send("!meme show 1")
            try await alice.expect("from \(short): “my cat”")
            // A stranger cannot use it, by any way in.
            let bob = WebBrowser(server)
            try await bob.signIn("bob")
            #expect(try await bob.get(location).body.contains("you have no picture \(short)"))
            #expect(try await bob.get("/make/preview?source=\(short)&text1=x").status == 400)
            let stolen = try await bob.post("/make", form: ["picture": short, "text1": "x"])
            #expect(stolen.status == 422 && stolen.body.contains("you have no picture \(short)"))
            let (elsewhere, _) = Self.uploadForm(csrf: token, file: Web.samplePNG(), next: "//evil.example/")
            let home = try await browser.send("POST", "/pictures", body: elsewhere, headers: headers)
            #expect(home.location?.hasPrefix("/?picture=") == true)
        }
    }

    @Test func pageUploadsAreLimitedPerAccount() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            try await browser.signIn("alice")
            _ = try await browser.get("/make")
            let (body, headers) = Self.uploadForm(csrf: browser.cookies["hearth_csrf"], file: Web.samplePNG(16, 16))
            for _ in 0..<WebLimits.uploadsPerHour {
                let stored = try await browser.send("POST", "/pictures", body: body, headers: headers)
                #expect(stored.location?.hasPrefix("/make?picture=") == true)
            }
            let over = try await browser.send("POST", "/pictures", body: body, headers: headers)
            #expect(over.status == 303 && over.location == "/make")
            #expect(
                try await browser.get("/make").body.contains("at most \(WebLimits.uploadsPerHour) pictures an hour"))
        }
    }

    @Test func anUploadLinkAnswersABrowserWithAPageAndCurlWithText() async throws {
        try await withServer { server in
            let alice = try await TestClient.user(server, "alice")
            let html = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"
            let (page, answer) = try await Web.fetch(
                try await MemeTests.uploadLink(alice), method: "POST", body: Web.samplePNG(),
                headers: ["Accept": html])
            #expect(answer.statusCode == 201)
            #expect(answer.value(forHTTPHeaderField: "content-type") == "text/html; charset=utf-8")
            let body = String(decoding: page, as: UTF8.self)
            let short = try #require(body.firstMatch(of: /href="\/make\?picture=([0-9a-f]{8})"/)?.1)
            #expect(body.contains("<code>!meme \(short) top text | bottom text</code>"))
            // curl (Accept: */*) and a client preferring text get the text as before.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(UUID()).png")
            try Web.samplePNG().write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let link = try await MemeTests.uploadLink(alice)
            let text = try await LimitCrossingTests.curl(["-s", "-T", file.path, link.absoluteString])
            #expect(text.hasPrefix("Uploaded: picture ") && !text.contains("<"))
            let (plain, plainAnswer) = try await Web.fetch(
                try await MemeTests.uploadLink(alice), method: "PUT", body: Web.samplePNG(),
                headers: ["Accept": "text/plain, text/html;q=0.5"])
            #expect(plainAnswer.value(forHTTPHeaderField: "content-type") == "text/plain; charset=utf-8")
            #expect(String(decoding: plain, as: UTF8.self).hasPrefix("Uploaded: picture "))
        }
    }
}
