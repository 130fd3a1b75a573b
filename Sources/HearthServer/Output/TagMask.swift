import Foundation
import HearthProtocol
import Synchronization

/// Which IRCv3 tags a client receives, as bits: each tag on a message needs one of them.
struct TagMask: OptionSet, Hashable {
    let rawValue: UInt8
    static let serverTime = TagMask(rawValue: 1)  // `time`
    static let messageTags = TagMask(rawValue: 2)  // `msgid`, `bot`, client-only `+tags`
    static let accountTag = TagMask(rawValue: 4)  // `account`
    static let batch = TagMask(rawValue: 8)  // `batch`
    static let label = TagMask(rawValue: 16)  // `label` (labeled-response)

    static func forCaps(_ caps: Set<String>) -> TagMask {
        var mask: TagMask = []
        if caps.contains("server-time") { mask.insert(.serverTime) }
        if caps.contains("message-tags") { mask.insert(.messageTags) }
        if caps.contains("account-tag") { mask.insert(.accountTag) }
        if caps.contains("batch") { mask.insert(.batch) }
        if caps.contains("labeled-response") { mask.insert(.label) }
        return mask
    }

    /// The cap a tag needs.
    static func required(for key: String) -> TagMask {
        if key == "time" { return .serverTime }
        if key == "account" { return .accountTag }
        // The multiline concat mark belongs to the batch it is in (its clients need it).
        if key == "batch" || key == "draft/multiline-concat" { return .batch }
        if key == "label" { return .label }
        return .messageTags
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

    /// The formatted second, cached: formatting a date costs more than the rest of a message.
    private static let secondCache = Mutex<(second: Int, text: String)>((-1, ""))

    /// Now, to the millisecond the time tag shows: a message's tag and its history row agree.
    static func now() -> Date {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Date(timeIntervalSince1970: Double(now.tv_sec) + Double(now.tv_nsec / 1_000_000) / 1_000)
    }

    static func time(_ date: Date? = nil) -> String {
        var now = timespec()
        if let date {
            // To the nearest microsecond first: a stored 12.959 reads back as 12.958999…
            let micros = Int((date.timeIntervalSince1970 * 1e6).rounded())
            now.tv_sec = micros / 1_000_000
            now.tv_nsec = micros % 1_000_000 * 1_000
        } else {
            clock_gettime(CLOCK_REALTIME, &now)
        }
        let second = now.tv_sec
        let millis = Int(now.tv_nsec / 1_000_000)
        let base = secondCache.withLock { cache -> String in
            if cache.second == second { return cache.text }
            var seconds = time_t(second)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
            cache = (
                second,
                "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
                    + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
            )
            return cache.text
        }
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return base + "." + ms + "Z"
    }
}
