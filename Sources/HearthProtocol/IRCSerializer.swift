extension IRCMessage {
    /// The wire form without CR LF. The body (source, command, params) is kept within
    /// 510 bytes by shortening the last parameter at a character boundary, so a relayed
    /// message never breaks a client's parser.
    public func serialized() -> String {
        var tagText = ""
        if !tags.isEmpty {
            tagText =
                "@"
                + tags.map { tag in
                    guard let value = tag.value, !value.isEmpty else { return tag.key }
                    return tag.key + "=" + IRCMessage.escapeTagValue(value)
                }.joined(separator: ";") + " "
        }
        var body = ""
        body.reserveCapacity(32 + (source?.utf8.count ?? 0) + params.reduce(0) { $0 + $1.utf8.count + 2 })
        if let source {
            body += ":"
            body += source
            body += " "
        }
        body += command
        for (index, param) in params.enumerated() {
            body += isTrailing(index) ? " :" : " "
            body += param
        }
        let budget = IRCLimits.maxBodyBytes - 2
        if body.utf8.count > budget {
            body = IRCMessage.truncate(body, toBytes: budget)
        }
        return tags.isEmpty ? body : tagText + body
    }

    /// Whether parameter `index` is written with a leading ':'. Text-bearing commands and
    /// numerics always mark their last parameter as trailing, as most servers do; some
    /// clients rely on it.
    public func isTrailing(_ index: Int) -> Bool {
        guard index == params.count - 1 else { return false }
        let param = params[index]
        let forced =
            (params.count > 1 && !IRCMessage.endsWithToken(command)) || IRCMessage.textCommands.contains(command)
        return forced || param.isEmpty
            || param.utf8.contains(32) || param.utf8.first == 58
    }

    /// Bytes of the body (source, command, parameters) as `serialized()` writes it, before
    /// any shortening.
    public var bodyLength: Int {
        var length = (source.map { $0.utf8.count + 2 } ?? 0) + command.utf8.count
        for index in params.indices { length += params[index].utf8.count + (isTrailing(index) ? 2 : 1) }
        return length
    }

    /// IRCv3 commands whose last parameter is a token, never written as trailing unless it must be.
    static let plainLastParam: Set<String> = ["BATCH", "CHATHISTORY", "MARKREAD", "ACK"]

    /// Checked for every message written: skip the set lookup unless the first letter could match.
    static func endsWithToken(_ command: String) -> Bool {
        switch command.utf8.first {
        case UInt8(ascii: "A"), UInt8(ascii: "B"), UInt8(ascii: "C"), UInt8(ascii: "M"):
            return plainLastParam.contains(command)
        default: return false
        }
    }

    static let textCommands: Set<String> = [
        "PRIVMSG", "NOTICE", "PART", "QUIT", "KICK", "TOPIC", "ERROR", "PING", "PONG", "AWAY",
    ]

    /// Cuts a string to at most `limit` UTF-8 bytes without splitting a character.
    public static func truncate(_ text: String, toBytes limit: Int) -> String {
        if text.utf8.count <= limit { return text }
        var result = ""
        var used = 0
        for ch in text {
            let size = ch.utf8.count
            if used + size > limit { break }
            result.append(ch)
            used += size
        }
        return result
    }
}
