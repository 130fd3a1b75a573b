import HearthProtocol

/// What must hold for any line a client sends. Run by the `irc-line` fuzzer (scripts/fuzz)
/// and, over its saved corpus, by the unit tests. Returns what went wrong, or nil.
public enum ProtocolFuzzChecks {
    public static func ircLine(_ bytes: [UInt8]) -> String? {
        guard let message = try? IRCMessage.parse(bytes) else { return nil }  // refused: fine
        if message.params.count > IRCLimits.maxParams { return "\(message.params.count) params" }
        if message.command.isEmpty { return "empty command" }
        // Relaying what was parsed must give one clean line another client parses back the same.
        let wire = message.serialized()
        if wire.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) {
            return "serialized form holds NUL, CR or LF: \(wire.debugDescription)"
        }
        let body = message.tags.isEmpty ? Substring(wire) : wire.drop { $0 != " " }.dropFirst()
        if body.utf8.count > IRCLimits.maxBodyBytes - 2 { return "serialized body is \(body.utf8.count) bytes" }
        let reparsed: IRCMessage
        do { reparsed = try IRCMessage.parse(wire) } catch {
            return "serialized form does not parse (\(error)): \(wire.debugDescription)"
        }
        // A body shortened to fit may differ in its last parameter; anything else must match.
        if message.bodyLength <= IRCLimits.maxBodyBytes - 2 && reparsed != message {
            return "round trip changed \(message) into \(reparsed)"
        }
        return nil
    }
}
