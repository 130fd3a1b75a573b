import CFreeType
import CGD
import Synchronization

/// Colour emoji from a bitmap colour font (Noto Color Emoji's CBDT strikes), read with FreeType
/// and `FT_LOAD_COLOR`: libgd's text drawing keeps only coverage, so it cannot draw them. Each
/// glyph is loaded once at the font's one strike size, kept as premultiplied BGRA, and scaled
/// to the caption's size when drawn. Without a shaper, an emoji sequence (ZWJ families, skin
/// tones, flags) is drawn as its first emoji.
public final class EmojiFont: Sendable {
    public let path: String
    /// The strike's pixels per em: glyph metrics are divided by it to scale to a caption size.
    let ppem: Double
    /// FreeType faces are not thread-safe: every glyph load holds this lock.
    private let face: Mutex<Face>
    private let glyphs = Mutex<[UInt32: Glyph]>([:])
    /// How many decoded glyphs stay in memory (about 70 KB each at Noto's 136×128 strike).
    public static let maxCachedGlyphs = 256

    public static let candidates = ["/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"]

    struct Glyph: Sendable {
        var width: Int, height: Int
        /// Where the bitmap starts from the pen (left) and above the baseline (top), in strike pixels.
        var left: Int, top: Int
        var advance: Double
        /// Premultiplied B, G, R, A rows.
        var pixels: [UInt8]
    }

    final class Face: @unchecked Sendable {
        let library: FT_Library
        let face: FT_Face
        init(library: FT_Library, face: FT_Face) {
            self.library = library
            self.face = face
        }
        deinit {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
        }
    }

    private init(path: String, face: Face, ppem: Double) {
        self.path = path
        self.face = Mutex(face)
        self.ppem = ppem
    }

    private static let opened = Mutex<[String: EmojiFont]>([:])

    /// The font at `path`, opened once per process; nil when FreeType cannot read it or it has
    /// no colour bitmaps.
    public static func open(_ path: String) -> EmojiFont? {
        opened.withLock { fonts in
            if let font = fonts[path] { return font }
            var library: FT_Library?
            guard FT_Init_FreeType(&library) == 0, let library else { return nil }
            var face: FT_Face?
            guard FT_New_Face(library, path, 0, &face) == 0, let face else {
                FT_Done_FreeType(library)
                return nil
            }
            let box = Face(library: library, face: face)
            let rec = face.pointee
            guard rec.num_fixed_sizes > 0, FT_Select_Size(face, 0) == 0 else { return nil }
            let ppem = Double(rec.available_sizes[0].y_ppem) / 64
            guard ppem > 0 else { return nil }
            let font = EmojiFont(path: path, face: box, ppem: ppem)
            fonts[path] = font
            return font
        }
    }

    /// The font a caption run names, if it is an emoji font opened here.
    static func named(_ path: String) -> EmojiFont? { opened.withLock { $0[path] } }

    /// Whether `character` is drawn as an emoji: emoji presentation by default or asked for with
    /// U+FE0F, and a glyph in this font.
    public func draws(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        let properties = first.properties
        let emoji =
            properties.isEmojiPresentation
            || (properties.isEmoji && character.unicodeScalars.contains("\u{FE0F}") && first.value > 0x7F)
        return emoji && glyph(first.value) != nil
    }

    /// The advance of `text` (emoji, and spaces between them) at `size` pixels per em.
    func width(_ text: String, size: Double) -> Double {
        var total = 0.0
        for character in text {
            total += advance(character, size: size)
        }
        return total
    }

    func advance(_ character: Character, size: Double) -> Double {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if scalar.properties.isWhitespace { return size * Self.spaceEm }
        return (glyph(scalar.value)?.advance ?? 0) * size / ppem
    }

    /// A space's width in ems next to emoji (the caption font's is about this).
    static let spaceEm = 0.3

    func glyph(_ scalar: UInt32) -> Glyph? {
        if let cached = glyphs.withLock({ $0[scalar] }) { return cached }
        guard let loaded = face.withLock({ Self.load(scalar, from: $0.face) }) else { return nil }
        glyphs.withLock { cache in
            if cache.count >= Self.maxCachedGlyphs { cache = [:] }
            cache[scalar] = loaded
        }
        return loaded
    }

    private static func load(_ scalar: UInt32, from face: FT_Face) -> Glyph? {
        let index = FT_Get_Char_Index(face, FT_ULong(scalar))
        guard index != 0, FT_Load_Glyph(face, index, Int32(FT_LOAD_COLOR)) == 0, let slot = face.pointee.glyph
        else { return nil }
        let bitmap = slot.pointee.bitmap
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), let buffer = bitmap.buffer else { return nil }
        let (w, h) = (Int(bitmap.width), Int(bitmap.rows))
        let pitch = Int(bitmap.pitch)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let row = buffer + (pitch >= 0 ? y * pitch : (h - 1 - y) * -pitch)
            for i in 0..<(w * 4) { pixels[y * w * 4 + i] = row[i] }
        }
        return Glyph(
            width: w, height: h, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
            advance: Double(slot.pointee.advance.x) / 64, pixels: pixels)
    }

    /// One emoji scaled to `size` and laid at pen `x` on `baseline`: premultiplied BGRA in a
    /// w×h patch whose top-left corner is at (x, y).
    struct Patch {
        var x: Int, y: Int, w: Int, h: Int
        var pixels: [UInt8]
    }

    /// `text`'s emoji as patches from pen `x` (spaces advance the pen), each box-filtered
    /// down (or nearest-sampled up) from the strike.
    func patches(_ text: String, x: Int, baseline: Int, size: Double) -> [Patch] {
        var pen = Double(x)
        var result: [Patch] = []
        let scale = size / ppem
        for character in text {
            defer { pen += advance(character, size: size) }
            guard let scalar = character.unicodeScalars.first, !scalar.properties.isWhitespace,
                let glyph = glyph(scalar.value)
            else { continue }
            let w = max(1, Int((Double(glyph.width) * scale).rounded()))
            let h = max(1, Int((Double(glyph.height) * scale).rounded()))
            result.append(
                Patch(
                    x: Int((pen + Double(glyph.left) * scale).rounded()),
                    y: baseline - Int((Double(glyph.top) * scale).rounded()), w: w, h: h,
                    pixels: Self.resample(glyph, to: w, h)))
        }
        return result
    }

    /// Averages the strike pixels under each output pixel (an area filter, for shrinking).
    static func resample(_ glyph: Glyph, to w: Int, _ h: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: w * h * 4)
        let sx = Double(glyph.width) / Double(w)
        let sy = Double(glyph.height) / Double(h)
        glyph.pixels.withUnsafeBufferPointer { src in
            for oy in 0..<h {
                let y0 = Int(Double(oy) * sy)
                let y1 = max(y0 + 1, min(glyph.height, Int(Double(oy + 1) * sy)))
                for ox in 0..<w {
                    let x0 = Int(Double(ox) * sx)
                    let x1 = max(x0 + 1, min(glyph.width, Int(Double(ox + 1) * sx)))
                    var sum = (0, 0, 0, 0)
                    for y in y0..<y1 {
                        var i = (y * glyph.width + x0) * 4
                        for _ in x0..<x1 {
                            sum.0 += Int(src[i])
                            sum.1 += Int(src[i + 1])
                            sum.2 += Int(src[i + 2])
                            sum.3 += Int(src[i + 3])
                            i += 4
                        }
                    }
                    let n = (y1 - y0) * (x1 - x0)
                    let o = (oy * w + ox) * 4
                    out[o] = UInt8(sum.0 / n)
                    out[o + 1] = UInt8(sum.1 / n)
                    out[o + 2] = UInt8(sum.2 / n)
                    out[o + 3] = UInt8(sum.3 / n)
                }
            }
        }
        return out
    }
}

extension GDImage {
    /// Lays premultiplied BGRA pixels over the picture (source-over), clipped to it.
    func composite(_ patch: EmojiFont.Patch) {
        patch.pixels.withUnsafeBufferPointer { src in
            for py in 0..<patch.h {
                let iy = patch.y + py
                guard iy >= 0 && iy < height else { continue }
                let row = ptr.pointee.tpixels[iy]!
                for px in 0..<patch.w {
                    let ix = patch.x + px
                    let i = (py * patch.w + px) * 4
                    let a = Int(src[i + 3])
                    guard a > 0, ix >= 0 && ix < width else { continue }
                    let p = Int(row[ix])
                    let r = min(255, Int(src[i + 2]) + ((p >> 16) & 0xFF) * (255 - a) / 255)
                    let g = min(255, Int(src[i + 1]) + ((p >> 8) & 0xFF) * (255 - a) / 255)
                    let b = min(255, Int(src[i]) + (p & 0xFF) * (255 - a) / 255)
                    row[ix] = Int32(p & 0x7F00_0000 | r << 16 | g << 8 | b)
                }
            }
        }
    }
}
