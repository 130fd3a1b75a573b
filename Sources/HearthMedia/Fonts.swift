import Foundation

/// The caption fonts: a bold condensed face for most text, a fallback for the scripts it
/// lacks (Chinese, Japanese, Korean) and colour emoji. All come from Debian packages the setup
/// script installs.
public struct FontSet: Sendable {
    public let primary: String
    public let fallback: String?
    /// Colour emoji (`EmojiFont`), drawn by FreeType rather than libgd.
    public let emoji: EmojiFont?

    public static let primaryCandidates = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    ]
    public static let fallbackCandidates = [
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/truetype/noto/NotoSansCJK-Bold.ttc",
    ]

    public init(primary: String, fallback: String?, emoji: EmojiFont? = nil) {
        self.primary = primary
        self.fallback = fallback
        self.emoji = emoji
    }

    /// The installed fonts, or nil when not even the primary one is there.
    public static func installed() -> FontSet? {
        let files = FileManager.default
        guard let primary = primaryCandidates.first(where: { files.fileExists(atPath: $0) }) else { return nil }
        return FontSet(
            primary: primary, fallback: fallbackCandidates.first { files.fileExists(atPath: $0) },
            emoji: EmojiFont.candidates.lazy.filter { files.fileExists(atPath: $0) }.compactMap(EmojiFont.open).first)
    }

    /// Characters the primary font has no glyphs for.
    static func needsFallback(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0x2FDF, 0x3000...0x303F, 0x3040...0x30FF, 0x3100...0x31FF,
            0x3200...0x4DBF, 0x4E00...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFFEF, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    func font(for scalar: Unicode.Scalar) -> String {
        if let fallback, Self.needsFallback(scalar) { return fallback }
        return primary
    }
}
