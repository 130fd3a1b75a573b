import Foundation
import HearthProtocol
import HearthStore
import Logging
import Synchronization

/// This process as a node of a network: it keeps its heartbeat, publishes what its users do
/// (in order, through one task), and hands what other nodes publish to the core. The bus
/// (LISTEN/NOTIFY) forgets what it could not deliver, so after losing it the node asks
/// everyone to announce their users again and drops the users the database no longer has.
final class NetworkNode: Sendable {
    let name: String
    /// This node's server name (other nodes show it in WHOIS, WHO and LINKS).
    let serverName: String
    let store: any NetworkStore
    let logger: Logger

    /// What the core does with the bus (set once, before `run`).
    struct Handlers: Sendable {
        /// Applies another node's event.
        var apply: @Sendable (NetworkMessage) -> Void
        /// Every local user and channel membership, as events (to answer a `hello`).
        var announce: @Sendable () -> [NetworkMessage]
        /// Users of other nodes this node mirrors, for the resync.
        var mirrored: @Sendable () -> Set<RemoteOrigin>
        /// The number of local users, for the heartbeat.
        var localUsers: @Sendable () -> Int
        /// An event this node could not read (`malformed`, `unknown_kind`, `unsupported_version`)
        /// or write: counted.
        var refused: @Sendable (String) -> Void
        /// This node's oldest pending change of a channel (by key) was numbered: the state after
        /// it (nil: it changed nothing there).
        var ordered: @Sendable (String, NetworkChannel?) -> Void = { _, _ in }
        /// The node (re)joined the bus and asked for everyone's users: it reads the numbered
        /// state of the channels it knows from the database.
        var listening: @Sendable () async -> Void = {}
        /// This node's users' claims on nicks, for a sweep or a claim made again.
        var localNicks: @Sendable () -> LocalNicks = { LocalNicks() }
        /// Users whose nick was taken while this node was out: session → their new nick.
        var collided: @Sendable ([Int: String]) -> Void = { _ in }
        /// Writes the history queued so far. Run before each publish: a line is in the history
        /// before any other node shows it, so a reply said there is kept after it (history is
        /// read in the order written; two nodes' batches once landed the other way round).
        var beforePublishing: @Sendable () async -> Void = {}
    }

    /// This node's claims on nicks.
    let nicks: NetworkNicks

    /// What the publisher sends: an event, or a channel change the database numbers first.
    enum Outgoing: Sendable {
        case event(NetworkMessage)
        case change(ChannelChange)
    }

    private let handlers = Mutex<Handlers?>(nil)
    /// Events waiting for the publisher, and whether it was woken for them.
    private let queue = Mutex<(events: [Outgoing], woken: Bool)>(([], false))
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>
    /// The last event seen from each node (its id in the event log), to catch up after losing
    /// the bus and to drop what arrives twice. Only the listener task touches it.
    private let lastSeen = Mutex<[String: Int64]>([:])
    /// Nodes whose announcements this node still waits for after its `hello` (nil: none asked).
    private let awaiting = Mutex<Set<String>?>(nil)
    /// Events per statement: what queued while the last statement ran goes in the next, logged
    /// by one insert and announced by one notification.
    static let eventsPerStatement = 256

    /// The server names of the other nodes, as their `hello` and `announced` said.
    private let servers = Mutex<[String: String]>([:])

    /// Background nick claims and releases, run one at a time in the order they were asked
    /// for: a QUIT's release must not overtake the NICK's claim before it.
    private let nickWork: AsyncStream<@Sendable () async -> Void>.Continuation
    private let nickWorks: AsyncStream<@Sendable () async -> Void>

    init(name: String, serverName: String, store: any NetworkStore, logger: Logger) {
        self.name = name
        self.serverName = serverName
        self.store = store
        self.logger = logger
        nicks = NetworkNicks(node: name, store: store, logger: logger)
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (nickWorks, nickWork) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
    }

    /// Queues a claim or release of a nick (see `nickWork`). Cheap; called under the core's lock.
    func inOrder(_ work: @escaping @Sendable () async -> Void) { nickWork.yield(work) }

    func setHandlers(_ value: Handlers) { handlers.withLock { $0 = value } }

    /// Longest a JOIN waits for the database to say who makes a new channel; past it (the
    /// database is away), the channel is made here, as on one server.
    static let channelClaimWait: Duration = .seconds(2)

    /// Claims channels nobody is in (channel key → the history key this node would give it).
    func claimChannels(_ fresh: [String: String]) async -> [String: ChannelClaim] {
        let store = self.store
        return await withTaskGroup(of: [String: ChannelClaim]?.self) { group in
            group.addTask {
                var claims: [String: ChannelClaim] = [:]
                for (key, history) in fresh {
                    guard let claim = try? await store.claimChannel(key, historyKey: history) else { return nil }
                    claims[key] = claim
                }
                return claims
            }
            group.addTask {
                try? await Task.sleep(for: Self.channelClaimWait)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? [:]
        }
    }

    /// Queues an event for every other node; events leave in the order they were queued. Cheap:
    /// it is called under the core's lock, so the publisher task encodes.
    func publish(_ event: NetworkMessage) { enqueue(.event(event)) }

    /// Queues a change of a channel's state, in order with this node's events: the database
    /// numbers it among every node's changes of that channel, then it is announced.
    func publish(change: ChannelChange) { enqueue(.change(change)) }

    private func enqueue(_ item: Outgoing) {
        let needsWake = queue.withLock { state -> Bool in
            state.events.append(item)
            defer { state.woken = true }
            return !state.woken
        }
        if needsWake { wake.yield() }
    }

    /// Enters the network; the users a previous run under this name left behind are gone.
    func start() async throws {
        let stale = try await store.joinNetwork(node: name)
        if !stale.isEmpty {
            publish(.nodeGone(node: name, reason: name + " restarted"))
        }
    }

    /// Publisher, heartbeat and listener, until cancelled.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.publishLoop() }
            group.addTask { await self.heartbeatLoop() }
            group.addTask { await self.listenLoop() }
            group.addTask { for await work in self.nickWorks { await work() } }
            await group.waitForAll()
        }
    }

    /// Longest a node's goodbye waits for the database at shutdown. Past it the node exits
    /// anyway: what it still held is freed by the others once its heartbeat is older than
    /// `NetworkLimits.nodeTimeout`, or by its own next start (`joinNetwork`).
    static let goodbyeWait: Duration = .seconds(3)

    /// Says goodbye (the others quit this node's users at once) and leaves, or gives up after
    /// `goodbyeWait` (the database is away: waiting for it would keep the process from exiting).
    func stop(reason: String) async {
        publish(.nodeGone(node: name, reason: reason))
        let said = await NetworkNicks.first(before: .now + Self.goodbyeWait) { [self] in
            await flushQueue()
            try await store.leaveNetwork(node: name)
        }
        if case .success = said { return }
        logger.warning("network: could not say goodbye within \(Self.goodbyeWait); the others will take this node out")
    }

    private func publishLoop() async {
        for await _ in wakes {
            await flushQueue()
        }
    }

    /// Sends what is queued; a database that is away is retried until it is back, so nothing
    /// queued is lost or reordered.
    private func flushQueue() async {
        while true {
            let taken = queue.withLock { state -> [Outgoing] in
                let taken = state.events
                state.events = []
                if taken.isEmpty { state.woken = false }
                return taken
            }
            if taken.isEmpty { return }
            // Runs of events go in batches; a channel change between them waits its turn.
            var events: [NetworkMessage] = []
            for item in taken {
                switch item {
                case .event(let event): events.append(event)
                case .change(let change):
                    if !(await send(events)) { return }
                    events = []
                    if !(await order(change)) { return }
                }
            }
            if !(await send(events)) { return }
        }
    }

    /// Numbers a channel change in the database and announces it (retried while the database
    /// is away, as events are); false when cancelled.
    private func order(_ change: ChannelChange) async -> Bool {
        guard let channels = store as? any NetworkChannelStore else { return true }
        let (name, handlers) = (self.name, handlers.withLock { $0 })
        var delay = Duration.milliseconds(100)
        while true {
            do {
                let result = try await channels.changeChannelState(
                    change.channelKey, historyKey: change.historyKey, from: name,
                    change: { change.next(stored: $0) },
                    event: { version, state in
                        let channel = NetworkChannel(stored: state, name: change.name, version: version)
                        let message = channel.map { NetworkMessage.channelState(change.who, $0) }
                        return (try? message.map { try NetworkEnvelope(from: name, message: $0).encoded() }) ?? []
                    })
                let confirmed = result.flatMap {
                    NetworkChannel(stored: $0.state, name: change.name, version: $0.version)
                }
                handlers?.ordered(change.channelKey, confirmed)
                return true
            } catch {
                if Task.isCancelled { return false }
                logger.warning("network: could not order a channel change (\(error)); retrying")
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(2))
            }
        }
    }

    /// Publishes events in batches; false when cancelled.
    private func send(_ taken: [NetworkMessage]) async -> Bool {
        if taken.isEmpty { return true }
        await handlers.withLock { $0 }?.beforePublishing()
        let batch = taken.compactMap { message -> [UInt8]? in
            do {
                return try NetworkEnvelope(from: name, message: message).encoded()
            } catch {
                // Its kind only: the error's text may quote what was said.
                logger.error("network: could not encode a \(message.kind) event; not sent")
                handlers.withLock { $0 }?.refused("unencodable")
                return nil
            }
        }
        var start = 0
        while start < batch.count {
            let end = min(start + Self.eventsPerStatement, batch.count)
            var delay = Duration.milliseconds(100)
            while true {
                do {
                    try await store.publish(Array(batch[start..<end]), from: name)
                    break
                } catch {
                    if Task.isCancelled { return false }
                    logger.warning("network: could not publish (\(error)); retrying")
                    try? await Task.sleep(for: delay)
                    delay = min(delay * 2, .seconds(2))
                }
            }
            start = end
        }
        return true
    }

    private func heartbeatLoop() async {
        // Only a node that has reached the database for a whole timeout judges others: after
        // the database was away, everyone's heartbeat is old, and nobody is lost for that.
        let clock = ContinuousClock()
        var reachableSince: ContinuousClock.Instant?
        while !Task.isCancelled {
            let users = handlers.withLock { $0?.localUsers() } ?? 0
            do {
                let reap = reachableSince.map { clock.now - $0 >= NetworkLimits.nodeTimeout } ?? false
                let beat = try await store.heartbeat(node: name, users: users, reap: reap)
                if reachableSince == nil { reachableSince = clock.now }
                if beat.returned { await rejoin() }
                for (lost, _) in beat.lost {
                    logger.warning("network: node \(lost) stopped answering; its users are gone")
                    let gone = NetworkMessage.nodeGone(node: lost, reason: lost + " was lost")
                    handlers.withLock { $0 }?.apply(gone)
                    publish(gone)
                }
            } catch {
                reachableSince = nil
                logger.warning("network: heartbeat failed (\(error))")
            }
            try? await Task.sleep(for: NetworkLimits.heartbeatInterval)
        }
    }

    /// The others took this node out for lost (it stalled past the timeout) and freed its
    /// users' nicks: claim them again (a user whose nick another took meanwhile is renamed
    /// first) and announce its users anew.
    private func rejoin() async {
        guard let handlers = handlers.withLock({ $0 }) else { return }
        logger.warning("network: this node had been taken for lost; announcing its users again")
        let renames = await nicks.reclaim(handlers.localNicks().held)
        if !renames.isEmpty { handlers.collided(renames) }
        for event in handlers.announce() { publish(event) }
    }

    private func listenLoop() async {
        var delay = Duration.milliseconds(200)
        while !Task.isCancelled {
            do {
                for try await delivery in store.subscribe(ignoring: name) {
                    if delivery == .listening {
                        // Listening: read what was missed, ask for everyone's users, and drop
                        // those the database lost meanwhile.
                        delay = .milliseconds(200)
                        try await catchUp()
                        let timeout = Double(NetworkLimits.nodeTimeout.components.seconds)
                        let others = try await store.nodes().filter {
                            $0.name != name && -$0.heartbeatAt.timeIntervalSinceNow < timeout
                        }
                        awaiting.withLock { $0 = Set(others.map(\.name)) }
                        publish(.hello(server: serverName))
                        try await resync()
                        await handlers.withLock({ $0 })?.listening()
                        // Releases lost while the database was away: rows no session holds.
                        let local = handlers.withLock { $0 }?.localNicks() ?? LocalNicks()
                        try await nicks.sweep(live: local.held + local.pending, below: local.nextSession)
                        continue
                    }
                    take(delivery)
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("network: lost the bus (\(error)); reconnecting")
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(2))
        }
    }

    /// Handles an event once, in its node's order (a caught-up event may also be notified).
    private func take(_ delivery: NetworkDelivery) {
        guard delivery.node != name else { return }
        let fresh = lastSeen.withLock { seen -> Bool in
            if let last = seen[delivery.node], delivery.id <= last { return false }
            seen[delivery.node] = delivery.id
            return true
        }
        guard fresh else { return }
        do {
            receive(try NetworkEnvelope.decode(delivery.payload))
        } catch {
            // A node of another version, or a bug: said and counted, never dropped in silence. The
            // reason names fields, never their values (docs/SECURITY.md: never what was said).
            logger.warning("network: refused event \(delivery.id) of \(delivery.node): \(error)")
            handlers.withLock { $0 }?.refused(error.metricLabel)
        }
    }

    /// What each node published while this one was not listening (as far as the log keeps).
    private func catchUp() async throws {
        for (node, last) in lastSeen.withLock({ $0 }) {
            for delivery in try await store.events(from: node, after: last) { take(delivery) }
        }
    }

    private func receive(_ envelope: NetworkEnvelope) {
        guard let handlers = handlers.withLock({ $0 }) else { return }
        switch envelope.message {
        case .hello(let server):
            servers.withLock { $0[envelope.from] = server }
            for announcement in handlers.announce() { publish(announcement) }
            publish(.announced(to: envelope.from, server: serverName))
        case .announced(let to, let server):
            servers.withLock { $0[envelope.from] = server }
            if to == name { awaiting.withLock { _ = $0?.remove(envelope.from) } }
        case .nodeGone(let node, _):
            servers.withLock { $0[node] = nil }
            handlers.apply(envelope.message)
        default:
            handlers.apply(envelope.message)
        }
    }

    /// The other nodes' server names, by node.
    var peerServers: [String: String] { servers.withLock { $0 } }

    /// Waits until every live node has announced its users after this node's first `hello`
    /// (or `limit` passes): a user connecting then sees the whole network.
    func waitUntilSynced(limit: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while clock.now < deadline {
            if awaiting.withLock({ $0?.isEmpty == true }) { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
        logger.warning("network: not every node announced its users within \(limit); going on")
    }

    /// Users mirrored here whose claim the database no longer holds quit.
    private func resync() async throws {
        guard let handlers = handlers.withLock({ $0 }) else { return }
        let held = Set(try await store.networkNicks().map { RemoteOrigin(node: $0.node, session: $0.session) })
        for origin in handlers.mirrored().subtracting(held) {
            let who = NetworkUser(node: origin.node, session: origin.session)
            handlers.apply(.quit(who, reason: "Lost in a network split"))
        }
    }
}
