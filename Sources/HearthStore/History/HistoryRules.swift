/// Which history a member of a channel may read, written once for every engine.
public enum HistoryRules {
    /// The keys of `channel`'s incarnations lie strictly between these: an incarnation key is
    /// "<channel> <id>", and a space never occurs in a channel name (" " < "!").
    public static func incarnations(of channel: String) -> (above: String, below: String) {
        (channel + " ", channel + "!")
    }

    /// The live incarnation first, then the `earlier` ones the account was in.
    public static func readable(current: String, earlier: [String]) -> [String] {
        [current] + earlier.filter { $0 != current }
    }

    /// Stored lines that only act on the message they refer to (`refMsgid`): a reaction
    /// (TAGMSG) and an edit. They are redacted with it; a reply is a message of its own and stays.
    public static let dependentCommands = ["TAGMSG", "EDIT"]
}
