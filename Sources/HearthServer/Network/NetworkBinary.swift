import Foundation
import HearthKit
import HearthProtocol

/// The compact binary form of an envelope (`NetworkEnvelope.version` 2): what nodes write.
/// A version byte (2…31: never the `{` a JSON event of version 1 starts with), a kind byte,
/// the sender, then the kind's fields in a fixed order: strings as a varint length and UTF-8,
/// integers as zigzag varints, optionals behind a 0/1 byte. A field added to a kind goes at its
/// end (older readers stop before it); a change an older node would misread raises the version.
enum NetworkBinary {
    /// Kind codes on the wire: never renumbered, never reused.
    static let codes: [String: UInt8] = [
        "hello": 1, "announced": 2, "user": 3, "nick": 4, "quit": 5, "kill": 6, "join": 7, "part": 8,
        "message": 9, "edit": 10, "redact": 11, "command": 12, "effect": 13, "channel": 14,
        "channelState": 15, "nodeGone": 16,
    ]
    static let kinds = Dictionary(uniqueKeysWithValues: codes.map { ($0.value, $0.key) })
    /// The first byte of an event in a binary form: its version (JSON starts with `{`).
    static let versions: ClosedRange<UInt8> = 2...31

    static func encode(_ envelope: NetworkEnvelope) throws -> [UInt8] {
        var out = Writer()
        out.bytes.append(UInt8(NetworkEnvelope.version))
        out.bytes.append(codes[envelope.message.kind] ?? 0)
        out.string(envelope.from)
        switch envelope.message {
        case .hello(let server): out.string(server)
        case .announced(let to, let server): out.strings(to, server)
        case .user(let who, let profile):
            out.user(who)
            out.strings(profile.nick, profile.user, profile.host, profile.server, profile.realname)
            out.optional(profile.account) { out, account in
                out.int(account.id)
                out.string(account.name)
            }
        case .nick(let who, let nick):
            out.user(who)
            out.string(nick)
        case .quit(let who, let reason), .kill(let who, let reason):
            out.user(who)
            out.string(reason)
        case .join(let who, let channel, let op, let history):
            out.user(who)
            out.string(channel)
            out.bytes.append(op ? 1 : 0)
            out.optional(history) { $0.string($1) }
        case .part(let who, let target, let line), .message(let who, let target, let line),
            .edit(let who, let target, let line), .redact(let who, let target, let line):
            out.user(who)
            out.strings(target, line.serialized())
        case .command(let who, let line):
            out.user(who)
            out.string(line.serialized())
        case .effect(let who, let effect):
            // Rare (a bot answer's effect): its Codable form, as version 1 carried it.
            out.user(who)
            out.string(String(decoding: try JSONEncoder().encode(effect), as: UTF8.self))
        case .channel(let channel): out.channel(channel)
        case .channelState(let who, let channel):
            out.user(who)
            out.channel(channel)
        case .nodeGone(let node, let reason): out.strings(node, reason)
        }
        return out.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(NetworkDecodingError) -> NetworkEnvelope {
        var input = Reader(bytes: bytes)
        let version = try input.byte()
        guard version == NetworkEnvelope.version else { throw .unsupportedVersion(Int(version)) }
        let code = try input.byte()
        guard let kind = kinds[code] else { throw .unknownKind("code \(code)") }
        input.kind = kind
        let from = try input.string()
        let message: NetworkMessage
        switch kind {
        case "hello": message = .hello(server: try input.string())
        case "announced": message = .announced(to: try input.string(), server: try input.string())
        case "user":
            let who = try input.user()
            let (nick, user, host) = (try input.string(), try input.string(), try input.string())
            let (server, realname) = (try input.string(), try input.string())
            let account = try input.optional { input throws(NetworkDecodingError) in
                AccountRef(id: try input.int(), name: try input.string())
            }
            message = .user(
                who,
                NetworkProfile(
                    nick: nick, user: user, host: host, server: server, realname: realname, account: account))
        case "nick": message = .nick(try input.user(), nick: try input.string())
        case "quit": message = .quit(try input.user(), reason: try input.string())
        case "kill": message = .kill(try input.user(), reason: try input.string())
        case "join":
            let (who, channel, op) = (try input.user(), try input.string(), try input.bool())
            let history = try input.optional { input throws(NetworkDecodingError) in try input.string() }
            message = .join(who, channel: channel, op: op, history: history)
        case "part": message = .part(try input.user(), channel: try input.string(), line: try input.line())
        case "message": message = .message(try input.user(), target: try input.string(), line: try input.line())
        case "edit": message = .edit(try input.user(), history: try input.string(), line: try input.line())
        case "redact": message = .redact(try input.user(), history: try input.string(), line: try input.line())
        case "command": message = .command(try input.user(), line: try input.line())
        case "effect":
            let who = try input.user()
            guard let effect = try? JSONDecoder().decode(SessionEffect.self, from: Data(try input.string().utf8))
            else { throw .malformed("effect: not an effect this node knows") }
            message = .effect(who, effect)
        case "channel": message = .channel(try input.channel())
        case "channelState":
            let (who, channel) = (try input.user(), try input.channel())
            guard channel.version != nil else { throw .malformed("channelState without version") }
            message = .channelState(who, channel)
        default: message = .nodeGone(node: try input.string(), reason: try input.string())
        }
        return NetworkEnvelope(from: from, message: message)
    }

    private struct Writer {
        var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(256) }

        mutating func varint(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }

        mutating func int<T: BinaryInteger>(_ value: T) {
            let value = Int64(value)
            varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
        }

        mutating func string(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                varint(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func strings(_ texts: String...) { for text in texts { string(text) } }

        mutating func double(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func optional<T>(_ value: T?, _ write: (inout Writer, T) -> Void) {
            guard let value else { return bytes.append(0) }
            bytes.append(1)
            write(&self, value)
        }

        mutating func user(_ who: NetworkUser) {
            string(who.node)
            int(who.session)
        }

        mutating func channel(_ channel: NetworkChannel) {
            strings(channel.name, channel.topic, channel.topicSetBy)
            string(channel.modes.serialized(showKey: true).joined(separator: " "))
            optional(channel.lists) { out, lists in
                out.int(lists.count)
                for entry in lists {
                    out.strings(entry.mode, entry.mask, entry.setBy)
                    out.double(entry.at)
                }
            }
            optional(channel.topicSetAt) { $0.double($1) }
            optional(channel.prefixes) { out, prefixes in
                out.int(prefixes.count)
                for (member, letters) in prefixes.sorted(by: { $0.key < $1.key }) { out.strings(member, letters) }
            }
            optional(channel.version) { $0.int($1) }
        }
    }

    /// Reads what `Writer` wrote; anything short, too long or not UTF-8 is `malformed`, its
    /// reason naming the kind and what was wrong, never a value (it is logged).
    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        var kind = "event"

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func byte() throws(NetworkDecodingError) -> UInt8 {
            guard at < bytes.count else { throw .malformed("\(kind): cut short") }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func bool() throws(NetworkDecodingError) -> Bool {
            switch try byte() {
            case 0: return false
            case 1: return true
            default: throw .malformed("\(kind): not a flag")
            }
        }

        mutating func varint() throws(NetworkDecodingError) -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 7) {
                let next = try byte()
                value |= UInt64(next & 0x7F) << UInt64(shift)
                if next < 0x80 { return value }
            }
            throw .malformed("\(kind): a number too long")
        }

        mutating func int() throws(NetworkDecodingError) -> Int64 {
            let raw = try varint()
            return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        }

        /// A count of items that each take at least one byte: never more than are left.
        mutating func count() throws(NetworkDecodingError) -> Int {
            let value = try int()
            guard value >= 0, value <= bytes.count - at else { throw .malformed("\(kind): a count past the end") }
            return Int(value)
        }

        mutating func string() throws(NetworkDecodingError) -> String {
            let length = try varint()
            guard length <= UInt64(bytes.count - at) else { throw .malformed("\(kind): cut short") }
            let end = at + Int(length)
            defer { at = end }
            guard let text = String(validating: bytes[at..<end], as: UTF8.self) else {
                throw .malformed("\(kind): not UTF-8")
            }
            return text
        }

        mutating func double() throws(NetworkDecodingError) -> Double {
            var raw: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 8) { raw |= UInt64(try byte()) << UInt64(shift) }
            return Double(bitPattern: raw)
        }

        mutating func optional<T>(
            _ read: (inout Reader) throws(NetworkDecodingError) -> T
        ) throws(NetworkDecodingError) -> T? {
            guard try bool() else { return nil }
            return try read(&self)
        }

        mutating func user() throws(NetworkDecodingError) -> NetworkUser {
            let node = try string()
            let session = try int()
            guard let session = Int(exactly: session) else { throw .malformed("\(kind): session out of range") }
            return NetworkUser(node: node, session: session)
        }

        mutating func line() throws(NetworkDecodingError) -> IRCMessage {
            let text = try string()
            do {
                // The sender's node added its tags (time, msgid, account) to the client's.
                return try IRCMessage.parse(text, maxTagBytes: IRCLimits.maxTagBytes)
            } catch {
                throw .malformed("\(kind): \(error.explanation)")
            }
        }

        mutating func channel() throws(NetworkDecodingError) -> NetworkChannel {
            let (name, topic, topicSetBy, modeText) = (try string(), try string(), try string(), try string())
            // Leniently, as in version 1: a flag this node does not know is skipped.
            let modeWords = modeText.split(separator: " ").map(String.init)
            guard let modes = ChannelModes(modeWords, ignoringUnknown: true) else {
                throw .malformed("\(kind): not channel modes")
            }
            let lists = try optional { input throws(NetworkDecodingError) -> [NetworkChannel.ListEntry] in
                var lists: [NetworkChannel.ListEntry] = []
                for _ in 0..<(try input.count()) {
                    let (mode, mask, setBy) = (try input.string(), try input.string(), try input.string())
                    lists.append(NetworkChannel.ListEntry(mode: mode, mask: mask, setBy: setBy, at: try input.double()))
                }
                return lists
            }
            let topicSetAt = try optional { input throws(NetworkDecodingError) in try input.double() }
            let prefixes = try optional { input throws(NetworkDecodingError) -> [String: String] in
                var prefixes: [String: String] = [:]
                for _ in 0..<(try input.count()) { prefixes[try input.string()] = try input.string() }
                return prefixes
            }
            return NetworkChannel(
                name: name, topic: topic, topicSetBy: topicSetBy, modes: modes, lists: lists, topicSetAt: topicSetAt,
                prefixes: prefixes, version: try optional { input throws(NetworkDecodingError) in try input.int() })
        }
    }
}
