import CGD
import Foundation

/// Where a caption goes on a picture, in fractions of its width and height.
public struct CaptionBox: Codable, Sendable, Equatable {
    public enum Align: String, Codable, Sendable { case top, middle, bottom }
    public enum Style: String, Codable, Sendable {
        /// White letters with a black outline: the classic meme look.
        case outline
        /// Black letters, for labels on light panels.
        case dark
    }

    public var x: Double, y: Double, w: Double, h: Double
    public var align: Align
    public var style: Style

    public init(_ x: Double, _ y: Double, _ w: Double, _ h: Double, align: Align = .middle, style: Style = .outline) {
        (self.x, self.y, self.w, self.h) = (x, y, w, h)
        self.align = align
        self.style = style
    }

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
        var placements: [Placement] = []
        for (box, raw) in zip(boxes, captions) {
            let text = uppercase ? raw.uppercased() : raw
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let bx = Int(box.x * Double(image.width)), by = Int(box.y * Double(image.height))
            let bw = Int(box.w * Double(image.width)), bh = Int(box.h * Double(image.height))
            var placement = Placement(box: (bx, by, bw, bh), lines: [], size: 0)
            defer { placements.append(placement) }
            guard !trimmed.isEmpty else { continue }
            let maxSize = Double(max(image.width, image.height)) * 0.1 * textScale
            let outline = box.style == .outline ? max(1, Int((maxSize * 0.06).rounded())) : 0
            // The outline must stay inside the box too.
            let layout = CaptionLayout.fit(
                trimmed, width: bw - 2 * outline, height: bh - 2 * outline, maxSize: maxSize, fonts: fonts)
            let radius = box.style == .outline ? max(1, Int((layout.size * 0.07).rounded())) : 0
            placement.size = layout.size
            var top: Int
            switch box.align {
            case .top: top = by + radius
            case .bottom: top = by + bh - radius - layout.height
            case .middle: top = by + (bh - layout.height) / 2
            }
            for line in layout.lines {
                let x = bx + (bw - line.width) / 2
                drawLine(line, on: image, x: x, top: top, size: layout.size, radius: radius, style: box.style)
                placement.lines.append((x - radius, top - radius, line.width + 2 * radius, layout.lineHeight + 2 * radius))
                top += layout.lineHeight
            }
        }
        return placements
    }

    private func drawLine(_ line: CaptionLayout.Line, on image: GDImage, x: Int, top: Int, size: Double, radius: Int, style: CaptionBox.Style) {
        let pad = radius + 2
        let lineHeight = CaptionLayout.lineHeight(size)
        let maskW = line.width + 2 * pad, maskH = lineHeight + 2 * pad
        let mask = GDImage(width: maskW, height: maskH)
        gdImageAlphaBlending(mask.ptr, 0)
        mask.fill(GDImage.color(0, 0, 0, alpha: 127))
        // With blending off, gd stores each glyph pixel's coverage in its alpha.
        var pen = pad
        let baseline = pad + CaptionLayout.ascent(size)
        for run in line.runs {
            mask.text(run.text, font: run.font, size: size, x: pen, y: baseline, color: GDImage.color(255, 255, 255))
            pen += Int(CaptionLayout.measureWidth(run.text, font: run.font, size: size))
        }
        var coverage = [UInt8](repeating: 0, count: maskW * maskH)
        for y in 0..<maskH {
            let row = mask.ptr.pointee.tpixels[y]!
            for x in 0..<maskW {
                let alpha = Int((row[x] >> 24) & 0x7F)
                coverage[y * maskW + x] = UInt8((127 - alpha) * 255 / 127)
            }
        }
        let ox = x - pad, oy = top - pad
        if style == .outline {
            let outline = Self.dilate(coverage, width: maskW, height: maskH, radius: radius)
            blend(image, outline, maskW, maskH, at: (ox, oy), color: (0, 0, 0))
            blend(image, coverage, maskW, maskH, at: (ox, oy), color: (255, 255, 255))
        } else {
            blend(image, coverage, maskW, maskH, at: (ox, oy), color: (20, 20, 20))
        }
    }

    /// The largest coverage within `radius` of each pixel (a disc): the outline's shape.
    static func dilate(_ source: [UInt8], width: Int, height: Int, radius: Int) -> [UInt8] {
        // Per row offset ±dx allowed at each dy; a running maximum along rows first.
        var offsets: [(dy: Int, dx: Int)] = []
        for dy in -radius...radius {
            let dx = Int(Double(radius * radius - dy * dy).squareRoot())
            offsets.append((dy, dx))
        }
        // rowMax[dx][i]: max of source over [x-dx, x+dx] in the same row, for each dx used.
        let spans = Set(offsets.map(\.dx))
        var rowMax: [Int: [UInt8]] = [:]
        for dx in spans {
            var out = [UInt8](repeating: 0, count: source.count)
            for y in 0..<height {
                let base = y * width
                for x in 0..<width {
                    var m: UInt8 = 0
                    for k in max(0, x - dx)...min(width - 1, x + dx) where source[base + k] > m { m = source[base + k] }
                    out[base + x] = m
                }
            }
            rowMax[dx] = out
        }
        var result = [UInt8](repeating: 0, count: source.count)
        for (dy, dx) in offsets {
            let rows = rowMax[dx]!
            for y in max(0, -dy)..<min(height, height - dy) {
                let dst = y * width, src = (y + dy) * width
                for x in 0..<width where rows[src + x] > result[dst + x] { result[dst + x] = rows[src + x] }
            }
        }
        return result
    }

    /// Paints `color` over the image where `coverage` says, clipped to the image.
    private func blend(_ image: GDImage, _ coverage: [UInt8], _ w: Int, _ h: Int, at origin: (x: Int, y: Int), color: (Int, Int, Int)) {
        for my in 0..<h {
            let iy = origin.y + my
            guard iy >= 0 && iy < image.height else { continue }
            let row = image.ptr.pointee.tpixels[iy]!
            for mx in 0..<w {
                let a = Int(coverage[my * w + mx])
                guard a > 0 else { continue }
                let ix = origin.x + mx
                guard ix >= 0 && ix < image.width else { continue }
                let p = Int(row[ix])
                let r = ((p >> 16) & 0xFF) * (255 - a) / 255 + color.0 * a / 255
                let g = ((p >> 8) & 0xFF) * (255 - a) / 255 + color.1 * a / 255
                let b = (p & 0xFF) * (255 - a) / 255 + color.2 * a / 255
                row[ix] = Int32(p & 0x7F00_0000 | r << 16 | g << 8 | b)
            }
        }
    }
}
