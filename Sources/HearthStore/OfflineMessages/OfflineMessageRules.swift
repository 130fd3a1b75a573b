/// The rule for keeping a message, written once for every engine (each reads the facts in its
/// own transaction, the recipient's inbox held still while it does).
public enum OfflineMessageRules {
    /// Why a message for an existing recipient is not kept, or nil when it is: a recipient who
    /// blocked the sender is told nothing, so that comes before a full inbox
    /// (`StoreLimits.maxOfflineMessages` already `waiting`).
    public static func refusal(senderBlocked: Bool, waiting: Int) -> OfflineResult? {
        if senderBlocked { return .blocked }
        if waiting >= StoreLimits.maxOfflineMessages { return .inboxFull }
        return nil
    }
}
