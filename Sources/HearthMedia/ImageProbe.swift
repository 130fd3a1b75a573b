/// What an uploaded file is, read from its bytes (never its name) before anything decodes
/// it: the format, the pixel size its header declares, and whether the file is complete.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp

    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    public var mimeType: String { "image/\(rawValue)" }
}

public struct ImageProbe: Sendable, Equatable {
    public let format: ImageFormat
    public let width: Int
    public let height: Int

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notAnImage, truncated, badHeader
        case tooManyPixels(width: Int, height: Int)
        case tooBig(bytes: Int)

        public var description: String {
            switch self {
            case .notAnImage: return "that is not a PNG, JPEG, GIF or WebP image"
            case .truncated: return "the image is cut off (the file is incomplete)"
            case .badHeader: return "the image header is damaged"
            case .tooManyPixels(let w, let h):
                return
                    "the image is \(w)×\(h) pixels; the limit is \(MediaLimits.maxPixels / 1_000_000) "
                    + "megapixels and \(MediaLimits.maxSide) pixels a side"
            case .tooBig(let bytes):
                return "the file is \(bytes / 1024) KiB; the limit is \(MediaLimits.maxUploadBytes / 1024 / 1024) MiB"
            }
        }
    }

    /// Checks size, format, declared dimensions and completeness.
    public static func inspect(_ bytes: [UInt8]) throws(Problem) -> ImageProbe {
        if bytes.count > MediaLimits.maxUploadBytes { throw .tooBig(bytes: bytes.count) }
        let probe = try probe(bytes)
        if probe.width < 1 || probe.height < 1 { throw .badHeader }
        if probe.width > MediaLimits.maxSide || probe.height > MediaLimits.maxSide
            || probe.width * probe.height > MediaLimits.maxPixels
        {
            throw .tooManyPixels(width: probe.width, height: probe.height)
        }
        return probe
    }

    static func probe(_ b: [UInt8]) throws(Problem) -> ImageProbe {
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        func le24(_ i: Int) -> Int { le16(i) | Int(b[i + 2]) << 16 }
        func le32(_ i: Int) -> Int { le16(i) | le16(i + 2) << 16 }

        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard b.count >= 33, Array(b[12..<16]) == Array("IHDR".utf8) else { throw .truncated }
            // A complete PNG ends with its IEND chunk.
            guard b.count >= 45, Array(b[(b.count - 8)..<(b.count - 4)]) == Array("IEND".utf8) else { throw .truncated }
            return ImageProbe(format: .png, width: be32(16), height: be32(20))
        }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) {
            // Walk the markers to the first start-of-frame.
            var i = 2
            var size: (Int, Int)?
            while i + 9 < b.count {
                guard b[i] == 0xFF else { throw .badHeader }
                let marker = b[i + 1]
                if marker == 0xFF {
                    i += 1
                    continue
                }
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) {
                    i += 2
                    continue
                }
                let length = be16(i + 2)
                guard length >= 2 else { throw .badHeader }
                if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                    size = (be16(i + 7), be16(i + 5))
                    break
                }
                i += 2 + length
            }
            guard let (width, height) = size else { throw .truncated }
            // A complete JPEG ends with EOI (some writers add padding after it).
            guard b.suffix(64).indices.contains(where: { $0 + 1 < b.count && b[$0] == 0xFF && b[$0 + 1] == 0xD9 })
            else { throw .truncated }
            return ImageProbe(format: .jpeg, width: width, height: height)
        }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) {
            guard b.count >= 14 else { throw .truncated }
            guard b.last == 0x3B else { throw .truncated }  // the trailer
            return ImageProbe(format: .gif, width: le16(6), height: le16(8))
        }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) {
            guard b.count >= 30 else { throw .truncated }
            guard le32(4) + 8 <= b.count else { throw .truncated }
            let chunk = String(decoding: b[12..<16], as: UTF8.self)
            switch chunk {
            case "VP8 ":
                guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { throw .badHeader }
                return ImageProbe(format: .webp, width: le16(26) & 0x3FFF, height: le16(28) & 0x3FFF)
            case "VP8L":
                guard b[20] == 0x2F else { throw .badHeader }
                let bits = le32(21)
                return ImageProbe(format: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
            case "VP8X":
                return ImageProbe(format: .webp, width: le24(24) + 1, height: le24(27) + 1)
            default:
                throw .badHeader
            }
        }
        throw .notAnImage
    }
}

/// Every media limit in one place; each has a test that crosses it.
public enum MediaLimits {
    /// Largest upload accepted.
    public static let maxUploadBytes = 10 * 1024 * 1024
    /// Most pixels an image may declare (decompression bombs are refused before decoding).
    public static let maxPixels = 24_000_000
    /// Longest side an image may declare.
    public static let maxSide = 8192
    /// Stored pictures are scaled down to fit this on their long side.
    public static let storedSide = 2048
    /// Memes are rendered with this long side at most.
    public static let memeSide = 800
    /// Most frames an animated GIF may have.
    public static let maxGIFFrames = 300
    /// Most pixels an animated GIF's frames may cover together (frames × screen width × height):
    /// each is unpacked and drawn whole, so this bounds the work and memory of one upload or meme.
    public static let maxAnimationPixels = 25_000_000
    /// Longest caption part, in bytes.
    public static let maxCaptionBytes = 200
}
