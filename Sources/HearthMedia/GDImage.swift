import CGD
import Foundation

/// A true-colour libgd image that frees itself. Not thread-safe: one thread uses it at a time.
public final class GDImage: @unchecked Sendable {
    let ptr: gdImagePtr

    init(_ ptr: gdImagePtr) { self.ptr = ptr }

    public init(width: Int, height: Int) {
        ptr = gdImageCreateTrueColor(Int32(width), Int32(height))
    }

    deinit { gdImageDestroy(ptr) }

    public var width: Int { Int(ptr.pointee.sx) }
    public var height: Int { Int(ptr.pointee.sy) }

    /// Call once before gd is used from several threads (FreeType's font cache).
    public static let setUp: Void = {
        gdFontCacheSetup()
    }()

    /// Decodes a probed image (GIF: its first frame) as true colour.
    public static func decode(_ bytes: [UInt8], format: ImageFormat) -> GDImage? {
        var copy = bytes
        let size = Int32(copy.count)
        let image: gdImagePtr? = copy.withUnsafeMutableBytes { raw in
            let data = raw.baseAddress
            switch format {
            case .png: return gdImageCreateFromPngPtr(size, data)
            case .jpeg: return gdImageCreateFromJpegPtrEx(size, data, 1)
            case .gif: return gdImageCreateFromGifPtr(size, data)
            case .webp: return gdImageCreateFromWebpPtr(size, data)
            }
        }
        guard let image else { return nil }
        if image.pointee.trueColor == 0 { gdImagePaletteToTrueColor(image) }
        return GDImage(image)
    }

    /// A copy, row by row (gdImageClone in libgd 2.3.3 crashes on images drawn with polygons).
    public func clone() -> GDImage {
        let copy = GDImage(width: width, height: height)
        let rowBytes = width * MemoryLayout<Int32>.stride
        for y in 0..<height {
            memcpy(copy.ptr.pointee.tpixels[y]!, ptr.pointee.tpixels[y]!, rowBytes)
        }
        copy.ptr.pointee.saveAlphaFlag = ptr.pointee.saveAlphaFlag
        return copy
    }

    /// The largest square of the picture: along its long side, `focus` 0 keeps the start (left
    /// or top), 0.5 the centre, 1 the end. (A profile picture is shown as a circle.)
    public func squared(focus: Double = 0.5) -> GDImage {
        let side = min(width, height)
        guard width != height else { return self }
        let slack = Double(max(width, height) - side) * min(1, max(0, focus.isFinite ? focus : 0.5))
        let (x, y) = width > height ? (Int(slack.rounded()), 0) : (0, Int(slack.rounded()))
        let square = GDImage(width: side, height: side)
        square.ptr.pointee.saveAlphaFlag = ptr.pointee.saveAlphaFlag
        gdImageAlphaBlending(square.ptr, 0)
        gdImageCopy(square.ptr, ptr, 0, 0, Int32(x), Int32(y), Int32(side), Int32(side))
        return square
    }

    /// A copy scaled to fit `maxSide` on its long side (or itself when it already fits).
    public func fitted(maxSide: Int) -> GDImage {
        let longest = max(width, height)
        guard longest > maxSide else { return self }
        let scale = Double(maxSide) / Double(longest)
        return scaled(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded())))
    }

    public func scaled(width: Int, height: Int) -> GDImage {
        // Bilinear is several times faster than gdImageCopyResampled and looks the same here.
        gdImageSetInterpolationMethod(ptr, GD_BILINEAR_FIXED)
        return GDImage(gdImageScale(ptr, UInt32(width), UInt32(height)))
    }

    public func jpeg(quality: Int = 85) -> [UInt8] {
        var size: Int32 = 0
        guard let data = gdImageJpegPtr(ptr, &size, Int32(quality)) else { return [] }
        defer { gdFree(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// PNG at a low compression level: line art stays small, encoding stays fast.
    public func png(level: Int = 3) -> [UInt8] {
        gdImageSaveAlpha(ptr, 1)
        var size: Int32 = 0
        guard let data = gdImagePngPtrEx(ptr, &size, Int32(level)) else { return [] }
        defer { gdFree(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// GIF and WebP, for tests and fixtures (Hearth stores JPEG and PNG).
    public func gif() -> [UInt8] {
        var size: Int32 = 0
        guard let data = gdImageGifPtr(ptr, &size) else { return [] }
        defer { gdFree(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    public func webp() -> [UInt8] {
        var size: Int32 = 0
        guard let data = gdImageWebpPtr(ptr, &size) else { return [] }
        defer { gdFree(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// The picture in `format` (JPEG at quality 85); empty when libgd cannot write it.
    public func encoded(_ format: ImageFormat) -> [UInt8] {
        switch format {
        case .jpeg: return jpeg(quality: 85)
        case .png: return png(level: 3)
        case .gif: return gif()
        case .webp: return webp()
        }
    }

    /// Whether this libgd writes WebP (Debian's does: libgd3 is built with libwebp).
    public static let writesWebP: Bool = {
        let probe = GDImage(width: 2, height: 2)
        return !probe.webp().isEmpty
    }()

    /// Whether any pixel is not fully opaque.
    public var hasTransparency: Bool {
        for y in 0..<height {
            let row = ptr.pointee.tpixels[y]!
            for x in 0..<width where (row[x] >> 24) & 0x7F != 0 { return true }
        }
        return false
    }

    /// The pixel at (x, y) as 0xAARRGGBB with gd's 7-bit alpha (0 opaque).
    public func pixel(_ x: Int, _ y: Int) -> Int32 { ptr.pointee.tpixels[y]![x] }

    // MARK: drawing

    public static func color(_ r: Int, _ g: Int, _ b: Int, alpha: Int = 0) -> Int32 {
        Int32(alpha << 24 | r << 16 | g << 8 | b)
    }

    public func fill(_ color: Int32) {
        gdImageFilledRectangle(ptr, 0, 0, Int32(width - 1), Int32(height - 1), color)
    }

    public func rect(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ color: Int32, filled: Bool = true) {
        if filled {
            gdImageFilledRectangle(ptr, Int32(x), Int32(y), Int32(x + w - 1), Int32(y + h - 1), color)
        } else {
            gdImageRectangle(ptr, Int32(x), Int32(y), Int32(x + w - 1), Int32(y + h - 1), color)
        }
    }

    public func line(_ x1: Int, _ y1: Int, _ x2: Int, _ y2: Int, _ color: Int32, thickness: Int = 1) {
        gdImageSetThickness(ptr, Int32(thickness))
        gdImageLine(ptr, Int32(x1), Int32(y1), Int32(x2), Int32(y2), color)
        gdImageSetThickness(ptr, 1)
    }

    public func ellipse(_ cx: Int, _ cy: Int, _ w: Int, _ h: Int, _ color: Int32, filled: Bool = true) {
        if filled {
            gdImageFilledEllipse(ptr, Int32(cx), Int32(cy), Int32(w), Int32(h), color)
        } else {
            gdImageEllipse(ptr, Int32(cx), Int32(cy), Int32(w), Int32(h), color)
        }
    }

    public func arc(_ cx: Int, _ cy: Int, _ w: Int, _ h: Int, from: Int, to: Int, _ color: Int32, thickness: Int = 1) {
        gdImageSetThickness(ptr, Int32(thickness))
        gdImageArc(ptr, Int32(cx), Int32(cy), Int32(w), Int32(h), Int32(from), Int32(to), color)
        gdImageSetThickness(ptr, 1)
    }

    public func polygon(_ points: [(Int, Int)], _ color: Int32) {
        var pts = points.map { gdPoint(x: Int32($0.0), y: Int32($0.1)) }
        gdImageFilledPolygon(ptr, &pts, Int32(pts.count), color)
    }

    /// Copies `source` (whole) to (x, y), scaled to w×h.
    public func draw(_ source: GDImage, x: Int, y: Int, width w: Int, height h: Int) {
        if w == source.width && h == source.height {
            gdImageCopy(ptr, source.ptr, Int32(x), Int32(y), 0, 0, Int32(w), Int32(h))
        } else {
            let scaled = source.scaled(width: w, height: h)
            gdImageCopy(ptr, scaled.ptr, Int32(x), Int32(y), 0, 0, Int32(w), Int32(h))
        }
    }

    /// Draws `text` with a font file; returns the bounding box gd reports.
    @discardableResult
    public func text(_ text: String, font: String, size: Double, x: Int, y: Int, color: Int32) -> [Int32] {
        Self.freetype(ptr, text, font: font, size: size, x: x, y: y, color: color)
    }

    /// Measures `text` without drawing: (left, top, right, bottom) relative to the baseline origin.
    public static func measure(_ text: String, font: String, size: Double) -> [Int32] {
        freetype(nil, text, font: font, size: size, x: 0, y: 0, color: 0)
    }

    /// `size` is the em size in pixels (gd takes points at 96 dpi).
    static func freetype(_ image: gdImagePtr?, _ text: String, font: String, size: Double, x: Int, y: Int, color: Int32)
        -> [Int32]
    {
        var brect = [Int32](repeating: 0, count: 8)
        var fontPath = Array(font.utf8CString)
        var chars = Array(text.utf8CString)
        _ = fontPath.withUnsafeMutableBufferPointer { f in
            chars.withUnsafeMutableBufferPointer { c in
                gdImageStringFT(
                    image, &brect, color, f.baseAddress, size * 72 / 96, 0, Int32(x), Int32(y), c.baseAddress)
            }
        }
        return brect
    }
}
