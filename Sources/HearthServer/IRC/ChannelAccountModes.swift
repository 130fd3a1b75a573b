import HearthProtocol

/// Channel modes for public channels: +R (only users logged in to an account may join), +M
/// (only they may speak) and +C (no CTCP but ACTION). MODE sets them as any flag; these are
/// the rules JOIN and messages check.
extension ChatState {
    /// +R keeps out a user without an account (an invitation lets them in, as with +i).
    func accountJoinRefusal(_ client: Client, _ channel: ChannelState, invited: Bool) -> (Numeric, String)? {
        guard channel.modes.flags.contains(.accountsJoin), self[client].account == nil, !invited else { return nil }
        return (.needReggedNick, "(+R) — only users logged in to an account may join")
    }

    /// +M silences a user without an account (unless voiced or an operator: `privileged`);
    /// +C refuses a CTCP other than ACTION (`/me`).
    func speakRefusal(_ client: Client, _ channel: ChannelState, text: String?, privileged: Bool) -> String? {
        if channel.modes.flags.contains(.accountsSpeak) && self[client].account == nil && !privileged {
            return "Cannot send to channel (+M) — only users logged in to an account may speak"
        }
        if let text, channel.modes.flags.contains(.noCTCP), Self.isCTCPButAction(text) {
            return "Cannot send to channel (+C) — no CTCP here but ACTION"
        }
        return nil
    }

    /// A CTCP request (\u{1}WORD ...) other than ACTION.
    static func isCTCPButAction(_ text: String) -> Bool {
        guard text.hasPrefix("\u{1}") else { return false }
        let word = text.dropFirst().prefix { $0 != " " && $0 != "\u{1}" }
        return word.uppercased() != "ACTION"
    }
}
