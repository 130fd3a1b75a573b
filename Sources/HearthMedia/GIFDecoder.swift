/// Reads every frame of a GIF (libgd reads only the first): the blocks, each frame's colour
/// table, delay, disposal and transparent colour, and its LZW-packed pixels. Bounded by
/// `MediaLimits.maxGIFFrames` and `MediaLimits.maxAnimationPixels`, checked before each frame
/// is unpacked, so a small file cannot make it allocate more.
public struct GIFDecoder: Sendable {
    /// One frame as stored: a rectangle of palette indices on the logical screen.
    public struct Frame: Sendable {
        public var x: Int, y: Int, width: Int, height: Int
        /// Hundredths of a second.
        public var delay: Int
        /// 0 unspecified, 1 leave, 2 restore to background, 3 restore to previous (GIF89a).
        public var disposal: Int
        public var transparent: Int?
        /// 0xRRGGBB per index.
        public var palette: [UInt32]
        /// Row-major indices (interlaced frames are put in order).
        public var indices: [UInt8]
    }

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case damaged
        case tooManyFrames(limit: Int)
        case tooManyPixels(frames: Int, width: Int, height: Int)

        public var description: String {
            switch self {
            case .damaged: return "the GIF is damaged"
            case .tooManyFrames(let limit): return "the GIF has more than \(limit) frames; the limit is \(limit)"
            case .tooManyPixels(let frames, let width, let height):
                let limit = MediaLimits.maxAnimationPixels / 1_000_000
                return "the GIF has \(frames) frames of \(width)×\(height) pixels; the limit is \(limit) million "
                    + "pixels over all frames"
            }
        }
    }

    public let width: Int
    public let height: Int
    /// NETSCAPE2.0 loop count (0 forever), nil when the file has none (play once).
    public let loops: Int?
    public let frames: [Frame]

    /// Whether `bytes` (a GIF) has more than one frame, without unpacking any.
    public static func isAnimated(_ bytes: [UInt8]) -> Bool {
        do {
            _ = try GIFDecoder(bytes, maxFrames: 1, unpack: false)
            return false
        } catch .tooManyFrames {
            return true  // a second frame
        } catch {
            return false
        }
    }

    public init(_ bytes: [UInt8]) throws(Problem) {
        try self.init(bytes, maxFrames: MediaLimits.maxGIFFrames, unpack: true)
    }

    init(_ b: [UInt8], maxFrames: Int, unpack: Bool) throws(Problem) {
        var reader = Reader(bytes: b)
        guard b.count >= 13, b.starts(with: Array("GIF8".utf8)) else { throw .damaged }
        reader.position = 6
        width = try reader.le16()
        height = try reader.le16()
        // libgd cannot make a screen with no pixels to draw the frames on.
        guard width > 0, height > 0 else { throw .damaged }
        let flags = try reader.byte()
        reader.position += 2  // background index, aspect ratio
        let global = flags & 0x80 != 0 ? try reader.palette(flags) : []
        var loops: Int?
        var frames: [Frame] = []
        var control = (delay: 0, disposal: 0, transparent: Int?.none)
        while true {
            switch try reader.byte() {
            case 0x3B:  // trailer
                guard !frames.isEmpty else { throw .damaged }  // no picture at all
                self.loops = loops
                self.frames = frames
                return
            case 0x21:
                let label = try reader.byte()
                let blocks = try reader.subBlocks()
                if label == 0xF9, let block = blocks.first, block.count >= 4 {
                    control.disposal = Int(block[0] >> 2) & 7
                    control.delay = Int(block[1]) | Int(block[2]) << 8
                    control.transparent = block[0] & 1 != 0 ? Int(block[3]) : nil
                } else if label == 0xFF, let id = blocks.first, id.elementsEqual("NETSCAPE2.0".utf8),
                    blocks.count > 1, blocks[1].count >= 3, blocks[1][0] == 1
                {
                    loops = Int(blocks[1][1]) | Int(blocks[1][2]) << 8
                }
            case 0x2C:
                let x = try reader.le16()
                let y = try reader.le16()
                let w = try reader.le16()
                let h = try reader.le16()
                let local = try reader.byte()
                let palette = local & 0x80 != 0 ? try reader.palette(local) : global
                let minCodeSize = Int(try reader.byte())
                let data = Array(try reader.subBlocks().joined())
                guard frames.count < maxFrames else { throw .tooManyFrames(limit: maxFrames) }
                // Every frame is drawn on the whole screen, so the screen's pixels are what count.
                let pixels = (frames.count + 1) * width * height
                if unpack && pixels > MediaLimits.maxAnimationPixels {
                    throw .tooManyPixels(frames: frames.count + 1, width: width, height: height)
                }
                // A frame larger than the screen is refused; one placed partly or wholly off it is clipped when drawn.
                guard !palette.isEmpty, w <= width, h <= height else { throw .damaged }
                var indices: [UInt8] = []
                if unpack {
                    indices = try Self.lzw(
                        data, minCodeSize: minCodeSize, count: w * h, colours: palette.count,
                        transparent: control.transparent)
                    if local & 0x40 != 0 { indices = Self.deinterlaced(indices, width: w, height: h) }
                }
                frames.append(
                    Frame(
                        x: x, y: y, width: w, height: h, delay: control.delay, disposal: control.disposal,
                        transparent: control.transparent, palette: palette, indices: indices))
                control = (0, 0, nil)
            default:
                throw .damaged
            }
        }
    }

    struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func byte() throws(Problem) -> UInt8 {
            guard position < bytes.count else { throw .damaged }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func le16() throws(Problem) -> Int { Int(try byte()) | Int(try byte()) << 8 }

        /// A colour table of the size `flags`' low three bits give.
        mutating func palette(_ flags: UInt8) throws(Problem) -> [UInt32] {
            let count = 2 << Int(flags & 7)
            guard position + 3 * count <= bytes.count else { throw .damaged }
            defer { position += 3 * count }
            return (0..<count).map { i in
                let p = position + 3 * i
                return UInt32(bytes[p]) << 16 | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2])
            }
        }

        /// Length-prefixed sub-blocks up to the empty one.
        mutating func subBlocks() throws(Problem) -> [[UInt8]] {
            var blocks: [[UInt8]] = []
            while true {
                let size = Int(try byte())
                if size == 0 { return blocks }
                guard position + size <= bytes.count else { throw .damaged }
                blocks.append(Array(bytes[position..<(position + size)]))
                position += size
            }
        }
    }

    /// GIF's variable-width LZW. Pixels the data does not reach stay 0 (viewers draw a frame whose
    /// data stops early); data past `count` is ignored. Damaged: a code size outside 1…11 (codes
    /// grow to 12 bits), a code the table does not hold yet, or a pixel with no colour in a table
    /// of `colours` (unless it is the `transparent` one).
    static func lzw(
        _ data: [UInt8], minCodeSize: Int, count: Int, colours: Int = 256, transparent: Int? = nil
    ) throws(Problem) -> [UInt8] {
        guard (1...11).contains(minCodeSize) else { throw .damaged }
        var out = [UInt8](repeating: 0, count: count)
        let clear = 1 << minCodeSize
        let end = clear + 1
        var prefix = [UInt16](repeating: 0, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var first = [UInt8](repeating: 0, count: 4096)
        for i in 0..<min(clear, 256) {
            suffix[i] = UInt8(i)
            first[i] = UInt8(i)
        }
        var stack = [UInt8](repeating: 0, count: 4097)
        var codeSize = minCodeSize + 1
        var next = clear + 2
        var previous = -1
        var bits = 0
        var bitCount = 0
        var written = 0
        for byte in data {
            bits |= Int(byte) << bitCount
            bitCount += 8
            while bitCount >= codeSize {
                let code = bits & ((1 << codeSize) - 1)
                bits >>= codeSize
                bitCount -= codeSize
                if code == clear {
                    codeSize = minCodeSize + 1
                    next = clear + 2
                    previous = -1
                    continue
                }
                if code == end || written >= count { return out }
                var depth = 0
                var walk = code
                if previous < 0 {
                    guard code < clear else { throw .damaged }
                } else if code == next {
                    // The string just being defined: the previous one plus its own first byte.
                    stack[0] = first[previous]
                    depth = 1
                    walk = previous
                } else if code > next {
                    throw .damaged
                }
                while walk >= clear {
                    stack[depth] = suffix[walk]
                    depth += 1
                    walk = Int(prefix[walk])
                }
                // Every pixel written is some code's root, checked here when that code came.
                guard walk < colours || walk == transparent, walk < 256 else { throw .damaged }
                stack[depth] = UInt8(walk)
                depth += 1
                while depth > 0 && written < count {
                    depth -= 1
                    out[written] = stack[depth]
                    written += 1
                }
                if previous >= 0 && next < 4096 {
                    prefix[next] = UInt16(previous)
                    suffix[next] = UInt8(walk)
                    first[next] = first[previous]
                    next += 1
                    if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
                }
                previous = code
            }
        }
        return out
    }

    /// Interlaced rows (every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1) in order.
    static func deinterlaced(_ rows: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rows.count)
        var source = 0
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            for y in stride(from: start, to: height, by: step) {
                out[(y * width)..<((y + 1) * width)] = rows[(source * width)..<((source + 1) * width)]
                source += 1
            }
        }
        return out
    }
}
