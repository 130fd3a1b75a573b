import Foundation
import HearthAccounts
import Synchronization

/// A clock the test moves: hand `hearth` to a server or the bot, then `set` the time to cross
/// midnights, time zones and DST changes without waiting.
public final class TestClock: Sendable {
    private let date: Mutex<Date>
    public init(_ iso: String) { date = Mutex(try! Date(iso, strategy: .iso8601)) }
    /// Standing at the moment it is made, for a story that crosses a throttle's delay (2 s after
    /// the free failures): on the system's clock a loaded machine outwaited it between two lines.
    public init() { date = Mutex(Date()) }
    public var now: Date { date.withLock { $0 } }
    public func set(_ iso: String) { date.withLock { $0 = try! Date(iso, strategy: .iso8601) } }
    public func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
    public var hearth: HearthClock { HearthClock { self.now } }
}
