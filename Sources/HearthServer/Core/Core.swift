import Foundation
import HearthAccounts
import HearthKit
import HearthProtocol
import HearthStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// The chat server's IRC command logic, and what it works on: the chat state (connections,
/// nicks, channels) inside its lock, `chat`. Core has no mutable field of its own, so it is
/// checked `Sendable`. Sockets live in `ConnectionHandler`.
final class Core: Sendable {
    /// The settings now: a reload (`applyReload`) swaps in a new snapshot. `config.x` reads one
    /// field of it; the struct is not copied (several paths read a setting per message).
    var config: ConfigSnapshot { configBox.withLockedValue { $0 } }
    private let configBox: NIOLockedValueBox<ConfigSnapshot>
    /// Moves at each reload, so per-connection copies of settings (flood control) refresh.
    let configGeneration = Atomic<Int>(0)
    /// The IRC-over-TLS port once it listens (0: TLS is off), named by the `sts` cap.
    let tlsListeningPort = Atomic<Int>(0)
    /// REHASH from this operator: the server reads its configuration again and tells them
    /// how it went (nothing listens when it was started without a file).
    let rehashHook = Hook<Client>()
    let store: Store
    let logger: Logger
    let metrics: ServerMetrics
    let startedAt = Date()
    /// The server clock's ticks (`HearthClock.ticks`), read once per line by flood control.
    let ticks: @Sendable () -> UInt64
    let version = HearthVersion.ircName
    let bot: Bot
    /// This process as a node of a network (nil: it is the whole server).
    let network: NetworkNode?
    /// The loop and batcher all remote users share (never used for them: their node delivers).
    let remotePlace: Client.RemotePlace
    var passwords: PasswordWorker { bot.services.passwords }
    /// Hides users' addresses from each other (nil: `--no-cloak-hosts`); see Cloaking.swift.
    let cloak: HostCloak?
    /// Push notifications to subscribed devices (nil: `--no-web-push`); see Push/.
    let push: PushNotifier?

    /// Connections, nicks, channels: only inside `chat.withLock` (or `withState`).
    /// Client's fields marked "shared" are also changed only there.
    let chat = LockedChat()
    /// History waiting to be written (see HistoryLog.swift).
    let historyQueue = Mutex(HistoryQueue())
    /// A network batch's history write still running (being retried): later batches do not wait.
    let historyFlushBeforePublishing = Mutex(false)
    /// Always-on presences being written, in order; awaited before the store closes.
    let presenceWrites = OrderedWrites()
    /// One pending reminder per account (e.g. "a new cookie is ready"), scheduled, not polled.
    let reminders = NIOLockedValueBox(ReminderTable())
    /// Topic, mode and list changes of registered channels, saved in order by one task.
    let saves: AsyncStream<ChannelSave>.Continuation
    private let savesStream: AsyncStream<ChannelSave>

    let loops: LoopLocals
    let group: EventLoopGroup

    init(
        config: ServerConfig, store: Store, bot: Bot, network: NetworkNode? = nil, logger: Logger,
        group: EventLoopGroup, epoll: (any EventLoopGroup)? = nil,
        metrics: ServerMetrics = ServerMetrics()
    ) {
        self.metrics = metrics
        // Timeouts are checked four times per shortest timeout.
        let shortest = min(config.pingInterval, config.pingTimeout, config.registrationTimeout)
        loops = LoopLocals(
            groups: [group] + (epoll.map { [$0] } ?? []),
            sweepInterval: .milliseconds(Int64(max(0.05, shortest / 4) * 1000)), metrics: metrics)
        (savesStream, saves) = AsyncStream.makeStream(of: ChannelSave.self)
        configBox = NIOLockedValueBox(ConfigSnapshot(config))
        ticks = config.clock.ticks
        serverName = config.serverName
        botPrefix = "\(Bot.nick)!\(Bot.nick)@\(config.serverName)"
        self.group = group
        remotePlace = Client.RemotePlace(loop: group.next())
        self.store = store
        self.bot = bot
        cloak = config.cloakHosts ? HostCloak(secret: bot.services.codes) : nil
        push =
            config.webPush
            ? PushNotifier(config: config, store: store, secret: bot.services.codes, group: group, logger: logger)
            : nil
        self.network = network
        self.logger = logger
        isupportNetwork = config.networkName
        isupportVAPID = push.map { ["VAPID=\($0.vapid.publicKeyText)"] } ?? []
        createdText = "This server was created \(startedAt.formatted(.iso8601))"
    }

    /// The 005 lines, made once for every registration. Once per public address, not at start:
    /// draft/FILEHOST names the web's address, known only when its port is bound (port 0).
    var isupportLines: [[String]] {
        // draft/FILEHOST: where IRC clients may upload pictures themselves.
        let url = bot.services.media?.publicURL
        return isupportCache.withLockedValue { cache in
            if let cache, cache.url == url { return cache.lines }
            let fileHost = url.map { ["draft/FILEHOST=\($0)/upload"] } ?? []
            let lines = ISupport.lines(ISupport.tokens(network: isupportNetwork, extra: fileHost + isupportVAPID))
            cache = (url, lines)
            return lines
        }
    }
    private let isupportNetwork: String
    private let isupportVAPID: [String]
    private let isupportCache = NIOLockedValueBox<(url: String?, lines: [[String]])?>(nil)
    /// The 003 text: the same for every registration until a restart.
    let createdText: String

    /// Loads registered channels (before the listener accepts anyone).
    func loadRegisteredChannels() async throws {
        let stored = try await store.registeredChannels()
        chat.withLock { state in for record in stored { state.registered[record.nameKey] = record } }
        try await loadKeptLists()
    }

    /// Loads the channels the apps guard and who may be in each.
    func loadGuardedChannels() async throws {
        let all = try await bot.guardedChannels()
        chat.withLock { state in for channel in all { state.guarded[IRCNames.fold(channel.name)] = channel } }
    }

    /// Puts a connection that logged in before registering into the guarded channels it is
    /// on the list of.
    func joinGuardedChannels(_ state: inout ChatState, _ client: Client, accountID: Int64) {
        let keys = state.guarded.filter { $0.value.members.contains(accountID) }.keys.sorted()
        for key in keys { client.eventLoop.execute { self.joinOne(client, name: key, key: nil) } }
    }

    /// Saves registered channels' changes, in order, until the stream ends.
    func runChannelSaves() async {
        for await save in savesStream {
            if case .rename = save { await flushHistory() }  // lines said under the old name move too
            do { try await save.run(store) } catch { logger.error("saving \(save.nameKey) failed: \(error)") }
        }
    }

    /// Queues a save of a registered channel's topic and modes.
    func persistIfRegistered(_ state: inout ChatState, _ channel: ChannelState) {
        guard var record = state.registered[channel.key] else { return }
        record.topic = channel.topic
        record.topicSetBy = channel.topicSetBy
        record.topicSetAt = channel.topicSetAt
        record.modes = channel.modes
        state.registered[channel.key] = record
        saves.yield(.record(record))
        keepLists(&state, channel)
    }

    /// Names change only with a restart: read without the settings' lock.
    let serverName: String
    let botPrefix: String

    /// A copy of what others see of `client` now, for a handler that reads it before deciding
    /// under the lock (it does not change with the state: read the state again after a change).
    func snapshot(_ client: Client) -> ChatUser {
        chat.withLock { state in state[client] }
    }

    func newClientID() -> Int {
        chat.withLock { $0.newClientID() }
    }

    /// Runs `body` under the lock, then sends what it queued (see `Outbox.dispatch`).
    @discardableResult
    func withState<T>(_ body: (inout ChatState, inout Outbox) throws -> T) rethrows -> T {
        var out = Outbox()
        let (result, local) = try chat.withLock { state throws -> (T, Outbox.LocalWrites) in
            let result = try body(&state, &out)
            return (result, out.dispatch(state))
        }
        if local.count > 0 { metrics.deliveries.increment(by: local.count) }
        local.perform()
        return result
    }

    // MARK: replies

    func numeric(_ state: ChatState, _ client: Client, _ numeric: Numeric, _ params: String...) -> IRCMessage {
        IRCMessage(source: serverName, command: numeric.rawValue, params: [state[client].nick] + params)
    }

    func numeric(_ state: ChatState, _ client: Client, _ numeric: Numeric, params: [String]) -> IRCMessage {
        IRCMessage(source: serverName, command: numeric.rawValue, params: [state[client].nick] + params)
    }

    func reply(_ client: Client, _ numeric: Numeric, _ params: String...) {
        withState { state, out in out.send(client, self.numeric(state, client, numeric, params: params)) }
    }

    func notice(_ state: ChatState, _ client: Client, _ text: String, out: inout Outbox) {
        out.send(client, IRCMessage(source: serverName, command: "NOTICE", params: [state[client].nick, text]))
    }

    /// A message from `client` with the tags IRCv3 clients may ask for: server time, a
    /// msgid, the sender's account, `bot`, and the sender's own client-only tags.
    /// `wanted` is what the recipients asked for; tags nobody will see are not made
    /// (formatting a time and a msgid per message is a measurable cost). The rules are
    /// `UserMessageTags`', which the fast relay writes too.
    func userMessage(
        _ state: ChatState, _ client: Client, source: String? = nil, _ command: String, _ params: [String],
        clientTags: [IRCTag] = [],
        msgid: String? = nil, wanted: TagMask = [.serverTime, .messageTags, .accountTag], at time: Date? = nil
    ) -> IRCMessage {
        guard !wanted.isEmpty else {
            return IRCMessage(source: source ?? state[client].prefix, command: command, params: params)
        }
        let tags = UserMessageTags(
            isBot: state[client].isBot, account: state[client].account, wanted: wanted, keep: false, msgid: msgid,
            at: time)
        return userMessage(state, client, source: source, command, params, tags: tags, clientTags: clientTags)
    }

    /// A message from `client` carrying `tags` (made by the caller, who needs its msgid or time).
    func userMessage(
        _ state: ChatState, _ client: Client, source: String? = nil, _ command: String, _ params: [String],
        tags: UserMessageTags, clientTags: [IRCTag] = []
    ) -> IRCMessage {
        IRCMessage(
            tags: tags.ircTags(clientTags: clientTags), source: source ?? state[client].prefix, command: command,
            params: params)
    }

    /// Sends to the peers of `client` (and itself when `includeSelf`), and to its MONITOR
    /// watchers with extended-monitor, that enabled `cap`.
    func sendToPeers(
        _ state: inout ChatState, of client: Client, withCap cap: String, includeSelf: Bool = false,
        _ message: IRCMessage, out: inout Outbox
    ) {
        var targets = (includeSelf ? [client] : []) + state.peers(of: client)
        // extended-monitor: those watching the nick hear it too, shared channel or not.
        for id in state.watchers[state[client].nickKey] ?? [] {
            guard let watcher = state.clients[id], state[watcher].caps.contains("extended-monitor"),
                watcher !== client || includeSelf, !targets.contains(where: { $0 === watcher })
            else { continue }
            targets.append(watcher)
        }
        let interested = targets.filter { state[$0].caps.contains(cap) }
        if !interested.isEmpty { out.send(interested, message) }
    }

    // MARK: registry

    /// Takes a new connection in, unless its address holds too many already.
    func add(_ client: Client, exempt: Bool) -> Bool {
        let limit = config.maxConnectionsPerAddress
        return chat.withLock { $0.admit(client, exempt: exempt, limit: limit) }
    }

    /// Removes a connection: QUIT to its peers, out of its channels and the nick table.
    func remove(_ client: Client, reason: String) {
        withState { state, out in
            guard state.clients.removeValue(forKey: client.id) != nil else { return }
            state.forgetAddress(client)
            noteDeviceLeft(state, client)
            // A device leaving while others stay, or an always-on account's last: the user is still here.
            let kept = state.otherDevices(of: client).isEmpty && keepPresent(&state, client, out: &out)
            if state[client].registered && !kept {
                tellNetwork(client) { .quit($0, reason: reason) }
                releaseNetworkNick(state[client].nickKey, session: client.id)
            }
            if !detachDevice(&state, client, tell: false, out: &out) && state[client].registered && !kept {
                rememberNick(&state, client)
                let quit = userMessage(state, client, "QUIT", [reason])
                out.send(state.peers(of: client), quit)
                announcePresence(&state, client, online: false, out: &out)
            }
            dropMonitors(&state, client)
            for key in state[client].channels { removeMember(&state, client, from: key) }
            state[client].channels = []
            state[client].registered = false
            state[client].invisible = false
            state[client].isOper = false
            let nickKey = state[client].nickKey
            if !nickKey.isEmpty, state.nicks[nickKey] === client { state.nicks[nickKey] = nil }
        }
    }

    func removeMember(_ state: inout ChatState, _ client: Client, from key: String) {
        let status = state.channels[key]?.members[client.id]
        if let emptied = state.removeMember(client, from: key) {
            forgetNetworkChannel(emptied)
        } else if let status, let channel = state.channels[key] {
            tellNetwork(left: client, channel, had: status)
        }
    }

    /// Gives `client` — and the devices sharing its nick — a new nick and tells them and
    /// their peers. Caller checked availability.
    func setNick(_ state: inout ChatState, _ client: Client, to newNick: String, out: inout Outbox) {
        guard state.clients[client.id] != nil || client.isRemote else { return }
        let newKey = IRCNames.fold(newNick)
        let oldKey = state[client].nickKey
        var group = [client]
        if let shared = state.deviceGroups[oldKey], shared.contains(where: { $0 === client }) {
            group = shared
            state.deviceGroups[oldKey] = nil
        }
        let holder = state.nicks[oldKey].flatMap { h in group.contains { $0 === h } ? h : nil } ?? client
        if !oldKey.isEmpty, state.nicks[oldKey] === holder { state.nicks[oldKey] = nil }
        let oldPrefix = state[client].prefix
        let wasRegistered = state[client].registered
        if wasRegistered && oldKey != newKey { rememberNick(&state, client) }
        for device in group {
            state[device].nick = newNick
            state[device].nickKey = newKey
        }
        state.nicks[newKey] = holder
        if group.count > 1 { state.deviceGroups[newKey] = group }
        if wasRegistered {
            renamedInNetwork(state, client, from: oldKey)
            for device in group where device !== client { renamedInNetwork(state, device, from: oldKey, tell: false) }
            let message = userMessage(state, client, source: oldPrefix, "NICK", [newNick])
            out.send(Self.unique(group + state.peers(of: client)), message)
            // Only a change of nick, not of its case, is news to MONITOR watchers.
            if let oldNick = oldPrefix.split(separator: "!").first.map(String.init), IRCNames.fold(oldNick) != newKey {
                announcePresence(&state, client, online: false, nick: oldNick, out: &out)
                announcePresence(&state, client, online: true, out: &out)
            }
        }
    }

    /// A notice from the bot to every connection of an account (e.g. an upload arrived).
    func notify(accountID: Int64, text: String) {
        withState { state, out in notify(&state, accountID: accountID, text: text, out: &out) }
    }

    /// `elsewhere`: also to the account's users on other nodes of a network (a reminder is not:
    /// every node where the account logged in keeps its own, so it is said once per session).
    func notify(_ state: inout ChatState, accountID: Int64, text: String, elsewhere: Bool = true, out: inout Outbox) {
        for other in state.clients.values where state[other].account?.id == accountID {
            out.send(other, IRCMessage(source: botPrefix, command: "NOTICE", params: [state[other].nick, text]))
        }
        if elsewhere { notifyElsewhere(&state, accountID: accountID, text: text) }
    }

    /// Schedules a notice for an account's connections (replacing its earlier reminder).
    /// The delay comes from the configured clock, so tests can move time.
    func scheduleReminder(accountID: Int64, at: Date, text: String) {
        let delay = max(0, at.timeIntervalSince(config.clock.now()))
        let loop = group.next()
        reminders.withLockedValue { reminders in
            let id = reminders.newID()
            let task = loop.scheduleTask(in: .milliseconds(Int64(delay * 1000))) { [weak self] in
                guard let self else { return }
                self.reminders.withLockedValue { $0.fired(accountID, id: id) }
                self.withState { state, out in
                    self.notify(&state, accountID: accountID, text: text, elsewhere: false, out: &out)
                }
            }
            reminders.replace(accountID, id: id, with: task)
        }
    }

}

extension Core: PresenceDirectory {
    func sessionUsing(nickKey: String) -> Int? {
        chat.withLock { state in state.nicks[nickKey]?.id }
    }

    func channel(nameKey: String, sessionID: Int) -> LiveChannel? {
        chat.withLock { state in
            guard let channel = state.channels[nameKey] else { return nil }
            return LiveChannel(
                name: channel.name, members: state.userCount(channel),
                callerIsMember: channel.members[sessionID] != nil,
                callerIsOp: channel.members[sessionID]?.op == true,
                topic: channel.topic, topicSetBy: channel.topicSetBy, flags: channel.modes.flagLetters,
                key: channel.modes.key, limit: channel.modes.limit,
                callerSendRefusal: state.clients[sessionID].flatMap { channelRefusal(state, $0, channel) },
                historyKey: channel.historyKey)
        }
    }
}

extension Core {
    /// One log line per connection event, with the connection's id, nick and account (never
    /// what it said: lines can carry passwords). Takes the chat lock: call it outside.
    func logEvent(_ event: String, _ client: Client, _ more: Logger.Metadata = [:]) {
        guard logger.logLevel <= .info else { return }
        let (nick, account) = chat.withLock { state in (state[client].nick, state[client].account?.name) }
        var metadata: Logger.Metadata = ["conn": "\(client.id)", "nick": "\(nick)"]
        if let account { metadata["account"] = "\(account)" }
        logger.info("\(event)", metadata: metadata.merging(more) { $1 })
    }

    /// Takes the settings a reload may change while everyone stays connected; the rest
    /// (ports, data, database, names) stay as they started.
    func applyReload(_ new: ServerConfig) {
        configBox.withLockedValue { snapshot in
            var config = snapshot.value
            defer { snapshot = ConfigSnapshot(config) }
            config.operators = new.operators
            config.motd = new.motd
            config.historyDays = new.historyDays
            config.joinBacklog = new.joinBacklog
            config.floodControl = new.floodControl
            config.flood = new.flood
            config.maxConnectionsPerAddress = new.maxConnectionsPerAddress
            config.pingInterval = new.pingInterval
            config.tlsCertificatePath = new.tlsCertificatePath
            config.tlsKeyPath = new.tlsKeyPath
            config.metricsToken = new.metricsToken
        }
        configGeneration.add(1, ordering: .relaxed)
    }
}

/// One version of the settings, shared (not copied) by everyone reading it.
@dynamicMemberLookup
final class ConfigSnapshot: Sendable {
    let value: ServerConfig
    init(_ value: ServerConfig) { self.value = value }
    subscript<T>(dynamicMember key: KeyPath<ServerConfig, T>) -> T { value[keyPath: key] }
}
