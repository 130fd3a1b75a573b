import Foundation
import Testing

@testable import HearthMedia

/// Captions fit their boxes: wrapped and shrunk, never clipped or overflowing.
@Suite struct CaptionTests {
    static let renderer = MemeRenderer(fonts: FontSet.installed()!)

    static func inside(_ line: (x: Int, y: Int, w: Int, h: Int), _ box: (x: Int, y: Int, w: Int, h: Int)) -> Bool {
        line.x >= box.x && line.y >= box.y && line.x + line.w <= box.x + box.w && line.y + line.h <= box.y + box.h
    }

    @Test(arguments: [
        "ok",
        "when you finally understand the bug and it was a missing semicolon all along",
        String(repeating: "supercalifragilisticexpialidocious", count: 5),
        "日本語のキャプションがとても長い場合でも箱の中に収まります",
        "Ünïcödé àccents — ça marche très bien",
    ])
    func longCaptionsEndInsideTheirBoxes(caption: String) throws {
        for template in BuiltinTemplate.all {
            let image = template.picture()
            let placements = Self.renderer.caption(
                image, boxes: template.boxes, captions: Array(repeating: caption, count: template.boxes.count))
            #expect(image.width == template.width && image.height == template.height)
            for placement in placements {
                #expect(!placement.lines.isEmpty)
                for line in placement.lines {
                    #expect(
                        Self.inside(line, placement.box), "\(template.name): line \(line) leaves box \(placement.box)")
                }
            }
        }
    }

    @Test func shortTextIsBigAndLongTextShrinks() {
        let image = BuiltinTemplate.named("sunset")!.picture()
        let short = Self.renderer.caption(image.clone(), boxes: CaptionBox.classic, captions: ["hi"])[0]
        let long = Self.renderer.caption(
            image.clone(), boxes: CaptionBox.classic, captions: [String(repeating: "many words here ", count: 10)])[0]
        #expect(short.size > long.size)
        #expect(long.lines.count > 1)
        // textsize large draws bigger than normal.
        let large = Self.renderer.caption(image.clone(), boxes: CaptionBox.classic, captions: ["hi"], textScale: 1.25)[
            0]
        #expect(large.size > short.size)
    }

    @Test func captionsAreDrawnWhiteWithABlackOutline() {
        let image = GDImage(width: 400, height: 300)
        image.fill(GDImage.color(0, 128, 255))
        let placement = Self.renderer.caption(image, boxes: [CaptionBox(0, 0, 1, 1)], captions: ["IIIII"])[0]
        var white = 0
        var black = 0
        let line = placement.lines[0]
        for y in line.y..<(line.y + line.h) {
            for x in line.x..<(line.x + line.w) {
                let p = image.pixel(x, y) & 0xFFFFFF
                if p == 0xFFFFFF { white += 1 }
                if p == 0 { black += 1 }
            }
        }
        #expect(white > 100 && black > 100)
    }

    /// Same colour give or take scaling's rounding.
    static func close(_ a: Int32, _ b: Int32) -> Bool {
        [16, 8, 0].allSatisfy { abs(Int((a >> $0) & 0xFF) - Int((b >> $0) & 0xFF)) <= 4 }
    }

    @Test func gridHasOneTilePerPicture() {
        let colours: [Int32] = [
            GDImage.color(255, 0, 0), GDImage.color(0, 255, 0), GDImage.color(0, 0, 255), GDImage.color(255, 255, 0),
            GDImage.color(255, 0, 255),
        ]
        let tiles = colours.map { c -> GDImage in
            let t = GDImage(width: 300, height: 200)
            t.fill(c)
            return t
        }
        let grid = GridLayout.draw(tiles)
        #expect(GridLayout.columns(for: 5) == 3)
        #expect(grid.width == GridLayout.gap + 3 * (GridLayout.tileSide + GridLayout.gap))
        #expect(grid.height == GridLayout.gap + 2 * (GridLayout.tileSide + GridLayout.gap))
        for (index, colour) in colours.enumerated() {
            let (x, y) = GridLayout.origin(of: index, count: colours.count)
            #expect(Self.close(grid.pixel(x + GridLayout.tileSide / 2, y + GridLayout.tileSide / 2), colour))
        }
        // The sixth slot is empty background.
        let (x, y) = GridLayout.origin(of: 5, count: colours.count)
        #expect(grid.pixel(x + 10, y + 10) & 0xFFFFFF == GDImage.color(24, 24, 28))
    }
}

@Suite struct DilationTests {
    /// The fast dilation equals the obvious one: the maximum over a disc.
    @Test(arguments: [1, 2, 4, 7])
    func matchesTheDefinition(radius: Int) {
        let w = 23
        let h = 17
        var source = [UInt8](repeating: 0, count: w * h)
        for i in source.indices where (i * 7919) % 13 == 0 { source[i] = UInt8((i * 31) % 256) }
        let fast = MemeRenderer.dilate(source, width: w, height: h, radius: radius)
        for y in 0..<h {
            for x in 0..<w {
                var m: UInt8 = 0
                for dy in -radius...radius {
                    let span = Int(Double(radius * radius - dy * dy).squareRoot())
                    for dx in -span...span {
                        let sx = x + dx
                        let sy = y + dy
                        if sx >= 0 && sx < w && sy >= 0 && sy < h { m = max(m, source[sy * w + sx]) }
                    }
                }
                #expect(fast[y * w + x] == m)
            }
        }
    }
}
