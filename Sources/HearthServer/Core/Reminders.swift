import NIOCore

/// One pending reminder per account (`Core.scheduleReminder`), each with an id of its own: a
/// reminder that fires while a newer one replaces it must not take the newer one's place away
/// (which could then no longer be cancelled, and would be said twice).
struct ReminderTable {
    private var pending: [Int64: (id: UInt64, task: Scheduled<Void>)] = [:]
    private var nextID: UInt64 = 0

    /// An id for the account's next reminder, to pass to its task and then to `replace`.
    mutating func newID() -> UInt64 {
        nextID += 1
        return nextID
    }

    /// `task` (with `id`) becomes the account's reminder; the one it replaces is cancelled.
    mutating func replace(_ accountID: Int64, id: UInt64, with task: Scheduled<Void>) {
        pending[accountID]?.task.cancel()
        pending[accountID] = (id, task)
    }

    /// The reminder `id` fired: forgotten if it is still the account's (not if a newer one replaced it).
    mutating func fired(_ accountID: Int64, id: UInt64) {
        if pending[accountID]?.id == id { pending[accountID] = nil }
    }

    /// The id of the account's pending reminder, if any.
    func pendingID(_ accountID: Int64) -> UInt64? { pending[accountID]?.id }
}
