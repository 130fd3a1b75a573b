import Foundation
import HearthMedia
import HearthTesting
import Testing

/// Animated GIFs over HTTP: an upload keeps its frames and a meme on it is captioned on each.
@Suite struct MemeGIFTests {
    /// Light and dark pixels (the letters and their outline) in rows `rows` of a solid frame.
    static func captionPixels(_ screen: GDImage, rows: Range<Int>) -> (light: Int, dark: Int) {
        var (light, dark) = (0, 0)
        for y in rows {
            for x in 0..<screen.width {
                let p = Int(screen.pixel(x, y))
                let (r, g, b) = ((p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF)
                if r > 230 && g > 230 && b > 230 { light += 1 }
                if r < 25 && g < 25 && b < 25 { dark += 1 }
            }
        }
        return (light, dark)
    }

    @Test func aMemeOnAnAnimatedGIFHasItsCaptionsOnEveryFrame() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let (reply, uploaded) = try await Web.fetch(
                try await MemeTests.uploadLink(ann), method: "PUT", body: Web.sampleGIF())
            #expect(uploaded.statusCode == 201, "\(String(decoding: reply, as: UTF8.self))")
            let short = String(try await ann.expect("Your picture ").split(separator: " ")[2])
            try await ann.send("!images")
            try await ann.expect("\(short)  200×150 gif")

            try await ann.send("!meme \(short) top text | bottom text")
            let (bytes, response) = try await Web.fetch(try Web.link(in: try await ann.expect("meme #1 by ann: http")))
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/gif")
            let meme = try GIFDecoder([UInt8](bytes))
            #expect((meme.width, meme.height) == (200, 150))
            #expect(meme.frames.count == 8)
            #expect(meme.frames.map(\.delay) == (0..<8).map { $0 + 4 })
            var frames = 0
            AnimatedGIF.forEachScreen(meme) { screen, _, index in
                frames += 1
                let top = Self.captionPixels(screen, rows: 3..<36)
                let bottom = Self.captionPixels(screen, rows: 111..<147)
                #expect(top.light > 50 && top.dark > 50, "frame \(index): \(top)")
                #expect(bottom.light > 50 && bottom.dark > 50, "frame \(index): \(bottom)")
                // The frame's own colour is still there between the captions.
                let (r, g, b) = Web.gifColours[index % Web.gifColours.count]
                let p = Int(screen.pixel(5, 75))
                #expect(abs((p >> 16) & 0xFF - r) < 16 && abs((p >> 8) & 0xFF - g) < 16 && abs(p & 0xFF - b) < 16)
            }
            #expect(frames == 8)
        }
    }

    @Test func animatedGIFsPastTheFrameLimitAreRefusedWithTheReason() async throws {
        try await withServer { server in
            let bo = try await TestClient.user(server, "bo")
            let url = try await MemeTests.uploadLink(bo)
            let limit = MediaLimits.maxGIFFrames
            let (reply, refused) = try await Web.fetch(
                url, method: "PUT", body: Web.sampleGIF(frames: limit + 1, 2, 2))
            #expect(refused.statusCode == 422)
            #expect(String(decoding: reply, as: UTF8.self).contains("more than \(limit) frames"))
            #expect(MemeTests.mediaFiles(server).isEmpty)
            let (_, kept) = try await Web.fetch(url, method: "PUT", body: Web.sampleGIF(frames: limit, 2, 2))
            #expect(kept.statusCode == 201)
        }
    }

    @Test func aGIFWithAFramePlacedOffThePictureIsKeptAndMemedNotFatal() async throws {
        // 16×16 with two 1×1 black frames, the second at x = 100: it used to trap the server.
        let frame = { (x: UInt8) -> [UInt8] in
            [0x21, 0xF9, 4, 0, 5, 0, 0, 0, 0x2C, x, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        }
        let gif =
            Array("GIF89a".utf8) + [16, 0, 16, 0, 0x81, 0, 0] + [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
            + frame(0) + frame(100) + [0x3B]
        try await withServer { server in
            let cy = try await TestClient.user(server, "cy")
            let url = try await MemeTests.uploadLink(cy)
            let (reply, uploaded) = try await Web.fetch(url, method: "PUT", body: Data(gif))
            #expect(uploaded.statusCode == 201, "\(String(decoding: reply, as: UTF8.self))")
            let short = String(try await cy.expect("Your picture ").split(separator: " ")[2])
            try await cy.send("!meme \(short) off | the edge")
            let (bytes, _) = try await Web.fetch(try Web.link(in: try await cy.expect("meme #1 by cy: http")))
            #expect(try GIFDecoder([UInt8](bytes)).frames.count == 2)
        }
    }
}
