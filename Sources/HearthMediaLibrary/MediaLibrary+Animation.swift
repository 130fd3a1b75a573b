import Foundation
import HearthMedia
import HearthStore

/// Animated GIFs: an upload keeps its frames, and a meme on one has its captions on every frame.
extension MediaLibrary {
    /// An animated GIF upload drawn again frame by frame (fitted to `MediaLimits.storedSide`,
    /// every other block dropped), or nil when `bytes` is not an animated GIF.
    static func animatedUpload(_ bytes: [UInt8], probe: ImageProbe) throws -> AnimatedGIF.Redrawn? {
        guard probe.format == .gif, GIFDecoder.isAnimated(bytes) else { return nil }
        return try checked { () throws(GIFDecoder.Problem) in
            try AnimatedGIF.redraw(bytes, maxSide: MediaLimits.storedSide) { _, _ in { _ in } }
        }
    }

    /// A stored picture's bytes when it is an animated GIF (memes on it are drawn on every frame).
    func animation(_ image: ImageRecord) -> [UInt8]? {
        guard image.format == ImageFormat.gif.rawValue,
            let data = FileManager.default.contents(atPath: fileURL(id: image.id, format: image.format).path)
        else { return nil }
        let bytes = [UInt8](data)
        return GIFDecoder.isAnimated(bytes) ? bytes : nil
    }

    /// A meme on every frame of an animation.
    func animatedMeme(
        _ renderer: MemeRenderer, _ bytes: [UInt8], boxes: [CaptionBox], captions: [String], scale: Double
    ) throws -> AnimatedGIF.Redrawn {
        try Self.checked { () throws(GIFDecoder.Problem) in
            try AnimatedGIF.captioned(bytes, renderer: renderer, boxes: boxes, captions: captions, textScale: scale)
        }
    }

    /// The animation's problem as an upload error, and one libgd could not write as undecodable.
    static func checked(_ work: () throws(GIFDecoder.Problem) -> AnimatedGIF.Redrawn?) throws -> AnimatedGIF.Redrawn {
        let redrawn: AnimatedGIF.Redrawn?
        do { redrawn = try work() } catch { throw UploadError.animation(error) }
        guard let redrawn else { throw UploadError.undecodable }
        return redrawn
    }
}
