import Foundation

/// memegen's URL API (api.memegen.link): `/images/TEMPLATE/LINE/LINE.EXT?width=&height=&font=&color=&layout=`,
/// parsed into what to draw. Text segments use memegen's escapes, so its clients' URLs work as they are.
public struct MemeURL: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable {
        case png, jpg, gif, webp
        public var imageFormat: ImageFormat {
            switch self {
            case .png: return .png
            case .jpg: return .jpeg
            case .gif: return .gif
            case .webp: return .webp
            }
        }
    }

    public var template: String
    public var lines: [String]
    public var format: Format
    public var width: Int?
    public var height: Int?
    /// A canonical `CaptionFonts` name.
    public var font: String?
    public var color: CaptionColor?
    public var outline: CaptionColor?
    /// `layout=top`: every line stacked from the top instead of in the template's boxes.
    public var layoutTop = false

    /// Limits of a request (bad input gets a 400 naming the limit).
    public static let maxSide = 1600
    public static let minSide = 16
    public static let maxLines = 10

    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        init(_ text: String) { description = text }
    }

    /// `path` is what follows `/images/` (percent-decoded segment by segment here); `query` the
    /// options by name.
    public static func parse(path: String, query: [String: String]) throws(Problem) -> MemeURL {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let last = segments.popLast(), let dot = last.lastIndex(of: ".") else {
            throw Problem("name the picture type: /images/TEMPLATE/top/bottom.png (png, jpg, gif or webp)")
        }
        let ext = last[last.index(after: dot)...].lowercased()
        guard let format = Format(rawValue: ext == "jpeg" ? "jpg" : ext) else {
            throw Problem("\"\(ext)\" is not a picture type here: use png, jpg, gif or webp")
        }
        segments.append(String(last[..<dot]))
        let decoded = segments.map { $0.removingPercentEncoding ?? $0 }
        guard let template = decoded.first, !template.isEmpty else {
            throw Problem("name a template: /templates lists them")
        }
        let lines = decoded.dropFirst().map(unescape)
        guard lines.count <= maxLines else { throw Problem("at most \(maxLines) lines of text") }
        if let long = lines.first(where: { $0.utf8.count > MediaLimits.maxCaptionBytes }) {
            throw Problem("\"\(long.prefix(20))…\" is too long: a line may have \(MediaLimits.maxCaptionBytes) bytes")
        }
        var url = MemeURL(template: template.lowercased(), lines: lines, format: format)
        url.width = try side(query["width"], "width")
        url.height = try side(query["height"], "height")
        if let name = query["font"], !name.isEmpty {
            guard let font = CaptionFonts.resolve(name) else {
                throw Problem(
                    "there is no font \"\(name)\" here: \(CaptionFonts.available.joined(separator: ", "))")
            }
            url.font = font
        }
        if let colors = query["color"], !colors.isEmpty {
            let parts = colors.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard parts.count <= 2, let fill = CaptionColor(parsing: parts[0]) else {
                throw Problem("color is a name or hex (#ff0000), optionally with an outline: color=yellow,black")
            }
            url.color = fill
            if parts.count == 2 {
                guard let outline = CaptionColor(parsing: parts[1]) else {
                    throw Problem("\"\(parts[1])\" is not a colour name or hex (#000000)")
                }
                url.outline = outline
            }
        }
        switch query["layout"]?.lowercased() {
        case nil, "", "default": break
        case "top": url.layoutTop = true
        case let other?: throw Problem("layout is default or top, not \"\(other)\"")
        }
        return url
    }

    private init(template: String, lines: [String], format: Format) {
        (self.template, self.lines, self.format) = (template, lines, format)
    }

    static func side(_ text: String?, _ name: String) throws(Problem) -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard let value = Int(text), (minSide...maxSide).contains(value) else {
            throw Problem("\(name) is a number of pixels from \(minSide) to \(maxSide)")
        }
        return value
    }

    static let tildeEscapes: [Character: String] = [
        "q": "?", "a": "&", "p": "%", "h": "#", "s": "/", "b": "\\", "l": "<", "g": ">", "n": " ",
    ]

    /// What `escape` writes for each character that needs it: the tilde escapes read backwards.
    static let escapes: [Character: String] = tildeEscapes.filter { $0.key != "n" }.reduce(
        into: ["_": "__", "-": "--", " ": "_", "\"": "''"]
    ) { $0[Character($1.value)] = "~\($1.key)" }

    /// memegen's escapes: `_` and `-` a space, `__` an underscore, `--` a dash, `''` a double
    /// quote, `~q ~a ~p ~h ~s ~b ~l ~g` for `? & % # / \ < >` (and `~n`, a new line, a space here).
    public static func unescape(_ segment: String) -> String {
        var out = ""
        var chars = segment[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            let next = chars.first
            switch (c, next) {
            case ("_", "_"), ("-", "-"):
                out.append(c)
                chars = chars.dropFirst()
            case ("_", _), ("-", _): out.append(" ")
            case ("'", "'"):
                out.append("\"")
                chars = chars.dropFirst()
            case ("~", let n?) where tildeEscapes[n] != nil:
                out += tildeEscapes[n]!
                chars = chars.dropFirst()
            default: out.append(c)
            }
        }
        return out.trimmingCharacters(in: .whitespaces)
    }

    /// The escaped form of `text`, for the example URLs `/templates` lists.
    public static func escape(_ text: String) -> String {
        guard !text.isEmpty else { return "_" }
        let out = text.map { Self.escapes[$0] ?? String($0) }.joined()
        return out.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? out
    }

    /// The caption boxes for `boxes` with this URL's options applied.
    public func boxes(_ boxes: [CaptionBox]) -> [CaptionBox] {
        var result = boxes
        if layoutTop {
            let count = max(1, lines.count)
            let h = min(0.24, 0.96 / Double(count))
            result = (0..<count).map { CaptionBox(0.04, 0.02 + Double($0) * h, 0.92, h, align: .top) }
        }
        for i in result.indices {
            result[i].font = font
            if let color { result[i].color = color }
            if let outline { result[i].outline = outline }
        }
        return result
    }
}
