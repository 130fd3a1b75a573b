/// Captions laid out and drawn into masks for one picture size (`MemeRenderer.overlay`): put
/// on a picture with `draw(on:)`, as often as there are pictures (an animation's frames).
public struct CaptionOverlay: Sendable {
    enum Layer: Sendable {
        /// `color` painted where `coverage` (width × height, 0–255) says, at `origin`.
        case mask([UInt8], width: Int, height: Int, origin: (x: Int, y: Int), color: (Int, Int, Int))
        case emoji(EmojiFont.Patch)
    }

    var layers: [Layer] = []
    public internal(set) var placements: [MemeRenderer.Placement] = []

    public func draw(on image: GDImage) {
        for layer in layers {
            switch layer {
            case .mask(let coverage, let w, let h, let origin, let color):
                Self.blend(image, coverage, w, h, at: origin, color: color)
            case .emoji(let patch):
                image.composite(patch)
            }
        }
    }

    /// Paints `color` over the image where `coverage` says, clipped to the image.
    static func blend(
        _ image: GDImage, _ coverage: [UInt8], _ w: Int, _ h: Int, at origin: (x: Int, y: Int), color: (Int, Int, Int)
    ) {
        coverage.withUnsafeBufferPointer { coverage in
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
}
