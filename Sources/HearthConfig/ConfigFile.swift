import Foundation
import Yams

/// The YAML file's own checks, which swift-configuration does not make: every key must be one
/// `hearth serve` knows (a typo must not pass silently), and each key's line is kept so an
/// error can name it.
public struct ConfigFile: Sendable {
    public let path: String
    /// Key → line (from 1).
    public let lines: [String: Int]

    /// A problem in the file, with where it is.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let path: String
        public let line: Int?
        public let text: String
        public var description: String { line.map { "\(path):\($0): \(text)" } ?? "\(path): \(text)" }
    }

    /// Reads and checks the file's shape: YAML, a mapping at the top, known keys only.
    public static func read(_ path: String) throws -> (ConfigFile, problems: [Problem]) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw Problem(path: path, line: nil, text: "cannot read the file (\(Self.reason(error)))")
        }
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch let error as YamlError {
            throw Problem(path: path, line: Self.line(of: error), text: "not valid YAML: \(Self.message(of: error))")
        }
        guard let root else { return (ConfigFile(path: path, lines: [:]), []) }  // an empty file
        guard case .mapping(let top) = root else {
            throw Problem(path: path, line: root.mark?.line, text: "the file must be a mapping of `key: value` lines")
        }
        var lines: [String: Int] = [:]
        var problems: [Problem] = []
        for (key, value) in top {
            let name = key.string ?? "\(key)"
            let line = key.mark?.line
            guard let known = ServeKeys.named(name) else {
                let hint = Self.closest(to: name).map { " (did you mean \($0)?)" } ?? ""
                problems.append(Problem(path: path, line: line, text: "unknown key \(name)\(hint)"))
                continue
            }
            if value.mapping != nil || (value.sequence != nil && known.kind != .strings) {
                problems.append(Problem(path: path, line: line, text: "\(name): expected \(known.kind.rawValue)"))
            }
            lines[name] = line
        }
        return (ConfigFile(path: path, lines: lines), problems)
    }

    /// The known key nearest a misspelt one, if it is near enough to be a typo.
    static func closest(to name: String) -> String? {
        let scored = ServeKeys.all.map { ($0.name, distance(name, $0.name)) }.min { $0.1 < $1.1 }
        guard let (best, score) = scored, score <= max(2, name.count / 3) else { return nil }
        return best
    }

    /// Levenshtein distance (small strings only).
    static func distance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }

    static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        case .duplicatedKeysInMapping(_, let context): context.mark.line
        default: nil
        }
    }

    static func message(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): problem
        case .duplicatedKeysInMapping(let duplicates, _): "a key given twice: " + duplicates.joined(separator: ", ")
        default: "\(error)"
        }
    }

    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let posix = error.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return error.localizedDescription
    }
}
