import Testing

@testable import HearthMedia

/// Animated GIFs: every frame read back with its delay and disposal, drawn again, and the limits.
@Suite struct AnimatedGIFTests {
    static let colours = [(200, 30, 30), (30, 160, 60), (40, 60, 200), (230, 200, 40)]

    /// Solid frames, one colour each, with a white square in the second.
    static func sample(frames: Int = 4, width: Int = 120, height: Int = 90) -> [UInt8] {
        let pictures = (0..<frames).map { i in
            let picture = GDImage(width: width, height: height)
            let (r, g, b) = colours[i % colours.count]
            picture.fill(GDImage.color(r, g, b))
            if i == 1 { picture.rect(10, 10, 20, 20, GDImage.color(255, 255, 255)) }
            return picture
        }
        return AnimatedGIF.encode(pictures, delays: (0..<frames).map { 5 + $0 }, disposal: 2, loops: 0)
    }

    static func near(_ pixel: Int32, _ colour: (Int, Int, Int)) -> Bool {
        let p = Int(pixel)
        return abs((p >> 16) & 0xFF - colour.0) < 12 && abs((p >> 8) & 0xFF - colour.1) < 12
            && abs(p & 0xFF - colour.2) < 12
    }

    @Test func framesDelaysDisposalAndLoopsAreReadBack() throws {
        let bytes = Self.sample()
        #expect(GIFDecoder.isAnimated(bytes))
        let gif = try GIFDecoder(bytes)
        #expect((gif.width, gif.height) == (120, 90))
        #expect(gif.loops == 0)
        #expect(gif.frames.map(\.delay) == [5, 6, 7, 8])
        #expect(gif.frames.allSatisfy { $0.disposal == 2 })
        var seen: [Int32] = []
        AnimatedGIF.forEachScreen(gif) { screen, _, index in
            #expect(Self.near(screen.pixel(60, 60), Self.colours[index]))
            seen.append(screen.pixel(15, 15))
        }
        #expect(seen.count == 4)
        #expect(Self.near(seen[1], (255, 255, 255)))
        #expect(Self.near(seen[2], Self.colours[2]))
    }

    @Test func aStillGIFIsNotAnimated() {
        let still = GDImage(width: 8, height: 8)
        still.fill(GDImage.color(1, 2, 3))
        #expect(!GIFDecoder.isAnimated(still.gif()))
    }

    @Test func redrawingKeepsEveryFrameAndItsTiming() throws {
        let out = AnimatedGIF.redraw(try GIFDecoder(Self.sample()), maxSide: 60) { picture, _ in
            picture.rect(0, 0, 10, 10, GDImage.color(0, 0, 0))
        }
        let again = try GIFDecoder(out)
        #expect((again.width, again.height) == (60, 45))
        #expect(again.frames.count == 4)
        #expect(again.frames.map(\.delay) == [5, 6, 7, 8])
        AnimatedGIF.forEachScreen(again) { screen, _, index in
            #expect(Self.near(screen.pixel(5, 5), (0, 0, 0)))
            #expect(Self.near(screen.pixel(40, 30), Self.colours[index]))
        }
    }

    @Test func interlacedRowsArePutInOrder() {
        // Rows 0..7 stored as passes: 0, 4, 2, 6, 1, 3, 5, 7.
        let stored: [UInt8] = [0, 4, 2, 6, 1, 3, 5, 7]
        #expect(GIFDecoder.deinterlaced(stored, width: 1, height: 8) == [0, 1, 2, 3, 4, 5, 6, 7])
    }

    @Test func damagedDataIsRefused() {
        let bytes = Self.sample()
        #expect(throws: GIFDecoder.Problem.damaged) { try GIFDecoder(Array(bytes.prefix(bytes.count / 2))) }
        #expect(throws: GIFDecoder.Problem.damaged) { try GIFDecoder(Array("GIF89a".utf8)) }
    }

    @Test func framesPastTheLimitAreRefused() throws {
        let limit = MediaLimits.maxGIFFrames
        #expect(try GIFDecoder(Self.sample(frames: limit, width: 2, height: 2)).frames.count == limit)
        #expect(throws: GIFDecoder.Problem.tooManyFrames(limit: limit)) {
            try GIFDecoder(Self.sample(frames: limit + 1, width: 2, height: 2))
        }
    }

    @Test func pixelsOverAllFramesPastTheLimitAreRefused() throws {
        // 2500×2000 is 5 million pixels: five frames reach the limit, a sixth crosses it.
        #expect(MediaLimits.maxAnimationPixels == 5 * 2500 * 2000)
        #expect(try GIFDecoder(Self.sample(frames: 5, width: 2500, height: 2000)).frames.count == 5)
        #expect(throws: GIFDecoder.Problem.tooManyPixels(frames: 6, width: 2500, height: 2000)) {
            try GIFDecoder(Self.sample(frames: 6, width: 2500, height: 2000))
        }
    }
}
