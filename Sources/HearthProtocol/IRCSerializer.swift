extension IRCMessage {
    /// The wire form without CR LF. The body (source, command, params) is kept within
    /// 510 bytes by shortening the last parameter at a character boundary, so a relayed
    /// message never breaks a client's parser.
    public func serialized() -> String {
        var tagText = ""
        if !tags.isEmpty {
            tagText = "@" + tags.map { tag in
                guard let value = tag.value, !value.isEmpty else { return tag.key }
                return tag.key + "=" + IRCMessage.escapeTagValue(value)
            }.joined(separator: ";") + " "
        }
        var head = ""
        if let source { head += ":" + source + " " }
        head += command
        var middle = ""
        // Text-bearing commands and numerics always mark their last parameter as trailing,
        // as most servers do; some clients rely on it.
        let alwaysTrailing = params.count > 1 || IRCMessage.textCommands.contains(command)
        for (index, param) in params.enumerated() {
            let isLast = index == params.count - 1
            if isLast && (alwaysTrailing || param.isEmpty || param.contains(" ") || param.hasPrefix(":")) {
                middle += " :" + param
            } else {
                middle += " " + param
            }
        }
        var body = head + middle
        let budget = IRCLimits.maxBodyBytes - 2
        if body.utf8.count > budget {
            body = IRCMessage.truncate(body, toBytes: budget)
        }
        return tagText + body
    }

    static let textCommands: Set<String> = ["PRIVMSG", "NOTICE", "PART", "QUIT", "KICK", "TOPIC", "ERROR", "PING", "PONG", "AWAY"]

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
