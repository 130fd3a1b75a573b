import NIOConcurrencyHelpers
import NIOEmbedded
import Testing

@testable import HearthServer

/// One reminder per account, in-process (`Core.scheduleReminder` keeps them in a `ReminderTable`).
@Suite struct ReminderTableTests {
    @Test func aReminderThatFiresAfterANewerOneReplacedItLeavesTheNewerOnePending() {
        let loop = EmbeddedEventLoop()
        var table = ReminderTable()
        let first = table.newID()
        table.replace(7, id: first, with: loop.scheduleTask(in: .hours(1)) {})
        let second = table.newID()
        table.replace(7, id: second, with: loop.scheduleTask(in: .hours(2)) {})
        table.fired(7, id: first)  // the first was already running when the second replaced it
        #expect(table.pendingID(7) == second)
        table.fired(7, id: second)
        #expect(table.pendingID(7) == nil)
    }

    @Test func replacingAReminderCancelsTheOldOne() {
        let loop = EmbeddedEventLoop()
        var table = ReminderTable()
        let said = NIOLockedValueBox<[String]>([])
        let first = table.newID()
        table.replace(
            7, id: first, with: loop.scheduleTask(in: .seconds(1)) { said.withLockedValue { $0.append("old") } })
        let second = table.newID()
        table.replace(
            7, id: second, with: loop.scheduleTask(in: .seconds(1)) { said.withLockedValue { $0.append("new") } })
        loop.advanceTime(by: .seconds(2))
        #expect(said.withLockedValue { $0 } == ["new"])
    }
}
