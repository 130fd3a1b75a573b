/// What an operator sets for the apps (the chat server passes it through unread).
public struct AppsConfig: Sendable {
    /// strfile fortune databases to add to the built-in sayings (e.g. /usr/share/games/fortunes).
    public var fortunesDirectory: String?
    public var fortunesOffensive = false
    /// Hearth's own sayings (tests turn them off to use a small catalogue).
    public var builtinFortunes = true
    /// Edamam recipe search keys (and base URL), if any.
    public var edamam: EdamamConfig?
    /// Pages fetched for users (recipe imports) may be on loopback, private or link-local
    /// addresses (`--fetch-local-addresses`; tests).
    public var fetchLocalAddresses = false
    /// How long the hot lists are kept while no command runs (`HotLists.lifetime`; tests lengthen it).
    public var hotListsLifetime = HotLists.lifetime

    public init() {}
}
