/// One setting of `hearth serve`: the same name is the flag (`--irc-port`), the key in the
/// configuration file (`irc-port:`) and the environment variable (`HEARTH_IRC_PORT`).
public struct SettingKey: Sendable {
    public enum Kind: String, Sendable {
        case string = "text"
        case int = "a whole number"
        case double = "a number"
        case bool = "true or false"
        /// Several values: a YAML list, repeated flags, or commas in the environment.
        case strings = "a list"
    }

    /// When a reload (SIGHUP, REHASH) changes it: at once, or only at the next start.
    public enum Reload: Sendable { case live, restart }

    public let name: String
    public let kind: Kind
    /// Nil: unset unless given (e.g. no TLS certificate).
    public let fallback: SettingValue?
    public let help: String
    public let reload: Reload
    /// Never shown in errors or logs (passwords, tokens).
    public let secret: Bool
    /// A value outside what the server accepts: the problem, in words.
    let check: @Sendable (SettingValue) -> String?

    init(
        _ name: String, _ kind: Kind, _ fallback: SettingValue?, _ reload: Reload, secret: Bool = false,
        help: String, check: @escaping @Sendable (SettingValue) -> String? = { _ in nil }
    ) {
        (self.name, self.kind, self.fallback, self.reload, self.secret) = (name, kind, fallback, reload, secret)
        self.help = help
        self.check = check
    }

    /// The environment variable: HEARTH_ and the name in capitals, dashes as underscores.
    public var environmentName: String { "HEARTH_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }
}

/// A setting's value, of its key's kind.
public enum SettingValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case strings([String])

    public var string: String? { if case .string(let v) = self { v } else { nil } }
    public var int: Int? { if case .int(let v) = self { v } else { nil } }
    public var double: Double? { if case .double(let v) = self { v } else { nil } }
    public var bool: Bool? { if case .bool(let v) = self { v } else { nil } }
    public var strings: [String]? { if case .strings(let v) = self { v } else { nil } }

    /// As YAML writes it (`hearth config example`).
    public var description: String {
        switch self {
        case .string(let v): Self.yamlString(v)
        case .int(let v): String(v)
        case .double(let v): Int(exactly: v).map(String.init) ?? String(v)
        case .bool(let v): String(v)
        case .strings(let v): "[" + v.map(Self.yamlString).joined(separator: ", ") + "]"
        }
    }

    static func yamlString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
