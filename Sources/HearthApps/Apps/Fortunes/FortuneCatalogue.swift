import Foundation
import HearthCrypto
import HearthKit

/// The sayings cookies are made of: Hearth's own (Fortunes/fortunes.txt) and any strfile
/// fortune files an operator points at (`--fortunes DIR`, e.g. /usr/share/games/fortunes).
public struct FortuneCatalogue: Sendable {
    public struct Saying: Sendable, Equatable {
        /// Stable id: a hash of the text (the catalogue may grow between restarts).
        public let key: String
        public let text: String
    }

    public let sayings: [Saying]
    private let byKey: [String: Int]

    public init(_ texts: [String]) {
        var seen: Set<String> = []
        var sayings: [Saying] = []
        for text in texts {
            let key = String(Sodium.hashSecret("fortune/" + text).prefix(16))
            if seen.insert(key).inserted { sayings.append(Saying(key: key, text: text)) }
        }
        self.sayings = sayings
        byKey = Dictionary(uniqueKeysWithValues: sayings.enumerated().map { ($1.key, $0) })
    }

    public func saying(key: String) -> Saying? { byKey[key].map { sayings[$0] } }

    /// Longest saying taken from a strfile database (longer ones are skipped).
    public static let maxSayingLength = 400

    /// strfile source text: entries separated by lines holding only `%`.
    public static func parse(_ text: String) -> [String] {
        var entries: [String] = []
        var current: [Substring] = []
        func flush() {
            let entry = current.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            if !entry.isEmpty && entry.count <= maxSayingLength
                && !entry.unicodeScalars.contains(where: { $0.value < 32 && $0 != "\n" && $0 != "\t" })
            {
                entries.append(entry.replacingOccurrences(of: "\t", with: "    "))
            }
            current = []
        }
        // "\r\n" is one Character in Swift: normalise line ends before splitting.
        for line in text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            if line == "%" { flush() } else { current.append(line) }
        }
        flush()
        return entries
    }

    /// Hearth's own sayings.
    public static func builtinTexts() -> [String] {
        guard let url = Bundle.module.url(forResource: "fortunes", withExtension: "txt", subdirectory: "Fortunes"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return parse(text)
    }

    /// strfile databases in `directory`: every text file but the `.dat` indexes; offensive
    /// sets (the `off/` folder, files named `*-o`) only when asked for.
    public static func texts(inDirectory directory: String, offensive: Bool = false) -> [String] {
        let files = FileManager.default
        var result: [String] = []
        var paths: [String] = []
        if let names = try? files.contentsOfDirectory(atPath: directory) {
            paths += names.sorted().map { (directory as NSString).appendingPathComponent($0) }
        }
        if offensive, let names = try? files.contentsOfDirectory(atPath: directory + "/off") {
            paths += names.sorted().map { (directory as NSString).appendingPathComponent("off/" + $0) }
        }
        for path in paths {
            let name = (path as NSString).lastPathComponent
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !name.hasSuffix(".dat"), !name.hasSuffix(".u8"), !name.hasPrefix("."),
                offensive || !name.hasSuffix("-o"),
                let data = files.contents(atPath: path), let text = String(data: data, encoding: .utf8)
            else { continue }
            result += parse(text)
        }
        return result
    }

    public static func load(directory: String?, offensive: Bool = false, builtin: Bool = true) -> FortuneCatalogue {
        FortuneCatalogue(
            (builtin ? builtinTexts() : []) + (directory.map { texts(inDirectory: $0, offensive: offensive) } ?? []))
    }
}
