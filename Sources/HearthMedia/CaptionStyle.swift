import Foundation

/// A caption colour: the 16 basic HTML colour names, plus orange, pink and purple-ish names
/// memegen users type, or `#rrggbb` / `rrggbb`.
public struct CaptionColor: Codable, Sendable, Equatable, CustomStringConvertible {
    public var r: Int, g: Int, b: Int

    public init(_ r: Int, _ g: Int, _ b: Int) { (self.r, self.g, self.b) = (r, g, b) }

    static let names: [String: CaptionColor] = [
        "white": .init(255, 255, 255), "black": .init(0, 0, 0), "red": .init(255, 0, 0), "lime": .init(0, 255, 0),
        "green": .init(0, 128, 0), "blue": .init(0, 0, 255), "yellow": .init(255, 255, 0), "aqua": .init(0, 255, 255),
        "cyan": .init(0, 255, 255), "fuchsia": .init(255, 0, 255), "magenta": .init(255, 0, 255),
        "silver": .init(192, 192, 192), "gray": .init(128, 128, 128), "grey": .init(128, 128, 128),
        "maroon": .init(128, 0, 0), "olive": .init(128, 128, 0), "purple": .init(128, 0, 128),
        "teal": .init(0, 128, 128), "navy": .init(0, 0, 128), "orange": .init(255, 165, 0),
        "pink": .init(255, 192, 203), "brown": .init(165, 42, 42),
    ]
    public static var knownNames: [String] { names.keys.sorted() }

    /// A name or a hex colour; nil when it is neither.
    public init?(parsing text: String) {
        let lower = text.lowercased()
        if let named = Self.names[lower] {
            self = named
            return
        }
        let hex = lower.hasPrefix("#") ? String(lower.dropFirst()) : lower
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let value = Int(hex, radix: 16) else { return nil }
        self.init((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
    }

    public var description: String { String(format: "#%02x%02x%02x", r, g, b) }
    var tuple: (Int, Int, Int) { (r, g, b) }
}

/// The caption faces a box may ask for by name: Debian's DejaVu (fonts-dejavu-core), with
/// memegen's font names as aliases of the closest one. `nil` paths mean the default caption font.
public enum CaptionFonts {
    static let dejavu = "/usr/share/fonts/truetype/dejavu/"
    static let faces: [String: String?] = [
        "default": nil, "sans": dejavu + "DejaVuSans-Bold.ttf", "serif": dejavu + "DejaVuSerif-Bold.ttf",
        "mono": dejavu + "DejaVuSansMono-Bold.ttf",
    ]
    /// memegen's names (api.memegen.link/fonts) mapped to the face that looks most like them.
    static let aliases = [
        "impact": "default", "thick": "default", "titilliumweb": "default", "notosans": "sans",
        "kalam": "sans", "segoe": "sans", "hgminchob": "serif", "dejavu": "default",
    ]

    /// The names that work here (installed), for error messages and `/templates`.
    public static var available: [String] {
        faces.filter { $0.value.map { FileManager.default.fileExists(atPath: $0) } ?? true }.keys.sorted()
    }

    /// The canonical name for `name` (an alias or a face), or nil when there is no such face here.
    public static func resolve(_ name: String) -> String? {
        let lower = name.lowercased()
        let face = aliases[lower] ?? lower
        return available.contains(face) ? face : nil
    }

    /// `fonts` with its primary face replaced by the named one (the fallbacks stay).
    public static func fontSet(_ name: String?, base fonts: FontSet) -> FontSet {
        guard let name, let face = faces[name], let path = face else { return fonts }
        return FontSet(primary: path, fallback: fonts.fallback, emoji: fonts.emoji)
    }
}
