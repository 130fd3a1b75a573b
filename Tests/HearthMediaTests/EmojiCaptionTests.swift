import Foundation
import Testing

@testable import HearthMedia

/// Emoji in captions are drawn in colour from the emoji font, on one line with Latin and CJK text.
@Suite struct EmojiCaptionTests {
    static let fonts = FontSet.installed()!

    /// Pixels whose channels differ a lot: neither the grey picture nor white text or its outline.
    static func colouredPixels(_ image: GDImage, in rect: (x: Int, y: Int, w: Int, h: Int)) -> [(Int, Int)] {
        var found: [(Int, Int)] = []
        for y in max(0, rect.y)..<min(image.height, rect.y + rect.h) {
            for x in max(0, rect.x)..<min(image.width, rect.x + rect.w) {
                let p = image.pixel(x, y)
                let channels = [(p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF]
                if channels.max()! - channels.min()! > 80 { found.append((x, y)) }
            }
        }
        return found
    }

    static func grey() -> GDImage {
        let image = GDImage(width: 800, height: 600)
        image.fill(GDImage.color(128, 128, 128))
        return image
    }

    @Test func theEmojiFontIsInstalledAndHasColour() throws {
        let emoji = try #require(Self.fonts.emoji, "fonts-noto-color-emoji is missing: run scripts/setup")
        #expect(emoji.draws("🍪") && emoji.draws("😀") && emoji.draws("❤️"))
        #expect(!emoji.draws("A") && !emoji.draws("日") && !emoji.draws("1") && !emoji.draws("❤"))
    }

    @Test func anEmojiIsDrawnInColourWhereItsGlyphIs() throws {
        let image = Self.grey()
        let renderer = MemeRenderer(fonts: Self.fonts)
        let placement = renderer.caption(image, boxes: [CaptionBox(0.1, 0.1, 0.8, 0.3)], captions: ["🍪"])[0]
        let line = try #require(placement.lines.first)
        let coloured = Self.colouredPixels(image, in: line)
        // A cookie is brown and fills a good part of its square.
        #expect(coloured.count > line.h * line.h / 8, "\(coloured.count) coloured pixels in \(line)")
        #expect(Self.colouredPixels(image, in: (0, 0, image.width, image.height)).count == coloured.count)
        if let dir = ProcessInfo.processInfo.environment["HEARTH_RENDER_DIR"] {
            try Data(image.png()).write(to: URL(fileURLWithPath: "\(dir)/emoji-alone.png"))
        }
    }

    @Test func latinCJKAndEmojiShareOneLine() throws {
        let image = Self.grey()
        let renderer = MemeRenderer(fonts: Self.fonts)
        let placement = renderer.caption(
            image, boxes: [CaptionBox(0.02, 0.02, 0.96, 0.12)], captions: ["cookie 🍪 日本 😀 ok"])[0]
        #expect(placement.lines.count == 1)
        let line = try #require(placement.lines.first)
        #expect(CaptionTests.inside(line, placement.box))
        let coloured = Self.colouredPixels(image, in: line)
        // Two emoji, in the line's middle part (after "COOKIE", before "OK").
        let xs = coloured.map(\.0)
        #expect(coloured.count > 2 * line.h * line.h / 10)
        #expect(xs.min()! > line.x + line.w / 5 && xs.max()! < line.x + line.w * 9 / 10)
        if let dir = ProcessInfo.processInfo.environment["HEARTH_RENDER_DIR"] {
            try Data(image.png()).write(to: URL(fileURLWithPath: "\(dir)/emoji-mixed.png"))
        }
    }

    @Test func withoutTheEmojiFontNothingIsColoured() {
        let image = Self.grey()
        let plain = FontSet(primary: Self.fonts.primary, fallback: Self.fonts.fallback)
        MemeRenderer(fonts: plain).caption(image, boxes: [CaptionBox(0.1, 0.1, 0.8, 0.3)], captions: ["🍪"])
        #expect(Self.colouredPixels(image, in: (0, 0, image.width, image.height)).isEmpty)
    }

    @Test func manyEmojiWrapAndStayInsideTheirBoxes() {
        let image = Self.grey()
        let text = String(repeating: "🍪🎉 party ", count: 12)
        let placements = MemeRenderer(fonts: Self.fonts).caption(
            image, boxes: CaptionBox.classic, captions: [text, "👍"])
        for placement in placements {
            #expect(!placement.lines.isEmpty)
            for line in placement.lines { #expect(CaptionTests.inside(line, placement.box)) }
        }
        #expect(placements[0].lines.count > 1)
    }
}
