import Foundation
import HearthMedia
import HearthStore

/// Animated GIFs: an upload keeps its frames, and a meme on one has its captions on every frame.
extension MediaLibrary {
    /// An animated GIF upload drawn again frame by frame (fitted to `MediaLimits.storedSide`,
    /// every other block dropped), or nil when `bytes` is not an animated GIF.
    static func animatedUpload(_ bytes: [UInt8], probe: ImageProbe) throws -> (bytes: [UInt8], width: Int, height: Int)?
    {
        guard probe.format == .gif, GIFDecoder.isAnimated(bytes) else { return nil }
        return try redrawn(bytes, maxSide: MediaLimits.storedSide) { _ in { _ in } }
    }

    /// The frames of `bytes` fitted to `maxSide`; `prepare` is asked once, with the first
    /// frame's size, for what to do to every frame.
    static func redrawn(
        _ bytes: [UInt8], maxSide: Int, prepare: (_ size: (width: Int, height: Int)) -> (GDImage) -> Void
    ) throws -> (bytes: [UInt8], width: Int, height: Int) {
        let gif: GIFDecoder
        do { gif = try GIFDecoder(bytes) } catch { throw UploadError.animation(error) }
        var size = (width: 0, height: 0)
        var change: ((GDImage) -> Void)?
        let out = AnimatedGIF.redraw(gif, maxSide: maxSide) { picture, _ in
            if change == nil {
                size = (picture.width, picture.height)
                change = prepare(size)
            }
            change?(picture)
        }
        guard !out.isEmpty else { throw UploadError.undecodable }
        return (out, size.width, size.height)
    }

    /// A stored picture's bytes when it is an animated GIF (memes on it are drawn on every frame).
    func animation(_ image: ImageRecord) -> [UInt8]? {
        guard image.format == ImageFormat.gif.rawValue,
            let data = FileManager.default.contents(atPath: fileURL(id: image.id, format: image.format).path)
        else { return nil }
        let bytes = [UInt8](data)
        return GIFDecoder.isAnimated(bytes) ? bytes : nil
    }

    /// A meme on every frame of an animation: the captions laid out once, drawn on each frame.
    func animatedMeme(
        _ renderer: MemeRenderer, _ bytes: [UInt8], boxes: [CaptionBox], captions: [String], scale: Double
    ) throws -> (bytes: [UInt8], width: Int, height: Int) {
        try Self.redrawn(bytes, maxSide: MediaLimits.memeSide) { size in
            let overlay = renderer.overlay(
                width: size.width, height: size.height, boxes: boxes, captions: captions, textScale: scale)
            return { overlay.draw(on: $0) }
        }
    }
}
