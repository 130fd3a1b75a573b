import Foundation
import HearthProtocol
import HearthStore
import Logging
import NIOConcurrencyHelpers
import Synchronization

/// This node's claims on nicks in the network's database (issue 37: claims that heal). A claim
/// is answered within `answerWait` (the database may be away: then the nick cannot be given,
/// and the user is told so); a release is retried until the database takes it; when the bus
/// comes back, rows of sessions that are gone are swept; after a stall the node had been taken
/// out for, each user's claim is made again.
final class NetworkNicks: Sendable {
    let node: String
    let store: any NetworkStore
    let logger: Logger

    /// What the database answered about a nick.
    enum Answer: Sendable, Equatable {
        case claimed, taken
        /// No answer within `answerWait`, or an error: the nick can be neither given nor refused.
        case unavailable
    }

    /// Longest a registration or NICK waits for the database; past it the user hears 437.
    static let answerWait: Duration = .seconds(2)
    /// A claim made this recently is kept by a sweep whatever the sessions say: its client may
    /// not have taken the nick yet (the claim's answer is on its way to its loop).
    static let sweepGrace: Duration = .seconds(30)
    /// Longest pause between two tries of a release while the database is away.
    static let retryCap: Duration = .seconds(2)

    /// Claims made lately, with when.
    private let recent = Mutex<[Recent]>([])

    struct Recent: Sendable {
        var claim: NetworkNick
        var at: ContinuousClock.Instant
    }

    init(node: String, store: any NetworkStore, logger: Logger) {
        (self.node, self.store, self.logger) = (node, store, logger)
    }

    /// Claims `claim` before `deadline`. A claim the database grants after the deadline was
    /// answered with "unavailable", so it is released again: nobody holds a nick it was refused.
    func claim(_ claim: NetworkNick, before deadline: ContinuousClock.Instant) async -> Answer {
        remember(claim)
        let abandoned = Mutex(false)
        let answer = await Self.first(before: deadline) { [store] in
            let granted = try await store.claimNick(claim)
            if granted && abandoned.withLock({ $0 }) { await self.release(claim.nickKey, session: claim.session) }
            return granted
        }
        switch answer {
        case .some(.success(true)): return .claimed
        case .some(.success(false)): return .taken
        case .some(.failure): return .unavailable
        case .none:
            abandoned.withLock { $0 = true }
            return .unavailable
        }
    }

    /// Frees a session's claim, retrying while the database is away (run it in the node's
    /// order, `NetworkNode.inOrder`, so it never overtakes the claim before it).
    func release(_ nickKey: String, session: Int) async {
        guard !nickKey.isEmpty else { return }
        var delay = Duration.milliseconds(100)
        while true {
            do {
                try await store.releaseNick(nickKey, node: node, session: session)
                return
            } catch {
                if Task.isCancelled { return }
                logger.warning("network: could not free a nick (\(error)); retrying")
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, Self.retryCap)
            }
        }
    }

    /// Frees this node's rows that none of `live` holds (sessions numbered `below` and over are
    /// newer than the list, and claims of the last `sweepGrace` may not be in it yet).
    func sweep(live: [NetworkNick], below: Int) async throws {
        let now = ContinuousClock.now
        let young = recent.withLock { recent in
            recent.removeAll { now - $0.at > Self.sweepGrace }
            return recent.map(\.claim)
        }
        let freed = try await store.sweepNicks(node: node, live: live + young, below: below)
        for claim in freed { logger.notice("network: freed \(claim.nickKey), which no session here holds") }
    }

    /// After this node was taken out for lost: claims each of `users` again, and for each claim
    /// another took meanwhile, claims a new nick (`collisionNick`). Returns session → new nick.
    /// Retried while the database is away: nothing is announced before this is done.
    func reclaim(_ users: [NetworkNick]) async -> [Int: String] {
        var renames: [Int: String] = [:]
        var delay = Duration.milliseconds(100)
        var left = users[...]
        while let user = left.first {
            do {
                if try await store.claimNick(user) {
                    left.removeFirst()
                    continue
                }
                var (fresh, nick) = (user, "")
                repeat {
                    nick = Self.collisionNick()
                    fresh.nickKey = IRCNames.fold(nick)
                } while try await !store.claimNick(fresh)
                renames[user.session] = nick
                logger.warning("network: \(user.nickKey) was taken meanwhile; its user is now \(nick)")
                left.removeFirst()
                delay = .milliseconds(100)
            } catch {
                if Task.isCancelled { return renames }
                logger.warning("network: could not claim nicks again (\(error)); retrying")
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, Self.retryCap)
            }
        }
        return renames
    }

    /// A UID-like nick for a user who lost theirs in a collision: `_` and eight letters or digits
    /// no one chooses by chance (as IRC networks rename to a user's id).
    static func collisionNick() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        return "_" + String((0..<8).map { _ in alphabet.randomElement()! })
    }

    private func remember(_ claim: NetworkNick) {
        let now = ContinuousClock.now
        recent.withLock { $0.append(Recent(claim: claim, at: now)) }
    }

    /// `work`'s result, or nil when `deadline` passes first (the work goes on, unawaited).
    static func first<T: Sendable>(
        before deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () async throws -> T
    ) async -> Result<T, any Error>? {
        await Deadline.first(before: deadline, cancelling: false, work)
    }
}

/// This node's connections' nicks, as claims: registered users' and those still registering
/// (whose claim may be in the database already), and the session number the next one gets.
struct LocalNicks: Sendable {
    var held: [NetworkNick] = []
    var pending: [NetworkNick] = []
    var nextSession = 0
}
