import Foundation
import HearthProtocol
import Synchronization

/// Which IRCv3 tags a client receives, as bits: each tag on a message needs one of them.
struct TagMask: OptionSet, Hashable {
    let rawValue: UInt8
    static let serverTime = TagMask(rawValue: 1)  // `time`
    static let messageTags = TagMask(rawValue: 2)  // `msgid`, `bot`, client-only `+tags`
    static let accountTag = TagMask(rawValue: 4)  // `account`

    static func forCaps(_ caps: Set<String>) -> TagMask {
        var mask: TagMask = []
        if caps.contains("server-time") { mask.insert(.serverTime) }
        if caps.contains("message-tags") { mask.insert(.messageTags) }
        if caps.contains("account-tag") { mask.insert(.accountTag) }
        return mask
    }

    /// The cap a tag needs.
    static func required(for key: String) -> TagMask {
        switch key {
        case "time": return .serverTime
        case "account": return .accountTag
        default: return .messageTags
        }
    }
}

extension IRCMessage {
    /// The message with only the tags a client with `mask` may see.
    func filtered(for mask: TagMask) -> IRCMessage {
        var copy = self
        copy.tags = tags.filter { mask.contains(TagMask.required(for: $0.key)) }
        return copy
    }

    /// The tag bits this message uses at all.
    var tagMask: TagMask {
        tags.reduce(into: TagMask()) { $0.formUnion(TagMask.required(for: $1.key)) }
    }
}

/// `time` tags (ISO 8601 UTC with milliseconds) and unique `msgid`s, cheap enough to put on
/// every message.
enum MessageStamp {
    private static let counter = Atomic<UInt64>(0)
    private static let prefix: String = {
        String(UInt64(Date().timeIntervalSince1970 * 1000), radix: 36)
    }()

    static func msgid() -> String {
        let n = counter.add(1, ordering: .relaxed).newValue
        return prefix + "-" + String(n, radix: 36)
    }

    static func time(_ date: Date = Date()) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        let millis = Int((date.timeIntervalSince1970 - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }
}
