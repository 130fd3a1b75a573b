import CGD
import Foundation

/// Where a caption goes on a picture, in fractions of its width and height.
public struct CaptionBox: Codable, Sendable, Equatable {
    public enum Align: String, Codable, Sendable, CaseIterable { case top, middle, bottom }
    /// Where lines sit across the box.
    public enum TextAlign: String, Codable, Sendable, CaseIterable { case left, center, right }
    public enum Style: String, Codable, Sendable {
        /// White letters with a black outline: the classic meme look.
        case outline
        /// Black letters, for labels on light panels.
        case dark
    }

    public var x: Double, y: Double, w: Double, h: Double
    public var align: Align
    public var style: Style
    /// A face from `CaptionFonts` (nil: the default caption font).
    public var font: String?
    /// The letters' colour and the outline's, instead of the style's (an outline colour on a
    /// `.dark` box gives it an outline).
    public var color: CaptionColor?
    public var outline: CaptionColor?
    /// Across the box (nil: centred; optional so boxes saved before it still decode).
    public var textAlign: TextAlign?

    public init(
        _ x: Double, _ y: Double, _ w: Double, _ h: Double, align: Align = .middle, style: Style = .outline,
        font: String? = nil, color: CaptionColor? = nil, outline: CaptionColor? = nil, textAlign: TextAlign? = nil
    ) {
        (self.x, self.y, self.w, self.h) = (x, y, w, h)
        self.align = align
        self.style = style
        (self.font, self.color, self.outline, self.textAlign) = (font, color, outline, textAlign)
    }

    /// The text's look, for render keys: empty for the style's own look, so older keys still match.
    public var lookKey: String {
        guard font != nil || color != nil || outline != nil || textAlign != nil else { return "" }
        let across = textAlign.map { ",\($0.rawValue)" } ?? ""
        return ",\(font ?? ""),\(color?.description ?? ""),\(outline?.description ?? "")" + across
    }

    var fill: (Int, Int, Int) { color?.tuple ?? (style == .outline ? (255, 255, 255) : (20, 20, 20)) }
    var outlineFill: (Int, Int, Int)? { outline?.tuple ?? (style == .outline ? (0, 0, 0) : nil) }

    /// Top and bottom text over a whole picture (any uploaded image).
    public static let classic = [
        CaptionBox(0.04, 0.02, 0.92, 0.24, align: .top),
        CaptionBox(0.04, 0.74, 0.92, 0.24, align: .bottom),
    ]
}

/// Draws captions onto a picture. The outline is made by drawing each line once into a
/// coverage mask and dilating it (≈1 ms a line) rather than drawing the text many times.
public struct MemeRenderer: Sendable {
    public let fonts: FontSet

    public init(fonts: FontSet) {
        _ = GDImage.setUp
        self.fonts = fonts
    }

    /// A drawn line, in image pixels (for tests that check nothing leaves its box).
    public struct Placement: Sendable {
        public var box: (x: Int, y: Int, w: Int, h: Int)
        public var lines: [(x: Int, y: Int, w: Int, h: Int)]
        public var size: Double
    }

    /// Captions the picture in place. `textScale` follows the user's textsize setting.
    @discardableResult
    public func caption(
        _ image: GDImage, boxes: [CaptionBox], captions: [String], textScale: Double = 1, uppercase: Bool = true
    ) -> [Placement] {
        let overlay = overlay(
            width: image.width, height: image.height, boxes: boxes, captions: captions, textScale: textScale,
            uppercase: uppercase)
        overlay.draw(on: image)
        return overlay.placements
    }

    /// The captions for a picture of this size, laid out and drawn into masks once, to be put on
    /// any number of pictures that size (every frame of an animation).
    public func overlay(
        width: Int, height: Int, boxes: [CaptionBox], captions: [String], textScale: Double = 1,
        uppercase: Bool = true
    ) -> CaptionOverlay {
        var overlay = CaptionOverlay()
        for (box, raw) in zip(boxes, captions) {
            let text = uppercase ? raw.uppercased() : raw
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let bx = Int(box.x * Double(width))
            let by = Int(box.y * Double(height))
            let bw = Int(box.w * Double(width))
            let bh = Int(box.h * Double(height))
            var placement = Placement(box: (bx, by, bw, bh), lines: [], size: 0)
            defer { overlay.placements.append(placement) }
            guard !trimmed.isEmpty else { continue }
            let maxSize = Double(max(width, height)) * 0.1 * textScale
            let outlined = box.outlineFill != nil
            let outline = outlined ? max(1, Int((maxSize * 0.06).rounded())) : 0
            // The outline must stay inside the box too.
            let layout = CaptionLayout.fit(
                trimmed, width: bw - 2 * outline, height: bh - 2 * outline, maxSize: maxSize,
                fonts: CaptionFonts.fontSet(box.font, base: fonts))
            let radius = outlined ? max(1, Int((layout.size * 0.07).rounded())) : 0
            placement.size = layout.size
            var top: Int
            switch box.align {
            case .top: top = by + radius
            case .bottom: top = by + bh - radius - layout.height
            case .middle: top = by + (bh - layout.height) / 2
            }
            for line in layout.lines {
                let x: Int
                switch box.textAlign ?? .center {
                case .left: x = bx + radius
                case .center: x = bx + (bw - line.width) / 2
                case .right: x = bx + bw - radius - line.width
                }
                overlay.layers += layers(line, x: x, top: top, size: layout.size, radius: radius, box: box)
                placement.lines.append(
                    (x - radius, top - radius, line.width + 2 * radius, layout.lineHeight + 2 * radius))
                top += layout.lineHeight
            }
        }
        return overlay
    }

    /// One line drawn into a coverage mask (and its outline's), plus its emoji in colour.
    private func layers(
        _ line: CaptionLayout.Line, x: Int, top: Int, size: Double, radius: Int, box: CaptionBox
    ) -> [CaptionOverlay.Layer] {
        let pad = radius + 2
        let lineHeight = CaptionLayout.lineHeight(size)
        let maskW = line.width + 2 * pad
        let maskH = lineHeight + 2 * pad
        let mask = GDImage(width: maskW, height: maskH)
        gdImageAlphaBlending(mask.ptr, 0)
        mask.fill(GDImage.color(0, 0, 0, alpha: 127))
        // With blending off, gd stores each glyph pixel's coverage in its alpha.
        var pen = pad
        let baseline = pad + CaptionLayout.ascent(size)
        // Emoji are laid out with the text, in mask coordinates, and drawn in colour at the end.
        var emoji: [EmojiFont.Patch] = []
        for run in line.runs {
            if let font = EmojiFont.named(run.font) {
                emoji += font.patches(run.text, x: pen, baseline: baseline, size: size)
                pen += Int(font.width(run.text, size: size).rounded())
                continue
            }
            let box = mask.text(
                run.text, font: run.font, size: size, x: pen, y: baseline, color: GDImage.color(255, 255, 255))
            pen += Int(box[2] - box[0])
        }
        var coverage = [UInt8](repeating: 0, count: maskW * maskH)
        for y in 0..<maskH {
            let row = mask.ptr.pointee.tpixels[y]!
            for x in 0..<maskW {
                let alpha = Int((row[x] >> 24) & 0x7F)
                coverage[y * maskW + x] = UInt8((127 - alpha) * 255 / 127)
            }
        }
        let origin = (x: x - pad, y: top - pad)
        var layers: [CaptionOverlay.Layer] = []
        if let outlineFill = box.outlineFill {
            // The outline goes round the emoji too, so they stand out from the picture like the letters.
            var shapes = coverage
            for patch in emoji { Self.addAlpha(patch, to: &shapes, width: maskW, height: maskH) }
            let outline = Self.dilate(shapes, width: maskW, height: maskH, radius: radius)
            layers.append(.mask(outline, width: maskW, height: maskH, origin: origin, color: outlineFill))
        }
        layers.append(.mask(coverage, width: maskW, height: maskH, origin: origin, color: box.fill))
        for var patch in emoji {
            (patch.x, patch.y) = (patch.x + origin.x, patch.y + origin.y)
            layers.append(.emoji(patch))
        }
        return layers
    }

    /// Puts an emoji's opacity into a coverage mask (the larger of the two wins).
    static func addAlpha(_ patch: EmojiFont.Patch, to mask: inout [UInt8], width: Int, height: Int) {
        for py in 0..<patch.h where (0..<height).contains(patch.y + py) {
            for px in 0..<patch.w where (0..<width).contains(patch.x + px) {
                let a = patch.pixels[(py * patch.w + px) * 4 + 3]
                let i = (patch.y + py) * width + patch.x + px
                if a > mask[i] { mask[i] = a }
            }
        }
    }

    /// The largest coverage within `radius` of each pixel (a disc): the outline's shape.
    /// Row maxima for half-widths 0…radius are built incrementally (each from the previous,
    /// three reads a pixel), then each output row takes, for every dy, the row maximum of the
    /// half-width the disc has at that dy.
    static func dilate(_ source: [UInt8], width: Int, height: Int, radius: Int) -> [UInt8] {
        let count = source.count
        var spans = [Int](repeating: 0, count: 2 * radius + 1)
        for dy in -radius...radius { spans[dy + radius] = Int(Double(radius * radius - dy * dy).squareRoot()) }
        // rows[d]: the maximum over [x-d, x+d] in the same row.
        var rows: [[UInt8]] = [source]
        rows.reserveCapacity(radius + 1)
        for d in 0..<radius {
            var next = [UInt8](repeating: 0, count: count)
            rows[d].withUnsafeBufferPointer { prev in
                next.withUnsafeMutableBufferPointer { out in
                    for y in 0..<height {
                        let base = y * width
                        for x in 0..<width {
                            var m = prev[base + x]
                            if x > 0, prev[base + x - 1] > m { m = prev[base + x - 1] }
                            if x + 1 < width, prev[base + x + 1] > m { m = prev[base + x + 1] }
                            out[base + x] = m
                        }
                    }
                }
            }
            rows.append(next)
        }
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBufferPointer { out in
            for dy in -radius...radius {
                rows[spans[dy + radius]].withUnsafeBufferPointer { row in
                    for y in max(0, -dy)..<min(height, height - dy) {
                        let dst = y * width
                        let src = (y + dy) * width
                        for x in 0..<width where row[src + x] > out[dst + x] { out[dst + x] = row[src + x] }
                    }
                }
            }
        }
        return result
    }
}
