import Foundation
import HearthMedia
import HearthTesting
import Testing

@testable import HearthServer

/// memegen's URL API: `/images/TEMPLATE/top/bottom.EXT` with its escapes and options, `/templates`
/// as JSON, pictures kept by content, new drawings limited per address.
@Suite struct MemeURLTests {
    @Test(arguments: [
        ("hello_world", "hello world"), ("hello-world", "hello world"), ("snake__case", "snake_case"),
        ("well--known", "well-known"), ("why~q", "why?"), ("this~aThat", "this&That"), ("100~p", "100%"),
        ("~hhashtag", "#hashtag"), ("and~sor", "and/or"), ("back~bslash", "back\\slash"), ("~lhtml~g", "<html>"),
        ("''quoted''", "\"quoted\""), ("_", ""), ("~x", "~x"),
    ])
    func memegenEscapes(segment: String, text: String) {
        #expect(MemeURL.unescape(segment) == text)
    }

    @Test func escapingAndUnescapingAgree() {
        for text in ["what? 100% & more", "a_b-c \"d\" #e /f \\g <h>"] {
            #expect(MemeURL.unescape(MemeURL.escape(text).removingPercentEncoding!) == text)
        }
    }

    @Test func badURLsAreRefusedWithTheReason() {
        func problem(_ path: String, _ query: [String: String] = [:]) -> String {
            do {
                _ = try MemeURL.parse(path: path, query: query)
                return ""
            } catch { return error.description }
        }
        #expect(problem("sunset/a/b").contains("png, jpg, gif or webp"))
        #expect(problem("sunset/a/b.bmp").contains("\"bmp\" is not a picture type"))
        #expect(problem("sunset/a.png", ["width": "\(MemeURL.maxSide + 1)"]).contains("width is a number of pixels"))
        #expect(problem("sunset/a.png", ["width": "\(MemeURL.maxSide)"]).isEmpty)
        #expect(problem("sunset/a.png", ["font": "comic"]).contains("no font \"comic\""))
        #expect(problem("sunset/a.png", ["color": "plaid"]).contains("color is a name or hex"))
        #expect(problem("sunset/a.png", ["layout": "sideways"]).contains("layout is default or top"))
        let lines = Array(repeating: "x", count: MemeURL.maxLines + 1).joined(separator: "/")
        #expect(problem("sunset/\(lines).png").contains("at most \(MemeURL.maxLines) lines"))
        let long = String(repeating: "a", count: MediaLimits.maxCaptionBytes + 1)
        #expect(problem("sunset/\(long).png").contains("is too long"))
        #expect(problem("sunset/\(long.dropFirst()).png").isEmpty)
    }

    static func get(_ server: TestServer, _ path: String) async throws -> (Data, Web.HTTPResponse) {
        try await Web.fetch(try #require(URL(string: "http://127.0.0.1:\(server.httpPort)\(path)")))
    }

    @Test func memesInEveryFormatAndSize() async throws {
        try await withServer { server in
            let (png, answer) = try await Self.get(server, "/images/sunset/hello_world~q/it__works--fine.png")
            #expect(answer.statusCode == 200 && answer.fields["content-type"] == "image/png")
            let probe = try ImageProbe.inspect([UInt8](png))
            #expect(probe.format == .png && probe.width == 800 && probe.height == 600)
            // The same text written another way is the same picture, kept: the same bytes.
            let (again, _) = try await Self.get(server, "/images/sunset/hello-world~q/it__works--fine.png")
            #expect(again == png)
            for (ext, format) in [("jpg", ImageFormat.jpeg), ("gif", .gif), ("webp", .webp)] {
                let (bytes, answer) = try await Self.get(server, "/images/stonks/bought_more_RAM/stonks.\(ext)")
                #expect(answer.statusCode == 200 && answer.fields["content-type"] == format.mimeType)
                #expect(try ImageProbe.inspect([UInt8](bytes)).format == format)
            }
            let (wide, _) = try await Self.get(server, "/images/sunset/small.jpg?width=400")
            #expect(try ImageProbe.inspect([UInt8](wide)).width == 400)
            let (tall, _) = try await Self.get(server, "/images/sunset/small.jpg?height=300&width=1000")
            let fitted = try ImageProbe.inspect([UInt8](tall))
            #expect(fitted.width == 400 && fitted.height == 300)
            // Blank, one line, fonts, colours and the top layout.
            #expect(try await Self.get(server, "/images/sunset.png").1.statusCode == 200)
            for query in ["font=serif", "font=impact", "color=yellow,navy", "color=%23ff0000", "layout=top"] {
                let (_, answer) = try await Self.get(server, "/images/sunset/one/two/three.png?\(query)")
                #expect(answer.statusCode == (query == "layout=top" ? 200 : 400), "\(query)")
                #expect(try await Self.get(server, "/images/sunset/one/two.png?\(query)").1.statusCode == 200)
            }
            // Bad requests say why.
            let (unknown, missing) = try await Self.get(server, "/images/no-such-meme/a.png")
            #expect(missing.statusCode == 404 && String(decoding: unknown, as: UTF8.self).contains("/templates"))
            let (tooMany, refused) = try await Self.get(server, "/images/sunset/a/b/c.png")
            #expect(refused.statusCode == 400 && String(decoding: tooMany, as: UTF8.self).contains("2 text boxes"))
            #expect(try await Self.get(server, "/images/sunset/a.png?width=0").1.statusCode == 400)
        }
    }

    @Test func templatesAsJSONWithWorkingExampleURLs() async throws {
        try await withServer { server in
            let (data, answer) = try await Self.get(server, "/templates")
            #expect(answer.statusCode == 200 && answer.fields["content-type"] == "application/json")
            let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            #expect(list.count >= BuiltinTemplate.all.count)
            let sunset = try #require(list.first { $0["id"] as? String == "sunset" })
            #expect(sunset["lines"] as? Int == 2)
            let example = try #require(sunset["example"] as? [String: Any])
            #expect(example["text"] as? [String] == ["when the build is green", "on the first try"])
            let url = try #require((example["url"] as? String).flatMap(URL.init(string:)))
            #expect(url.path == "/images/sunset/when_the_build_is_green/on_the_first_try.png")
            #expect(try await Web.fetch(url).1.statusCode == 200)
            let blank = try #require((sunset["blank"] as? String).flatMap(URL.init(string:)))
            #expect(try await Web.fetch(blank).1.statusCode == 200)
            let (one, _) = try await Self.get(server, "/templates/nope-yep")
            let object = try #require(try JSONSerialization.jsonObject(with: one) as? [String: Any])
            #expect(object["id"] as? String == "nope-yep" && object["lines"] as? Int == 2)
            #expect(try await Self.get(server, "/templates/no-such").1.statusCode == 404)
        }
    }

    @Test func newDrawingsAreLimitedPerAddress() async throws {
        let clock = TestClock()
        try await withServer { config in
            config.floodControl = true  // loopback is exempt only when flood control is off
            // The server's clock stands still: the minute cannot end while a loaded machine draws 30.
            config.clock = clock.hearth
        } run: { server in
            for i in 0..<MemeURLRoutes.rendersPerMinute {
                #expect(try await Self.get(server, "/images/success/meme_\(i).jpg").1.statusCode == 200)
            }
            let (body, refused) = try await Self.get(server, "/images/success/one_too_many.jpg")
            #expect(refused.statusCode == 429 && refused.fields["retry-after"] != nil)
            #expect(
                String(decoding: body, as: UTF8.self).contains("at most \(MemeURLRoutes.rendersPerMinute) a minute"))
            // A picture drawn already costs no drawing, so it is still served.
            #expect(try await Self.get(server, "/images/success/meme_0.jpg").1.statusCode == 200)
            // A minute after the first drawings, new ones are drawn again.
            clock.advance(60)
            #expect(try await Self.get(server, "/images/success/one_too_many.jpg").1.statusCode == 200)
        }
    }
}
