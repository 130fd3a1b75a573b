import Logging
import NIOConcurrencyHelpers

/// Log lines of a test server, as text: level, message, metadata and attached error.
public final class LogCapture: Sendable {
    public init() {}

    private let lines = NIOLockedValueBox<[String]>([])
    public var text: String { lines.withLockedValue { $0.joined(separator: "\n") } }
    public var count: Int { lines.withLockedValue { $0.count } }

    public struct Handler: LogHandler {
        let capture: LogCapture
        public var logLevel: Logger.Level = .trace
        public var metadata: Logger.Metadata = [:]
        public init(capture: LogCapture) { self.capture = capture }
        public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        public func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            var line = "\(event.level) \(event.source): \(event.message)"
            if !all.isEmpty {
                line += " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            }
            if let error = event.error { line += " error=\(error)" }
            capture.lines.withLockedValue { $0.append(line) }
        }
    }
}
