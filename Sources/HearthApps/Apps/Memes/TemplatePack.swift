import Foundation
import HearthMedia
import Yams

/// memegen's template folders, read for `hearth templates import DIR`: one folder per template,
/// named for its id, holding a `config.yml` (name, source, keywords, example and a `text:` list of
/// boxes) and a `default.jpg|png|gif|webp` background. A box's `anchor_x`/`anchor_y` is its top
/// left corner and `scale_x`/`scale_y` its size, as fractions of the picture — Hearth's own
/// `CaptionBox` measures; `align` is the text's alignment across the box. What Hearth does not draw
/// (angle, per-box letter case, timing, overlays) is left out, and an unknown colour or font is the default.
public enum TemplatePack {
    /// Most template folders one import reads (memegen has about 210).
    public static let maxTemplates = 1000
    /// Largest background picture file (an upload's limit).
    public static let maxPictureBytes = MediaLimits.maxUploadBytes
    /// Most text boxes a template may have (memegen's busiest has 8).
    public static let maxBoxes = 8
    /// Largest `config.yml`.
    public static let maxConfigBytes = 64 * 1024
    /// Keywords and example captions kept per template, and their longest.
    static let maxWords = 20
    static let maxWordLength = 100
    static let pictureNames = ["default.jpg", "default.jpeg", "default.png", "default.gif", "default.webp"]

    /// One folder as Hearth keeps it.
    public struct Entry: Sendable {
        public var name: String
        public var title: String?
        public var source: String?
        public var keywords: [String]
        public var example: [String]
        public var boxes: [CaptionBox]
        public var picture: URL
    }

    /// Why a folder (or the whole directory) was not read.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// The template folders in `directory`, by name (hidden ones left out).
    public static func folders(in directory: URL) throws -> [URL] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch {
            throw Problem("cannot read the folder \(directory.path)")
        }
        let folders = names.sorted().filter { !$0.hasPrefix(".") }.map { directory.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
        if folders.isEmpty { throw Problem("\(directory.path) has no template folders (one folder per template)") }
        if folders.count > maxTemplates {
            throw Problem(
                "\(directory.path) has \(folders.count) template folders; one import takes at most \(maxTemplates)")
        }
        return folders
    }

    /// One folder read and checked (its picture is only found and sized here, not decoded).
    /// `nameProblem` says what is wrong with a name (the rules of `TemplateNames`).
    public static func read(_ folder: URL, nameProblem: (String) -> String?) throws -> Entry {
        let name = folder.lastPathComponent.lowercased()
        if let problem = nameProblem(name) { throw Problem(problem) }
        let configFile = folder.appendingPathComponent("config.yml")
        guard let config = FileManager.default.contents(atPath: configFile.path) else {
            throw Problem("it has no config.yml")
        }
        guard config.count <= maxConfigBytes else {
            throw Problem("its config.yml has \(config.count) bytes; at most \(maxConfigBytes)")
        }
        let parsed: Config
        do { parsed = try YAMLDecoder().decode(Config.self, from: config) } catch {
            throw Problem("its config.yml is not a memegen template: \(Self.reason(error))")
        }
        let texts = parsed.text ?? [Config.Text(), Config.Text(anchor_y: 0.8)]
        guard !texts.isEmpty else { throw Problem("its config.yml has no text boxes") }
        guard texts.count <= maxBoxes else {
            throw Problem("it has \(texts.count) text boxes; a template may have at most \(maxBoxes)")
        }
        let boxes = try texts.enumerated().map { index, text in
            guard let box = text.box else { throw Problem("text box \(index + 1) lies outside the picture") }
            return box
        }
        return Entry(
            name: name, title: parsed.name.flatMap(clean), source: parsed.source.flatMap(clean),
            keywords: words(parsed.keywords), example: words(parsed.example, keepBlank: true), boxes: boxes,
            picture: try picture(in: folder))
    }

    static func picture(in folder: URL) throws -> URL {
        let candidates = pictureNames.map { folder.appendingPathComponent($0) }
        guard let file = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw Problem("it has no background picture (default.jpg, .png, .gif or .webp)")
        }
        let size = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        guard size <= maxPictureBytes else {
            throw Problem(
                "its picture \(file.lastPathComponent) has \(size) bytes; at most \(maxPictureBytes) "
                    + "(\(maxPictureBytes / 1024 / 1024) MiB)")
        }
        return file
    }

    static func clean(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(maxWordLength))
    }

    /// memegen lists may hold empty entries (`keywords: [ null ]`); example captions keep blanks
    /// in place (a blank top line is how a bottom-only example is written).
    static func words(_ list: [String?]?, keepBlank: Bool = false) -> [String] {
        let words = (list ?? []).compactMap { word -> String? in
            guard let word, let kept = clean(word) else { return keepBlank ? "" : nil }
            return kept
        }
        return Array(words.prefix(maxWords))
    }

    static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "\($0 + 1)" } ?? $0.stringValue }
            return (path.isEmpty ? "" : path.joined(separator: ".") + ": ") + context.debugDescription
        default: return "\(error)"
        }
    }

    /// The parts of memegen's `config.yml` Hearth uses (see memegen's app/models/template.py and text.py).
    struct Config: Decodable {
        var name: String?
        var source: String?
        var keywords: [String?]?
        var example: [String?]?
        var text: [Text]?

        // swift-format-ignore: AlwaysUseLowerCamelCase
        struct Text: Decodable {
            var color: String? = nil
            var font: String? = nil
            var anchor_x: Double? = nil
            var anchor_y: Double? = nil
            var scale_x: Double? = nil
            var scale_y: Double? = nil
            var align: String? = nil

            /// The box, moved and cut to lie inside the picture (a few of memegen's reach a little
            /// past an edge); nil when nothing of it is left inside.
            var box: CaptionBox? {
                let (x, y) = (anchor_x ?? 0, anchor_y ?? 0)
                let (w, h) = (scale_x ?? 1, scale_y ?? 0.2)
                guard [x, y, w, h].allSatisfy(\.isFinite) else { return nil }
                let left = max(0, x)
                let top = max(0, y)
                let right = min(1, x + w)
                let bottom = min(1, y + h)
                guard right - left >= 0.02, bottom - top >= 0.02 else { return nil }
                let fill = color.flatMap(CaptionColor.init(parsing:))
                // Dark letters get no outline (memegen draws them with a faint light one).
                let dark = fill.map { ($0.r * 299 + $0.g * 587 + $0.b * 114) / 1000 < 128 } ?? false
                return CaptionBox(
                    left, top, right - left, bottom - top, style: dark ? .dark : .outline,
                    font: font.flatMap(CaptionFonts.resolve).flatMap { $0 == "default" ? nil : $0 },
                    color: fill == CaptionColor(255, 255, 255) ? nil : fill,
                    textAlign: align.flatMap { $0 == "center" ? nil : CaptionBox.TextAlign(rawValue: $0) })
            }
        }
    }
}
