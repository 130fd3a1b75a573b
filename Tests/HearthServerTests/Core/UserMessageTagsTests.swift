import Foundation
import HearthKit
import HearthProtocol
import NIOCore
import Testing

@testable import HearthServer

/// A user message's delivery rules are written once (`UserMessageTags`): the fast relay's bytes
/// and the full path's `IRCMessage`, serialised per receiver, come from the same tags.
@Suite struct UserMessageTagsTests {
    static let masks = (0..<8).map { TagMask(rawValue: UInt8($0)) }  // time, message-tags, account-tag

    @Test func theRelayWritesWhatTheSerializerWritesForEveryReceiver() {
        let text = Array("hi there; ok".utf8)
        for wanted in Self.masks {
            for isBot in [false, true] {
                for account in [nil, AccountRef(id: 1, name: "ann")] {
                    let tags = UserMessageTags(isBot: isBot, account: account, wanted: wanted, keep: false)
                    let item = Outbox.Item(
                        IRCMessage(
                            tags: tags.ircTags(), source: "ann!~a@host", command: "PRIVMSG",
                            params: ["bob", "hi there; ok"]))
                    for receiver in Self.masks {
                        var relayed = ByteBuffer()
                        text.withUnsafeBytes { bytes in
                            RelayedMessage(
                                tags: tags, source: "ann!~a@host", command: .privmsg, target: "bob", text: bytes
                            )
                            .write(into: &relayed, variant: UserMessageTags.variant(tags.mask, for: receiver))
                        }
                        let serialized = item.ircBytes(variant: UserMessageTags.variant(item.mask, for: receiver))
                        #expect(relayed == serialized, "wanted \(wanted.rawValue), receiver \(receiver.rawValue)")
                    }
                }
            }
        }
    }

    @Test func onlyWantedTagsAreMadeAndHistoryGetsAMsgidWhoeverSeesIt() {
        let none = UserMessageTags(isBot: true, account: AccountRef(id: 1, name: "ann"), wanted: [], keep: false)
        #expect(none.mask.isEmpty && none.msgid == nil && none.ircTags().isEmpty)
        let kept = UserMessageTags(isBot: false, account: nil, wanted: [], keep: true)
        #expect(kept.msgid != nil && kept.ircTags().isEmpty)
        #expect(UserMessageTags.wanted(by: [.serverTime], sender: [.accountTag], echo: false) == [.serverTime])
        #expect(
            UserMessageTags.wanted(by: [.serverTime], sender: [.accountTag], echo: true) == [.serverTime, .accountTag])
    }
}
