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
        // 3:2 pictures: the full row is as tall as a tile-wide picture is (160), not square; the
        // last row's wider tiles are a full tile tall.
        #expect(grid.width == GridLayout.gap + 3 * (GridLayout.tileSide + GridLayout.gap))
        let (gap, side) = (GridLayout.gap, GridLayout.tileSide)
        #expect(grid.height == gap + side * 2 / 3 + gap + side + gap)
        let frames = GridLayout.frames(for: tiles.map { ($0.width, $0.height) }).frames
        for (f, colour) in zip(frames, colours) {
            #expect(Self.close(grid.pixel(f.x + f.w / 2, f.y + f.h / 2), colour))
        }
        // The last row's two tiles share its width: no empty slot where a sixth would go.
        let last = frames[4]
        #expect(last.x + last.w == grid.width - GridLayout.gap)
        #expect(Self.close(grid.pixel(last.x + last.w / 2 + 100, last.y + last.h / 2), colours[4]))
    }

    /// A meme is fitted whole into its tile: its left and right edges (where a caption's
    /// first and last letters are) and its top and bottom rows are all in the grid.
    @Test(arguments: [(800, 600), (600, 800), (900, 300)])
    func gridTilesShowWholePictures(width: Int, height: Int) {
        let tile = GDImage(width: width, height: height)
        tile.fill(GDImage.color(0, 0, 255))
        // Red bands on all four edges, 1/20 of the picture deep.
        let (bx, by) = (width / 20, height / 20)
        tile.rect(0, 0, bx, height, GDImage.color(255, 0, 0))
        tile.rect(width - bx, 0, bx, height, GDImage.color(255, 0, 0))
        tile.rect(0, 0, width, by, GDImage.color(255, 0, 0))
        tile.rect(0, height - by, width, by, GDImage.color(255, 0, 0))
        let grid = GridLayout.draw([tile, tile, tile, tile])
        let f = GridLayout.frames(for: Array(repeating: (width, height), count: 4)).frames[0]
        var red = (left: false, right: false, top: false, bottom: false)
        for y in f.y..<(f.y + f.h) {
            for x in f.x..<(f.x + f.w) where Self.close(grid.pixel(x, y), GDImage.color(255, 0, 0)) {
                if x < f.x + f.w / 2 - 20 && y == f.y + f.h / 2 { red.left = true }
                if x > f.x + f.w / 2 + 20 && y == f.y + f.h / 2 { red.right = true }
                if y < f.y + f.h / 2 - 20 && x == f.x + f.w / 2 { red.top = true }
                if y > f.y + f.h / 2 + 20 && x == f.x + f.w / 2 { red.bottom = true }
            }
        }
        #expect(red.left && red.right && red.top && red.bottom, "\(red)")
        if let dir = ProcessInfo.processInfo.environment["HEARTH_RENDER_DIR"] {
            try? Data(grid.png()).write(to: URL(fileURLWithPath: "\(dir)/grid-\(width)x\(height).png"))
        }
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
