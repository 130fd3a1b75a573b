import Testing

@testable import HearthMedia

/// GIFs whose numbers point outside what they describe: frames off the screen are clipped as
/// viewers draw them, everything else is refused as damaged, and nothing traps.
@Suite struct GIFDamageTests {
    /// One frame of a hand-made GIF: its place, size, colour-table size and LZW data.
    struct Part {
        var x = 0, y = 0, width = 1, height = 1
        var colours = 4
        /// 2: the frame's area is cleared before the next frame.
        var disposal = 0
        var minCodeSize = 2
        var data: [UInt8]
    }

    /// Codes of `size` bits packed low bit first, as GIF stores them.
    static func packed(_ codes: [Int], size: Int) -> [UInt8] {
        var out: [UInt8] = []
        var bits = 0
        var count = 0
        for code in codes {
            bits |= code << count
            count += size
            while count >= 8 {
                out.append(UInt8(bits & 0xFF))
                bits >>= 8
                count -= 8
            }
        }
        if count > 0 { out.append(UInt8(bits & 0xFF)) }
        return out
    }

    /// `pixels` as LZW with a clear code before every two, so the code size never grows.
    static func lzw(_ pixels: [Int], minCodeSize: Int = 2) -> [UInt8] {
        let clear = 1 << minCodeSize
        var codes: [Int] = []
        for (i, pixel) in pixels.enumerated() {
            if i % 2 == 0 { codes.append(clear) }
            codes.append(pixel)
        }
        return packed(codes + [clear + 1], size: minCodeSize + 1)
    }

    /// A GIF89a with a 4-colour global table (black, red, green, blue) and `parts` as frames.
    static func gif(width: Int = 16, height: Int = 16, _ parts: [Part]) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        var out = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x81, 0, 0]
        out += [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
        for part in parts {
            out += [0x21, 0xF9, 4, UInt8(part.disposal << 2), 5, 0, 0, 0]  // 5/100 s
            out += [0x2C] + le16(part.x) + le16(part.y) + le16(part.width) + le16(part.height)
            if part.colours == 4 {
                out += [0]
            } else {
                // A local table of `colours` (a power of two) greys.
                let bits = part.colours.trailingZeroBitCount - 1
                out += [0x80 | UInt8(bits)]
                for i in 0..<part.colours { out += Array(repeating: UInt8(i), count: 3) }
            }
            out += [UInt8(part.minCodeSize)]
            for start in stride(from: 0, to: part.data.count, by: 255) {
                let block = part.data[start..<min(start + 255, part.data.count)]
                out += [UInt8(block.count)] + block
            }
            out += [0]
        }
        return out + [0x3B]
    }

    static let red = GDImage.color(255, 0, 0)
    static let green = GDImage.color(0, 255, 0)

    /// A red 16×16 frame, then `second`, then (when `second` is cleared after) a green pixel.
    static func redThen(_ second: Part) -> [UInt8] {
        let red = Part(width: 16, height: 16, data: lzw(Array(repeating: 1, count: 256)))
        return gif([red, second] + (second.disposal == 2 ? [Part(data: lzw([2]))] : []))
    }

    static func screens(_ bytes: [UInt8]) throws -> [GDImage] {
        var screens: [GDImage] = []
        AnimatedGIF.forEachScreen(try GIFDecoder(bytes)) { screen, _, _ in screens.append(screen.clone()) }
        return screens
    }

    @Test func aFrameWhollyOffTheScreenDrawsNothing() throws {
        let bytes = Self.redThen(Part(x: 100, width: 1, data: Self.lzw([2])))
        let screens = try Self.screens(bytes)
        #expect(screens.count == 2)
        #expect(screens[1].pixel(15, 0) == Self.red)
        // Both ways the server draws an upload or a meme on it.
        #expect(!AnimatedGIF.redraw(try GIFDecoder(bytes), maxSide: 64) { _, _ in }.isEmpty)
        for (x, y) in [(16, 0), (0, 16), (65535, 0), (0, 65535), (65535, 65535)] {
            let part = Part(x: x, y: y, disposal: 2, data: Self.lzw([2]))
            #expect(try Self.screens(Self.redThen(part)).count == 3)
        }
    }

    @Test func aFramePartlyOffTheScreenIsClippedToIt() throws {
        // 8×2 green at (12, 15): columns 12…15 of row 15 are green, the rest is clipped away.
        let part = Part(x: 12, y: 15, width: 8, height: 2, data: Self.lzw(Array(repeating: 2, count: 16)))
        let screen = try Self.screens(Self.redThen(part))[1]
        #expect((12...15).allSatisfy { screen.pixel($0, 15) == Self.green })
        #expect(screen.pixel(11, 15) == Self.red)
        #expect(screen.pixel(15, 14) == Self.red)
    }

    @Test func paintIsSafeWhereverAFrameIsPlaced() {
        let screen = GDImage(width: 4, height: 4)
        screen.fill(Self.red)
        let places = [-5, -1, 3, 4, 65535, Int.max - 1, Int.max, Int.min]
        for x in places {
            for y in places {
                let frame = GIFDecoder.Frame(
                    x: x, y: y, width: 2, height: 2, delay: 0, disposal: 2, transparent: nil,
                    palette: [0xFF0000, 0x00FF00], indices: [1, 1, 1, 1])
                AnimatedGIF.paint(frame, on: screen)
            }
        }
        #expect(screen.pixel(0, 0) == Self.green)  // (-1, -1) reaches it
        #expect(screen.pixel(3, 3) == Self.green)  // (3, 3) reaches it
        // A frame whose indices are fewer than its size says draws nothing.
        let short = GIFDecoder.Frame(
            x: 0, y: 0, width: 3, height: 3, delay: 0, disposal: 0, transparent: nil,
            palette: [0, 0x0000FF], indices: [1])
        AnimatedGIF.paint(short, on: screen)
        #expect(screen.pixel(0, 0) == Self.green)
    }

    @Test func lzwCodeSizesOutsideOneToElevenAreDamaged() throws {
        for size in [0, 12, 13, 255] {
            #expect(throws: GIFDecoder.Problem.damaged) {
                try GIFDecoder(Self.gif([Part(minCodeSize: size, data: [0x44, 0x01])]))
            }
        }
        #expect(try GIFDecoder(Self.gif([Part(minCodeSize: 2, data: Self.lzw([3]))])).frames.count == 1)
    }

    @Test func aCodeBeyondTheTableIsDamaged() {
        // After clear (4) the table holds only the roots: 7 is not defined yet.
        #expect(throws: GIFDecoder.Problem.damaged) {
            try GIFDecoder(Self.gif([Part(width: 2, data: Self.packed([4, 1, 7, 5], size: 3))]))
        }
        // A first code that is not a root.
        #expect(throws: GIFDecoder.Problem.damaged) {
            try GIFDecoder(Self.gif([Part(data: Self.packed([4, 6, 5], size: 3))]))
        }
    }

    @Test func aColourIndexBeyondTheTableIsDamaged() throws {
        // A 2-colour table with code size 2 allows codes 0…3: 2 and 3 have no colour.
        #expect(throws: GIFDecoder.Problem.damaged) {
            try GIFDecoder(Self.gif([Part(width: 2, colours: 2, data: Self.lzw([1, 2]))]))
        }
        // Code size 9: literal codes up to 511, but a pixel is one byte.
        #expect(throws: GIFDecoder.Problem.damaged) {
            try GIFDecoder(Self.gif([Part(minCodeSize: 9, data: Self.lzw([300], minCodeSize: 9))]))
        }
        #expect(try GIFDecoder(Self.gif([Part(width: 2, colours: 2, data: Self.lzw([1, 0]))])).frames.count == 1)
    }

    @Test func aTruncatedFileIsDamagedAtEveryLength() {
        let bytes = Self.redThen(Part(x: 3, y: 4, width: 2, height: 2, data: Self.lzw([2, 3, 1, 0])))
        for length in 0..<bytes.count {
            #expect(throws: GIFDecoder.Problem.damaged) { try GIFDecoder(Array(bytes.prefix(length))) }
        }
    }

    @Test func aScreenWithoutPixelsOrAFileWithoutFramesIsDamaged() {
        #expect(throws: GIFDecoder.Problem.damaged) { try GIFDecoder(Self.gif(width: 0, height: 0, [])) }
        #expect(throws: GIFDecoder.Problem.damaged) {
            try GIFDecoder(Self.gif(width: 0, height: 5, [Part(width: 0, data: Self.lzw([]))]))
        }
        #expect(throws: GIFDecoder.Problem.damaged) { try GIFDecoder(Self.gif([])) }
    }

    @Test func noSingleByteChangeTraps() throws {
        let bytes = Self.redThen(Part(x: 3, y: 4, width: 2, height: 2, data: Self.lzw([2, 3, 1, 0])))
        for position in bytes.indices {
            for value: UInt8 in [0, 1, 0x0C, 0x7F, 0x80, 0xFF] {
                var changed = bytes
                changed[position] = value
                guard let gif = try? GIFDecoder(changed) else { continue }
                AnimatedGIF.forEachScreen(gif) { _, _, _ in }
            }
        }
    }
}
