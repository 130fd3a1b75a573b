import Foundation
import HearthStore

/// Every user setting: its values, default and what it does. `!settings` and `!set` read
/// this table; nothing else lists settings.
public struct Setting: Sendable {
    public let key: String
    public let values: [String]?  // nil: free-form, checked by `check`
    public let defaultValue: String
    public let summary: String
    let check: (@Sendable (String) -> String?)?
    /// What a free-form value looks like, for `!settings`.
    var hint = "Area/City"

    public var allowed: String { values?.joined(separator: "|") ?? hint }

    /// The normalised value, or an explanation of what is allowed.
    public func validate(_ raw: String) -> Result<String, BotError> {
        if let values {
            let value = raw.lowercased()
            guard values.contains(value) else {
                return .failure(
                    BotError(
                        "\(key) can be \(values.joined(separator: " or ")), not \"\(raw)\" — e.g. !set \(key) "
                            + "\(values[0])"
                    ))
            }
            return .success(value)
        }
        if let problem = check?(raw) { return .failure(BotError(problem)) }
        return .success(raw)
    }

    public static let all: [Setting] = [
        Setting(
            key: "color", values: ["on", "off"], defaultValue: "off",
            summary: "colours and bold in my replies (a terminal's dark/light mode)", check: nil),
        Setting(
            key: "tz", values: nil, defaultValue: "UTC", summary: "your time zone, for daily cookies and times",
            check: { value in
                guard TimeZone(identifier: value) == nil || !(value.contains("/") || value == "UTC") else {
                    return nil
                }
                let near = Setting.zones(ofCity: value).prefix(3)
                let guess = near.isEmpty ? "." : " — did you mean \(near.joined(separator: " or "))?"
                return "\"\(value)\" is not a time zone I know\(guess) Use an IANA name like Europe/Paris, "
                    + "America/New_York or UTC"
            }),
        Setting(
            key: "notify", values: ["on", "off"], defaultValue: "on",
            summary: "notices when someone follows you or a cookie is ready", check: nil),
        Setting(
            key: "location", values: ["on", "off"], defaultValue: "off",
            summary: "share where you open fortunes with your family and friends", check: nil),
        Setting(
            key: "fortunes", values: nil, defaultValue: "all",
            summary: "the categories of sayings !fortune draws from (!fortune categories lists them)", check: nil,
            hint: "all or CATEGORY,CATEGORY"),
        Setting(
            key: "textsize", values: ["small", "normal", "large"], defaultValue: "normal",
            summary: "text size in pictures I draw for you", check: nil),
        Setting(
            key: "privacy", values: ["friends", "public"], defaultValue: "friends",
            summary: "who may see your fortunes and memes lists", check: nil),
        Setting(
            key: "bot", values: ["on", "off"], defaultValue: "off", summary: "marks this account as a bot", check: nil),
        Setting(
            key: AlwaysOnRules.settingKey, values: ["on", "off", AlwaysOnRules.defaultValue],
            defaultValue: AlwaysOnRules.defaultValue,
            summary: "stay in your channels, marked away, while no device is connected; each device gets what it "
                + "missed when it is back (default: the server's choice)",
            check: nil),
        Setting(
            key: "units", values: ["written", "metric", "imperial"], defaultValue: "written",
            summary: "how recipe amounts and oven temperatures are shown: written (as each recipe has them), "
                + "or converted to metric or imperial",
            check: nil),
        Setting(
            key: "gallery", values: ["memes", "uploads"], defaultValue: "memes",
            summary: "what your web gallery shows besides your memes: nothing more, or your uploaded pictures too",
            check: nil),
    ]

    public static func named(_ key: String) -> Setting? { all.first { $0.key == key.lowercased() } }

    /// The zones named for a city (`paris` → Europe/Paris): people type the city, not the region.
    static func zones(ofCity value: String) -> [String] {
        let city = "/" + value.replacingOccurrences(of: " ", with: "_").lowercased()
        return TimeZone.knownTimeZoneIdentifiers.filter { $0.lowercased().hasSuffix(city) }
    }
}

/// A user's settings with defaults filled in.
public struct UserSettings: Sendable {
    public var values: [String: String]

    public init(stored: [String: String]) {
        var values: [String: String] = [:]
        for setting in Setting.all { values[setting.key] = stored[setting.key] ?? setting.defaultValue }
        self.values = values
    }

    public subscript(_ key: String) -> String { values[key] ?? "" }
    public var color: Bool { self["color"] == "on" }
    public var notify: Bool { self["notify"] == "on" }
    public var isPublic: Bool { self["privacy"] == "public" }
}

/// Bold and colour for replies: mIRC codes for IRC clients, ANSI for terminals, nothing
/// when the user's `color` setting is off.
public struct Style: Sendable {
    public enum Kind: Sendable { case none, irc, ansi }
    public let kind: Kind

    public init(kind: Kind) { self.kind = kind }
    public static let plain = Style(kind: .none)

    public func bold(_ text: String) -> String {
        switch kind {
        case .none: return text
        case .irc: return "\u{2}\(text)\u{2}"
        case .ansi: return "\u{1b}[1m\(text)\u{1b}[0m"
        }
    }

    /// A dim, secondary note (grey).
    public func dim(_ text: String) -> String {
        switch kind {
        case .none: return text
        case .irc: return "\u{3}14\(text)\u{3}"
        case .ansi: return "\u{1b}[2m\(text)\u{1b}[0m"
        }
    }
}
