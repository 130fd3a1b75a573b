import Foundation
import Logging
import Synchronization

/// Where the server's log lines go and how they look: `text` (one readable line) or `json`
/// (one object per line, for journald exporters, Loki, jq). The level is shared by every
/// logger made from one `LogOutput`, so a reload changes it everywhere at once.
public final class LogOutput: Sendable {
    public enum Format: String, Sendable, CaseIterable { case text, json }

    let format: Format
    private let level: Atomic<UInt8>
    private let write: @Sendable (String) -> Void

    public init(
        format: Format, level: Logger.Level,
        write: @escaping @Sendable (String) -> Void = { line in
            FileHandle.standardError.write(Data(line.utf8))
        }
    ) {
        self.format = format
        self.level = Atomic(Self.code(level))
        self.write = write
    }

    public var logLevel: Logger.Level {
        get { Self.levels[Int(level.load(ordering: .relaxed))] }
        set { level.store(Self.code(newValue), ordering: .relaxed) }
    }

    static let levels = Logger.Level.allCases
    static func code(_ level: Logger.Level) -> UInt8 { UInt8(levels.firstIndex(of: level) ?? 2) }

    public func handler(label: String) -> any LogHandler { Handler(label: label, output: self) }

    struct Handler: LogHandler {
        let label: String
        let output: LogOutput
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        var logLevel: Logger.Level {
            get { output.logLevel }
            set { output.logLevel = newValue }
        }

        func log(event: LogEvent) {
            var all = metadata
            if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
            if let more = event.metadata { all.merge(more) { $1 } }
            output.write(output.line(label: label, level: event.level, message: "\(event.message)", metadata: all))
        }
    }

    func line(label: String, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        let time = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        let keys = metadata.keys.sorted()
        switch format {
        case .text:
            let extra = keys.map { " \($0)=\(metadata[$0]!)" }.joined()
            return "\(time) \(level) \(label): \(message)\(extra)\n"
        case .json:
            var fields = [("time", time), ("level", level.rawValue), ("label", label), ("message", message)]
            fields += keys.map { ($0, "\(metadata[$0]!)") }
            return "{" + fields.map { "\(Self.quoted($0)):\(Self.quoted($1))" }.joined(separator: ",") + "}\n"
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
