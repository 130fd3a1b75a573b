import Foundation
import HearthMedia
import HearthTesting
import Testing

/// Texts placed and styled one by one on your own picture, over TCP: `--box`, `--color`, …
@Suite struct MemeBoxTests {
    static func upload(_ client: TestClient) async throws -> String {
        let (_, response) = try await Web.fetch(
            try await MemeTests.uploadLink(client), method: "PUT", body: Web.samplePNG(320, 240))
        #expect(response.statusCode == 201)
        return String(try await client.expect("Your picture ").split(separator: " ")[2])
    }

    /// Pixels close to `colour` in the rectangle.
    static func count(_ picture: GDImage, _ colour: (Int, Int, Int), x: Range<Int>, y: Range<Int>) -> Int {
        var n = 0
        for py in y {
            for px in x {
                let p = Int(picture.pixel(px, py))
                if abs((p >> 16) & 0xFF - colour.0) < 40 && abs((p >> 8) & 0xFF - colour.1) < 40
                    && abs(p & 0xFF - colour.2) < 40
                {
                    n += 1
                }
            }
        }
        return n
    }

    @Test func aTextPlacedColouredAndAlignedWhereTheBoxSays() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let short = try await Self.upload(ann)
            // A red text with no outline in the top-left quarter, the bottom text as usual.
            try await ann.send(
                "!meme \(short) \"hello there\" --box 2,2,46,30 --color red --outline none --align left \"bottom\"")
            let line = try await ann.expect("meme #1 by ann: http")
            let (jpeg, _) = try await Web.fetch(try Web.link(in: line))
            let picture = try #require(GDImage.decode([UInt8](jpeg), format: .jpeg))
            let red = (255, 0, 0)
            #expect(Self.count(picture, red, x: 6..<154, y: 4..<76) > 100)
            // Nothing red anywhere else: not on the right, not lower down.
            #expect(Self.count(picture, red, x: 160..<320, y: 0..<240) == 0)
            #expect(Self.count(picture, red, x: 0..<320, y: 80..<240) == 0)
            // Aligned left: the text starts near the box's left edge.
            #expect(Self.count(picture, red, x: 6..<30, y: 4..<76) > 0)
            // The bottom text keeps the picture's own box and look (white with a black outline).
            #expect(Self.count(picture, (255, 255, 255), x: 0..<320, y: 180..<236) > 100)

            // The same words and boxes again are the same picture (the render is cached by its look).
            try await ann.send(
                "!meme \(short) \"hello there\" --box 2,2,46,30 --color red --outline none --align left \"bottom\"")
            #expect(try Web.link(in: try await ann.expect("meme #2 by ann: http")) == (try Web.link(in: line)))
            // A third text needs a box of its own, then it is drawn.
            try await ann.send("!meme \(short) \"one\" \"two\" \"three\" --box 30,40,40,20 --font serif --color yellow")
            let third = try await ann.expect("meme #3 by ann: http")
            let (yellow, _) = try await Web.fetch(try Web.link(in: third))
            let drawn = try #require(GDImage.decode([UInt8](yellow), format: .jpeg))
            #expect(Self.count(drawn, (255, 255, 0), x: 96..<224, y: 96..<144) > 50)
        }
    }

    @Test(arguments: [
        ("\"a\" --box 0,0,101,10", "goes off the picture"),
        ("\"a\" --box 60,0,41,10", "goes off the picture"),
        ("\"a\" --box 1,2,3", "x,y,w,h in percent"),
        ("\"a\" --box 0,0,4,50", "at least 5% wide"),
        ("\"a\" --colour red", "there is no option --colour"),
        ("\"a\" --font comic", "there is no font \"comic\""),
        ("\"a\" --color blurple", "not a colour"),
        ("\"a\" --align middle", "--align is left, center or right"),
        ("\"a\" --box", "--box needs a value"),
        ("--color red \"a\"", "put --color after the text"),
        ("\"a\" \"b\" \"c\"", "place the others with --box"),
        ("\"1\" \"2\" \"3\" \"4\" \"5\" \"6\" \"7\"", "6 texts at most"),
    ])
    func badOptionsExplainThemselvesAndMakeNothing(options: String, message: String) async throws {
        try await withServer { server in
            let bo = try await TestClient.user(server, "bo")
            let short = try await Self.upload(bo)
            try await bo.send("!meme \(short) \(options)")
            try await bo.expect(message)
            try await bo.send("!memes")
            try await bo.expect("bo has no memes yet")
        }
    }

    @Test func sixTextsPlacedByBoxesAreTheLimit() async throws {
        try await withServer { server in
            let cy = try await TestClient.user(server, "cy")
            let short = try await Self.upload(cy)
            let texts = (0..<6).map { "\"t\($0)\" --box 0,\($0 * 15),50,15" }.joined(separator: " ")
            try await cy.send("!meme \(short) \(texts)")
            try await cy.expect("meme #1 by cy: http")
        }
    }
}

/// The maker's "Place and style" fields: the same options as chat, in the preview and the post.
@Suite struct MemeMakerBoxTests {
    @Test func placedTextsFromTheMakerForm() async throws {
        try await withServer { server in
            let dee = try await TestClient.user(server, "dee")
            let short = try await MemeBoxTests.upload(dee)
            let browser = WebBrowser(server)
            try await browser.signIn("dee")
            let editor = try await browser.get("/make?picture=\(short)")
            #expect(editor.body.contains("name=\"x1\"") && editor.body.contains("name=\"align2\""))
            let fields = ["x1": "2", "y1": "2", "w1": "46", "h1": "30", "color1": "red", "outline1": "none"]
            var query = "source=\(short)&text1=hello"
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) { query += "&\(name)=\(value)" }
            #expect(try await browser.get("/make/preview?\(query)").status == 200)
            #expect(
                try await browser.get("/make/preview?" + query.replacingOccurrences(of: "w1=46", with: "w1=99")).status
                    == 400)
            let made = try await browser.post(
                "/make", form: ["picture": short, "text1": "hello"].merging(fields) { a, _ in a })
            #expect(made.location == "/m/1")
            try await dee.send("!meme show 1")
            let link = try Web.link(in: try await dee.expect("http"))
            let (jpeg, _) = try await Web.fetch(link)
            let picture = try #require(GDImage.decode([UInt8](jpeg), format: .jpeg))
            #expect(MemeBoxTests.count(picture, (255, 0, 0), x: 6..<154, y: 4..<76) > 50)
            #expect(MemeBoxTests.count(picture, (255, 0, 0), x: 160..<320, y: 0..<240) == 0)
        }
    }
}
