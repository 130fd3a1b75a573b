import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// When the chat itself asks for a push: a private message kept for an account with no device
/// connected, and a member's nick said in a channel while that member is away.
extension Core {
    /// Longest word looked up as a nick in a channel line (IRC's nick length).
    static let mentionWordLimit = IRCLimits.nickLength

    /// A private message was kept for `recipientKey`'s account (nobody of it was online).
    func pushKeptMessage(from sender: AccountRef, toKey recipientKey: String, text: String) {
        guard push != nil else { return }
        let store = self.store
        let line = IRCMessage(source: sender.name, command: "PRIVMSG", params: [recipientKey, text]).serialized()
        Task {
            guard let account = try? await store.account(nameKey: recipientKey) else { return }
            self.push(
                PushNote(accountID: account.id, kind: .dm, text: "\(sender.name): \(text)", link: "/chat"),
                ircLine: line)
        }
    }

    /// The away members of `channel` whose nick is a word of `text` (not the speaker, nor one who
    /// blocked the speaker), as notes with the IRC line and the channel's name; under the lock,
    /// only the line's words are looked up.
    func mentions(_ state: ChatState, _ client: Client, _ channel: ChannelState, text: String)
        -> [(PushNote, String, String)]
    {
        guard push != nil else { return [] }
        var found: [(PushNote, String, String)] = []
        var seen: Set<Int> = [client.id]
        let words = text.split { !($0.isLetter || $0.isNumber || "[]\\`_^{|}-".contains($0)) }
        for word in words where word.count <= Self.mentionWordLimit {
            guard let member = state.nicks[IRCNames.fold(String(word))], !seen.contains(member.id),
                channel.members[member.id] != nil, state[member].away != nil, let account = state[member].account,
                !state.isBlocked(client, by: member)
            else { continue }
            seen.insert(member.id)
            let line = IRCMessage(source: state[client].prefix, command: "PRIVMSG", params: [channel.name, text])
            found.append(
                (
                    PushNote(
                        accountID: account.id, kind: .mention,
                        text: "\(state[client].nick) in \(channel.name): \(text)",
                        link: "/chat"),
                    line.serialized(), channel.name
                ))
        }
        return found
    }
}
