import Foundation
import HearthCrypto
import HearthKit
import HearthMedia

/// The sayings cookies are made of, in categories: Hearth's own (one strfile file per category
/// in Fortunes/: luck, wisdom, science, …) and the strfile fortune files an operator points at
/// (`--fortunes DIR`, e.g. /usr/share/games/fortunes): each file is a category named after it,
/// and each folder in DIR a category of all its files.
public struct FortuneCatalogue: Sendable {
    public struct Saying: Sendable, Equatable {
        /// Stable id: a hash of the text (the catalogue may grow between restarts).
        public let key: String
        public let text: String
        public let category: String
    }

    /// A category's sayings, as read from one file or folder.
    public struct Source: Sendable {
        public let category: String
        public let texts: [String]
        public init(category: String, texts: [String]) { (self.category, self.texts) = (category, texts) }
    }

    public let sayings: [Saying]
    private let byKey: [String: Int]
    /// Category name → its sayings' indexes, and the names in order.
    private let byCategory: [String: [Int]]
    public let categories: [String]

    /// The category of sayings given without one.
    public static let uncategorised = "sayings"
    /// What a category name may hold once folded (file names become such names).
    static let categoryLetters = Set("abcdefghijklmnopqrstuvwxyz0123456789-_")
    public static let maxCategoryLength = 32

    public init(_ texts: [String]) { self.init(sources: [Source(category: Self.uncategorised, texts: texts)]) }

    /// A saying found in several sources belongs to the first.
    public init(sources: [Source]) {
        var seen: Set<String> = []
        var sayings: [Saying] = []
        for source in sources {
            for text in source.texts {
                let key = String(Sodium.hashSecret("fortune/" + text).prefix(16))
                if seen.insert(key).inserted { sayings.append(Saying(key: key, text: text, category: source.category)) }
            }
        }
        self.sayings = sayings
        byKey = Dictionary(uniqueKeysWithValues: sayings.enumerated().map { ($1.key, $0) })
        byCategory = Dictionary(grouping: sayings.indices, by: { sayings[$0].category })
        categories = byCategory.keys.sorted()
    }

    public func saying(key: String) -> Saying? { byKey[key].map { sayings[$0] } }

    /// The sayings of `categories` (every saying when nil or empty).
    public func sayings(in categories: Set<String>?) -> [Saying] {
        guard let categories, !categories.isEmpty else { return sayings }
        return categories.sorted().flatMap { (byCategory[$0] ?? []).map { sayings[$0] } }
    }

    public func count(in category: String) -> Int { byCategory[category]?.count ?? 0 }

    /// A file or folder name as a category name ("Science.txt" → "science"), nil when none fits.
    public static func categoryName(_ fileName: String) -> String? {
        var name = fileName.lowercased()
        for suffix in [".txt", "-o"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        name = name.replacingOccurrences(of: " ", with: "-")
        guard !name.isEmpty, name.count <= maxCategoryLength, name.allSatisfy(categoryLetters.contains) else {
            return nil
        }
        return name
    }

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

    /// Hearth's own sayings, a category per file.
    public static func builtinSources() -> [Source] {
        guard let url = Bundle.module.url(forResource: "Fortunes", withExtension: nil) else { return [] }
        return sources(inDirectory: url.path)
    }

    /// Hearth's own sayings.
    public static func builtinTexts() -> [String] { builtinSources().flatMap(\.texts) }

    /// strfile databases in `directory`, a category per text file (but the `.dat` indexes) and
    /// per folder (its files together); offensive sets (the `off/` folder, files named `*-o`)
    /// only when asked for, in the category of their name.
    public static func sources(inDirectory directory: String, offensive: Bool = false) -> [Source] {
        let files = FileManager.default
        var result: [Source] = []
        func texts(_ path: String) -> [String]? {
            let name = (path as NSString).lastPathComponent
            guard !name.hasSuffix(".dat"), !name.hasSuffix(".u8"), !name.hasSuffix(".md"), !name.hasPrefix("."),
                offensive || !name.hasSuffix("-o"),
                let data = files.contents(atPath: path), let text = String(data: data, encoding: .utf8)
            else { return nil }
            return parse(text)
        }
        func add(_ folder: String, nested: Bool) {
            guard let names = try? files.contentsOfDirectory(atPath: folder) else { return }
            for name in names.sorted() {
                let path = (folder as NSString).appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard files.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    // One level of folders: each a category ("off" holds the offensive sets).
                    guard nested, !name.hasPrefix(".") else { continue }
                    if name == "off" {
                        if offensive { add(path, nested: false) }
                        continue
                    }
                    guard let category = categoryName(name), let inside = try? files.contentsOfDirectory(atPath: path)
                    else { continue }
                    let all = inside.sorted().compactMap { texts((path as NSString).appendingPathComponent($0)) }
                    result.append(Source(category: category, texts: all.flatMap { $0 }))
                } else if let category = categoryName(name), let found = texts(path) {
                    result.append(Source(category: category, texts: found))
                }
            }
        }
        add(directory, nested: true)
        return result
    }

    /// The sayings of `sources(inDirectory:)`, without their categories.
    public static func texts(inDirectory directory: String, offensive: Bool = false) -> [String] {
        sources(inDirectory: directory, offensive: offensive).flatMap(\.texts)
    }

    public static func load(directory: String?, offensive: Bool = false, builtin: Bool = true) -> FortuneCatalogue {
        Gazetteer.warmUp()  // where cookies are opened, read while the server starts
        return FortuneCatalogue(
            sources: (builtin ? builtinSources() : [])
                + (directory.map { sources(inDirectory: $0, offensive: offensive) } ?? []))
    }
}
