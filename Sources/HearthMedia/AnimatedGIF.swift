import CGD

/// An animation drawn again frame by frame: each frame as a viewer shows it (the earlier
/// frames under it, as their disposal left them), changed by the caller, and written with
/// libgd's animated-GIF writer keeping each frame's delay and disposal and the loop count.
public enum AnimatedGIF {
    /// Every frame whole, fitted to `maxSide`, handed to `draw` (with its index) and written.
    /// Empty when libgd could not write it.
    public static func redraw(_ gif: GIFDecoder, maxSide: Int, draw: (GDImage, Int) -> Void) -> [UInt8] {
        var writer = Writer(loops: gif.loops)
        forEachScreen(gif) { screen, frame, index in
            // `fitted` returns the same image when it fits: draw on a copy, the screen goes on.
            let picture =
                screen.width > maxSide || screen.height > maxSide
                ? screen.fitted(maxSide: maxSide)
                : screen.clone()
            draw(picture, index)
            writer.add(picture, delay: frame.delay, disposal: frame.disposal)
        }
        return writer.finish()
    }

    /// An animation drawn again: its bytes and the frames' size.
    public struct Redrawn: Sendable {
        public let bytes: [UInt8]
        public let width: Int
        public let height: Int
    }

    /// The frames of `bytes` fitted to `maxSide`; `prepare` is asked once, with the frames'
    /// size, for what to do to every frame. Nil when libgd could not write the result.
    public static func redraw(
        _ bytes: [UInt8], maxSide: Int, prepare: (_ width: Int, _ height: Int) -> (GDImage) -> Void
    ) throws(GIFDecoder.Problem) -> Redrawn? {
        let gif = try GIFDecoder(bytes)
        var size = (width: 0, height: 0)
        var change: ((GDImage) -> Void)?
        let out = redraw(gif, maxSide: maxSide) { picture, _ in
            if change == nil {
                size = (picture.width, picture.height)
                change = prepare(picture.width, picture.height)
            }
            change?(picture)
        }
        return out.isEmpty ? nil : Redrawn(bytes: out, width: size.width, height: size.height)
    }

    /// A meme on every frame: the captions laid out once (`MemeRenderer.overlay`), drawn on each.
    public static func captioned(
        _ bytes: [UInt8], renderer: MemeRenderer, boxes: [CaptionBox], captions: [String], textScale: Double,
        maxSide: Int = MediaLimits.memeSide
    ) throws(GIFDecoder.Problem) -> Redrawn? {
        try redraw(bytes, maxSide: maxSide) { width, height in
            let overlay = renderer.overlay(
                width: width, height: height, boxes: boxes, captions: captions, textScale: textScale)
            return { overlay.draw(on: $0) }
        }
    }

    /// Whole pictures of one size as an animation (`delays` in hundredths of a second, one a frame).
    public static func encode(_ frames: [GDImage], delays: [Int], disposal: Int = 1, loops: Int? = 0) -> [UInt8] {
        var writer = Writer(loops: loops)
        for (picture, delay) in zip(frames, delays) { writer.add(picture, delay: delay, disposal: disposal) }
        return writer.finish()
    }

    /// The logical screen after each frame: frames drawn in turn, clipped to the screen, with
    /// the previous frame's area cleared (disposal 2) or put back as it was (3) first.
    public static func forEachScreen(_ gif: GIFDecoder, _ body: (GDImage, GIFDecoder.Frame, Int) -> Void) {
        let screen = GDImage(width: gif.width, height: gif.height)
        gdImageAlphaBlending(screen.ptr, 0)
        screen.ptr.pointee.saveAlphaFlag = 1
        let clear = GDImage.color(0, 0, 0, alpha: 127)
        screen.fill(clear)
        var previous: (frame: GIFDecoder.Frame, saved: GDImage?)?
        for (index, frame) in gif.frames.enumerated() {
            if let (last, saved) = previous {
                if last.disposal == 2 { Self.clear(last, on: screen, with: clear) }
                if last.disposal == 3, let saved {
                    gdImageCopy(screen.ptr, saved.ptr, 0, 0, 0, 0, saved.w32, saved.h32)
                }
            }
            let saved = frame.disposal == 3 ? screen.clone() : nil
            paint(frame, on: screen)
            body(screen, frame, index)
            previous = (frame, saved)
        }
    }

    /// Draws the part of `frame` on the screen (viewers clip a frame placed partly or wholly off it).
    static func paint(_ frame: GIFDecoder.Frame, on screen: GDImage) {
        let (need, overflow) = frame.width.multipliedReportingOverflow(by: frame.height)
        guard !overflow, need >= 0, frame.indices.count >= need else { return }
        let columns = onScreen(frame.x, frame.width, screen.width)
        let rows = onScreen(frame.y, frame.height, screen.height)
        let palette = frame.palette.map { Int32(bitPattern: $0) }
        frame.indices.withUnsafeBufferPointer { indices in
            for row in rows {
                let line = screen.ptr.pointee.tpixels[frame.y + row]!
                for column in columns {
                    let index = Int(indices[row * frame.width + column])
                    guard index != frame.transparent, index < palette.count else { continue }
                    line[frame.x + column] = palette[index]
                }
            }
        }
    }

    /// Clears the part of `frame` on the screen (disposal 2).
    static func clear(_ frame: GIFDecoder.Frame, on screen: GDImage, with colour: Int32) {
        let columns = onScreen(frame.x, frame.width, screen.width)
        let rows = onScreen(frame.y, frame.height, screen.height)
        guard !columns.isEmpty, !rows.isEmpty else { return }
        screen.rect(frame.x + columns.lowerBound, frame.y + rows.lowerBound, columns.count, rows.count, colour)
    }

    /// The cells (counted from the frame's `start`) of a run of `length` that fall inside
    /// `0..<screen`; empty when none do. Clamped first so no sum can overflow.
    static func onScreen(_ start: Int, _ length: Int, _ screen: Int) -> Range<Int> {
        let limit = 1 << 40
        let start = min(max(start, -limit), limit)
        let length = min(max(length, 0), limit)
        let first = max(0, -start)
        let last = min(length, screen - start)
        return first..<max(first, last)
    }

    /// libgd's animated-GIF writer; each frame brings its own colour table (made from its pixels).
    struct Writer {
        let loops: Int?
        var bytes: [UInt8] = []
        var started = false
        var failed = false

        init(loops: Int?) { self.loops = loops }

        mutating func add(_ picture: GDImage, delay: Int, disposal: Int) {
            guard !failed, let palette = gdImageCreatePaletteFromTrueColor(picture.ptr, 0, 256) else {
                failed = true
                return
            }
            defer { gdImageDestroy(palette) }
            var size: Int32 = 0
            if !started {
                started = true
                // No global colour table; -1: no loop block (the animation plays once).
                append(gdImageGifAnimBeginPtr(palette, &size, 0, Int32(loops ?? -1)), size)
            }
            append(
                gdImageGifAnimAddPtr(palette, &size, 1, 0, 0, Int32(delay), Int32(min(max(disposal, 0), 3)), nil),
                size)
        }

        mutating func append(_ data: UnsafeMutableRawPointer?, _ size: Int32) {
            guard let data else {
                failed = true
                return
            }
            defer { gdFree(data) }
            bytes += UnsafeRawBufferPointer(start: data, count: Int(size))
        }

        mutating func finish() -> [UInt8] {
            guard started, !failed else { return [] }
            var size: Int32 = 0
            append(gdImageGifAnimEndPtr(&size), size)
            return failed ? [] : bytes
        }
    }
}

extension GDImage {
    var w32: Int32 { Int32(width) }
    var h32: Int32 { Int32(height) }
}
