/// One entry of the command table. Apps add entries; the bot dispatches, checks
/// argument counts and login, and formats usage errors the same way for everyone.
public struct BotCommand: Sendable {
    public typealias Handler = @Sendable (BotRequest) async throws -> BotResponse

    public var name: String
    public var group: String
    /// Arguments after the name, e.g. `NAME PASSWORD [email] [phone]`.
    public var usage: String
    public var summary: String
    public var example: String
    /// Allowed number of words after the name.
    public var arity: ClosedRange<Int>
    public var requiresLogin: Bool
    /// Secret commands carry passwords or tokens: never relayed to a channel, answered privately.
    public var secret: Bool
    /// Subcommands (the first word) that carry a secret, like `!tree join CODE`: treated as secret.
    public var secretSubcommands: Set<String>
    public var handler: Handler

    public init(
        _ name: String, group: String, usage: String = "", summary: String, example: String,
        arity: ClosedRange<Int> = 0...Int.max, requiresLogin: Bool = false, secret: Bool = false,
        secretSubcommands: Set<String> = [], handler: @escaping Handler
    ) {
        self.name = name
        self.group = group
        self.usage = usage
        self.summary = summary
        self.example = example
        self.arity = arity
        self.requiresLogin = requiresLogin
        self.secret = secret
        self.secretSubcommands = secretSubcommands
        self.handler = handler
    }

    /// Whether these words after the name carry a secret.
    public func carriesSecret(_ words: [String]) -> Bool {
        secret || words.first.map { secretSubcommands.contains($0.lowercased()) } == true
    }

    public var usageLine: String { usage.isEmpty ? "!\(name)" : "!\(name) \(usage)" }

    public func usageError(_ reason: String? = nil) -> BotError {
        let lead = reason.map { "\($0) — " } ?? ""
        return BotError("\(lead)usage: \(usageLine) — e.g. \(example)")
    }
}
