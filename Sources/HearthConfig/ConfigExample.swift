/// `hearth config example`: every key with its help and default, commented out where the
/// default is what the server does anyway, so the file starts valid and says everything.
public enum ConfigExample {
    public static var text: String {
        var out = """
            # Hearth's configuration (hearth serve --config FILE). Every key is also a flag (--irc-port)
            # and an environment variable (HEARTH_IRC_PORT); a flag outweighs the environment, which
            # outweighs this file. SIGHUP or the IRC command REHASH read it again: keys marked (live)
            # change at once, the others at the next start. `hearth config check FILE` checks a file.

            """
        for key in ServeKeys.all {
            out += "\n# \(key.help)" + (key.reload == .live ? " (live)" : "") + "\n"
            out += "# \(key.name): " + (key.fallback.map { "\($0)" } ?? example(key)) + "\n"
        }
        return out
    }

    /// What an unset key could be set to, as a hint.
    static func example(_ key: SettingKey) -> String {
        switch key.kind {
        case .string: "\"\""
        case .int: "0"
        case .double: "0"
        case .bool: "false"
        case .strings: "[]"
        }
    }
}
