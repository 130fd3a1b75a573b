import Foundation
import HearthKit
import HearthProtocol
import Testing

@testable import HearthServer

@Suite struct NetworkMessageTests {
    static let ann = NetworkUser(node: "a", session: 7)

    /// One of every kind (and the variants a kind has).
    static let samples: [NetworkMessage] = [
        .hello(server: "irc.a.example"),
        .announced(to: "b", server: "irc.a.example"),
        .user(
            ann,
            NetworkProfile(
                nick: "ann", user: "ann", host: "cloak.example", server: "irc.a.example", realname: "Ann A",
                account: AccountRef(id: 42, name: "ann"))),
        .user(
            ann, NetworkProfile(nick: "guest", user: "u", host: "h", server: "s", realname: "", account: nil)),
        .nick(ann, nick: "ann2"),
        .quit(ann, reason: "Gone to lunch"),
        .kill(ann, reason: "Killed (root (spam))"),
        .join(ann, channel: "#tea", op: true, history: "#tea/3"),
        .part(
            ann, channel: "#tea", line: IRCMessage(source: "ann!ann@h", command: "PART", params: ["#tea", "bye now"])),
        .message(
            ann, target: "#tea",
            line: IRCMessage(
                tags: [IRCTag("time", "2026-11-27T05:00:00.000Z"), IRCTag("+draft/reply", "a;b c")],
                source: "ann!ann@h", command: "PRIVMSG", params: ["#tea", "hi: there"])),
        .message(
            NetworkUser(node: "a", session: 0), target: "bob",
            line: IRCMessage(source: "hearth!bot@h", command: "NOTICE", params: ["bob", "an upload arrived"])),
        .edit(
            ann, history: "pm:7:9",
            line: IRCMessage(
                tags: [
                    IRCTag("msgid", "m2"), IRCTag("draft/target-msgid", "m1"), IRCTag("draft/edit-text", "hi; all"),
                ],
                source: "ann!ann@h", command: "EDIT", params: ["bob"])),
        .redact(
            ann, history: "#tea/3",
            line: IRCMessage(source: "ann!ann@h", command: "REDACT", params: ["#tea", "m1", "typo"])),
        .command(ann, line: IRCMessage(command: "MODE", params: ["#tea", "+o-v", "bob", "cy"])),
        .effect(ann, .joinChannels(accountID: 42, names: ["#a", "#b"])),
        .effect(ann, .remind(accountID: 42, at: Date(timeIntervalSince1970: 1_800_000_000), text: "tea")),
        .channel(
            NetworkChannel(
                name: "#tea", topic: "Tea time", topicSetBy: "ann!ann@h",
                modes: ChannelModes(flags: [.noOutside, .topicLock], key: "sesame", limit: 5),
                lists: [.init(mode: "b", mask: "*!*@bad", setBy: "ann", at: 1_700_000_000.5)])),
        .channel(NetworkChannel(name: "#new", topic: "", topicSetBy: "", modes: ChannelModes(), lists: nil)),
        .channelState(
            ann,
            NetworkChannel(
                name: "#tea", topic: "Tea", topicSetBy: "ann!ann@h", modes: ChannelModes(flags: [.moderated], key: "k"),
                lists: [], topicSetAt: 1_700_000_000, prefixes: ["a 7": "ov", "b 2": ""], version: 12)),
        .nodeGone(node: "b", reason: "b was lost"),
    ]

    @Test func everyKindRoundTrips() throws {
        for message in Self.samples {
            let envelope = NetworkEnvelope(from: "a", message: message)
            let json = try envelope.json()
            #expect(json.contains("\"v\":1"))
            #expect(try NetworkEnvelope.decode(json) == envelope, "\(json)")
        }
    }

    /// Version 1 is also what the nodes before it wrote: the same fields without `v`.
    @Test func anEventWithoutAVersionIsOfVersionOne() throws {
        for message in Self.samples {
            let envelope = NetworkEnvelope(from: "a", message: message)
            let json = try envelope.json()
            // The encoder's key order is not fixed: `v` may come last.
            let old = json.replacingOccurrences(of: "\"v\":1,", with: "")
                .replacingOccurrences(of: ",\"v\":1}", with: "}")
            #expect(old != json && !old.contains("\"v\""))
            #expect(try NetworkEnvelope.decode(old) == envelope, "\(old)")
        }
    }

    /// Written by the untyped events this replaced (kept literally).
    @Test func readsWhatTheVersionBeforeWrote() throws {
        let join = ##"{"kind":"join","from":"a","node":"a","session":7,"target":"#tea","op":false,"history":"#tea"}"##
        #expect(
            try NetworkEnvelope.decode(join)
                == NetworkEnvelope(from: "a", message: .join(Self.ann, channel: "#tea", op: false, history: "#tea")))
        let channel =
            ##"{"kind":"channel","from":"a","node":"a","session":0,"target":"#tea","text":"hi","user":"ann","##
            + ##""line":"+ntkl key 10","lists":[{"mode":"e","mask":"m:x","setBy":"ann","at":1.5}]}"##
        let modes = ChannelModes(flags: [.noOutside, .topicLock], key: "key", limit: 10)
        let lists = [NetworkChannel.ListEntry(mode: "e", mask: "m:x", setBy: "ann", at: 1.5)]
        #expect(
            try NetworkEnvelope.decode(channel)
                == NetworkEnvelope(
                    from: "a",
                    message: .channel(
                        NetworkChannel(name: "#tea", topic: "hi", topicSetBy: "ann", modes: modes, lists: lists))))
    }

    @Test func malformedEventsAreTypedErrors() {
        let head = #""from":"a","node":"a","session":7"#
        let cases = [
            "", "not json", "[]", "{}", ##"{"kind":"hello"}"##,
            ##"{"kind":"join","from":"a","node":"a","session":"seven","target":"#t","op":true,"history":"h"}"##,
            "{\"kind\":\"join\",\(head),\"op\":true,\"history\":\"h\"}",
            "{\"kind\":\"part\",\(head),\"target\":\"#t\",\"line\":\"\"}",
            "{\"kind\":\"command\",\(head)}",
            "{\"kind\":\"effect\",\(head),\"line\":\"{\\\"teleport\\\":{}}\"}",
            "{\"kind\":\"channel\",\(head),\"target\":\"#t\",\"text\":\"\",\"user\":\"\",\"line\":\"+o ann\"}",
            "{\"kind\":\"user\",\(head),\"nick\":\"n\",\"user\":\"u\",\"host\":\"h\",\"server\":\"s\","
                + "\"realname\":\"\",\"account\":\"ann\"}",
            ##"{"v":"one","kind":"hello","from":"a","node":"a","session":0,"server":"s"}"##,
        ]
        for json in cases {
            #expect(throws: NetworkDecodingError.self, "\(json)") { try NetworkEnvelope.decode(json) }
            do {
                _ = try NetworkEnvelope.decode(json)
            } catch {
                guard case .malformed = error else {
                    Issue.record("\(json): \(error)")
                    continue
                }
            }
        }
    }

    /// A newer node's flag is skipped: the channel's other modes and its lists still apply.
    @Test func aChannelAnnouncementSkipsAFlagThisNodeDoesNotKnow() throws {
        let json =
            ##"{"v":1,"kind":"channel","from":"a","node":"a","session":0,"target":"#tea","text":"hi","user":"ann","##
            + ##""line":"+nxtkl key 10","lists":[{"mode":"b","mask":"*!*@bad","setBy":"ann","at":1.5}]}"##
        guard case .channel(let channel) = try NetworkEnvelope.decode(json).message else {
            Issue.record("not a channel")
            return
        }
        #expect(channel.modes == ChannelModes(flags: [.noOutside, .topicLock], key: "key", limit: 10))
        #expect(channel.lists == [.init(mode: "b", mask: "*!*@bad", setBy: "ann", at: 1.5)])
        #expect(channel.topic == "hi")
    }

    /// The untyped events before version 1 could leave these out; the receiver defaulted them.
    @Test func fieldsTheUntypedEventsMayLackHaveTheirDefaults() throws {
        let head = #""from":"b","node":"b","session":7"#
        let cases: [(String, NetworkMessage)] = [
            (
                "{\"kind\":\"join\",\(head),\"target\":\"#t\"}",
                .join(NetworkUser(node: "b", session: 7), channel: "#t", op: false, history: nil)
            ),
            ("{\"kind\":\"quit\",\(head)}", .quit(NetworkUser(node: "b", session: 7), reason: "Quit")),
            ("{\"kind\":\"nodeGone\",\(head)}", .nodeGone(node: "b", reason: "b left the network")),
            (
                "{\"kind\":\"channel\",\(head),\"target\":\"#t\"}",
                .channel(NetworkChannel(name: "#t", topic: "", topicSetBy: "", modes: ChannelModes(), lists: nil))
            ),
        ]
        for (json, message) in cases {
            #expect(try NetworkEnvelope.decode(json).message == message, "\(json)")
        }
    }

    /// An announcement is the channel as it is: no key or limit in it clears a stale one here.
    @Test func anAnnouncementWithoutKeyOrLimitClearsAStaleOne() {
        let channel = ChannelState(name: "#tea")
        channel.modes.key = "old"
        channel.modes.limit = 3
        channel.take(
            NetworkChannel(
                name: "#tea", topic: "t", topicSetBy: "ann", modes: ChannelModes(flags: [.moderated]), lists: nil))
        #expect(channel.modes.key == nil)
        #expect(channel.modes.limit == nil)
        #expect(channel.modes == ChannelModes(flags: [.moderated]))
    }

    @Test func anUnknownKindIsNamed() {
        let json = ##"{"v":1,"kind":"teleport","from":"a","node":"a","session":7}"##
        #expect(throws: NetworkDecodingError.unknownKind("teleport")) { try NetworkEnvelope.decode(json) }
    }

    /// A newer node's format (or a nonsense version) is refused as such, whatever it holds.
    @Test func anUnknownVersionIsNamed() {
        for version in [2, 0, -1] {
            let json = "{\"v\":\(version),\"kind\":\"hello\",\"from\":\"a\",\"shape\":[1]}"
            #expect(throws: NetworkDecodingError.unsupportedVersion(version)) { try NetworkEnvelope.decode(json) }
        }
    }
}
