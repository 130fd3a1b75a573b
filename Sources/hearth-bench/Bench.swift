import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

@main
struct HearthBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearth-bench",
        abstract: "Load generator for Hearth and any RFC 1459/2812 IRC server. Each scenario prints one JSON line.",
        subcommands: [
            Connect.self, Fanout.self, Direct.self, BotLoad.self, Login.self, MemeLoad.self, Render.self, Floor.self,
            ChatOnly.self, Converge.self, SearchLoad.self, HistoryWrite.self, AlwaysOnLoad.self, GIFRender.self,
            FamilyImportLoad.self,
        ])
}

struct Common: ParsableArguments {
    @Option(help: "Server address.") var host = "127.0.0.1"
    @Option(help: "Server port.") var port = 6667
    @Option(help: "Server PID, for CPU seconds and RSS from /proc.") var pid: Int32?
    @Option(help: "Label for the report.") var server = "server"
    @Option(help: "Seconds to measure.") var duration: Double = 10
    @Option(help: "Seconds of warm-up before measuring.") var warmup: Double = 2
    @Option(help: "Registrations in flight (ngIRCd needs ~8, InspIRCd ~1000).") var inflight = 200
    @Option(help: "Harness event-loop threads.") var threads = 2
    @Option(help: "Another node of the same network: connections alternate between the ports. Repeatable.")
    var alsoPort: [Int] = []
    @Option(help: "Another node's PID, whose CPU counts too. Repeatable.") var alsoPid: [Int32] = []
    @Option(help: "Connect over IRC-over-WebSocket to this HTTP port (path /irc) instead of --port.")
    var websocketPort: Int?

    /// Every port connections are spread over (one per node).
    var ports: [Int] { websocketPort.map { [$0] } ?? [port] + alsoPort }

    @Option(help: "Slow readers: after registering, each connection reads once every N ms (0: at once).")
    var readEveryMs: Int64 = 0

    func validate() throws {
        BenchTransport.webSocket = websocketPort != nil
        BenchTransport.readEveryMs = max(0, readEveryMs)
    }
    /// Every server process whose CPU and memory count.
    var pids: [Int32] { (pid.map { [$0] } ?? []) + alsoPid }

    func report(_ scenario: String) -> Report {
        var r = Report()
        r.add("scenario", scenario)
        r.add("server", server)
        if readEveryMs > 0 { r.add("client", "slow\(readEveryMs)ms") }
        return r
    }
}

func raiseFileLimit() {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

/// Per-connection counters, touched only on the connection's event loop.
final class Meter: @unchecked Sendable {
    var count = 0
    var latencies = newLatencies()
    var measuring = false

    func record(_ nanos: UInt64) {
        guard measuring else { return }
        count += 1
        _ = latencies.record(nanos)
    }
}

/// Starts measuring on every meter, waits, stops, and sums.
func measure(_ pairs: [(BenchConnection, Meter)], seconds: Double) async throws -> (count: Int, latencies: Latencies) {
    try await setMeasuring(pairs, true)
    try await Task.sleep(for: .seconds(seconds))
    try await setMeasuring(pairs, false)
    var total = 0
    var merged = newLatencies()
    for (_, meter) in pairs {
        total += meter.count
        merged.add(meter.latencies)
    }
    return (total, merged)
}

func setMeasuring(_ pairs: [(BenchConnection, Meter)], _ on: Bool) async throws {
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        for (connection, meter) in pairs {
            tasks.addTask {
                try await connection.channel.eventLoop.submit {
                    if on {
                        meter.count = 0
                        meter.latencies.reset()
                    }
                    meter.measuring = on
                }.get()
            }
        }
        try await tasks.waitForAll()
    }
}

func closeAll(_ connections: [BenchConnection]) async {
    for connection in connections {
        try? await connection.channel.close()
    }
}

/// Four random letters for a run's nicks: a server may still hold the last run's nicks
/// (InspIRCd 3.15 keeps some connections closed mid-flood in CLOSE-WAIT, nick and all).
/// With a one-letter prefix and up to three digits a nick stays within ngIRCd's 9.
func runTag() -> String {
    String((0..<4).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! })
}

func isPrivmsg(_ line: UnsafeRawBufferPointer) -> Bool {
    BenchConnection.command(of: line)?.elementsEqual("PRIVMSG".utf8) ?? false
}

// MARK: connect

struct Connect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "N registered idle clients: registration rate, latency (whole and by phase), RSS per client.")
    @OptionGroup var common: Common
    @Option(help: "Clients to connect.") var clients = 1000

    func run() async throws {
        raiseFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: common.threads)
        let before = common.pids.compactMap(ProcessStats.read)
        let latencies = NIOLockedValueBox<[UInt64]>([])
        let failed = NIOLockedValueBox(0)
        let span = Span(pids: common.pids)
        let connections = try await openMany(
            count: clients, inflight: common.inflight, host: common.host, ports: common.ports, prefix: "c",
            group: group,
            latencies: latencies, failed: failed)
        let (seconds, cpu, harness, _) = span.finish()
        try await Task.sleep(for: .seconds(2))
        let after = common.pids.compactMap(ProcessStats.read)
        var histogram = newLatencies()
        for value in latencies.withLockedValue({ $0 }) { _ = histogram.record(value) }
        var r = common.report("connect")
        r.add("clients", connections.count)
        r.add("failed", failed.withLockedValue { $0 })
        r.add("inflight", common.inflight)
        r.add("seconds", seconds)
        r.add("registrations_per_s", Double(connections.count) / seconds)
        r.add("p50_ms", histogram.ms(50))
        r.add("p99_ms", histogram.ms(99))
        addPhases(connections, to: &r)
        r.add("server_cpu_s", cpu)
        r.add("harness_cpu_s", harness)
        r.add("server_rss_kib", after.isEmpty ? nil : after.reduce(0) { $0 + $1.rssKiB })
        if !before.isEmpty, after.count == before.count {
            // Over every node: each node holds its own clients and mirrors the others'.
            let grown = zip(after, before).reduce(0) { $0 + $1.0.rssKiB - $1.1.rssKiB }
            r.add("kib_per_client", Double(grown) / Double(max(1, connections.count)))
            r.add("kib_per_client_per_node", Double(grown) / Double(max(1, connections.count)) / Double(after.count))
        }
        print(r.line())
        await closeAll(connections)
        try await group.shutdownGracefully()
    }
}

/// A registration in its two phases: `connect()` until the socket connected (the handshake: a
/// server whose accept backlog is full has its kernel drop the SYN, and the client sends it again
/// after 1 s), then connected until 001 (the wait to be accepted, and the server's work). A
/// client that starts its clock once connected sees only the second (`after_connect_*`);
/// `from_connect_*` is both, `connect_*` the first; `slow_connects` took 1 s or more.
func addPhases(_ connections: [BenchConnection], to r: inout Report) {
    var connect = newLatencies()
    var afterConnect = newLatencies()
    var fromConnect = newLatencies()
    var slow = 0
    for c in connections
    where c.connectCalledAt > 0 && c.connectedAt >= c.connectCalledAt
        && c.registeredAt >= c.connectedAt
    {
        _ = connect.record(c.connectedAt - c.connectCalledAt)
        _ = afterConnect.record(c.registeredAt - c.connectedAt)
        _ = fromConnect.record(c.registeredAt - c.connectCalledAt)
        if c.connectedAt - c.connectCalledAt >= 1_000_000_000 { slow += 1 }
    }
    for (name, histogram) in [("from_connect", fromConnect), ("connect", connect), ("after_connect", afterConnect)] {
        r.add("\(name)_p50_ms", histogram.ms(50))
        r.add("\(name)_p99_ms", histogram.ms(99))
    }
    r.add("slow_connects", slow)
}

// MARK: fanout

struct Fanout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "C members in one channel (or spread over several), S senders with W messages in flight each.")
    @OptionGroup var common: Common
    @Option(help: "Channel members.") var members = 200
    @Option(help: "Senders among them.") var senders = 10
    @Option(help: "Channels the members are spread over (member i joins channel i mod N; each needs a sender).")
    var channels = 1
    @Option(help: "Messages in flight per sender.") var window = 16
    @Option(help: "Paced instead: each sender sends one line every N ms, whatever is in flight.")
    var intervalMs: Int?

    final class Sender: @unchecked Sendable {
        var inFlight = 0
        var seq = 0
    }

    func run() async throws {
        raiseFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: common.threads)
        let prefix = "f" + runTag()
        let connections = try await openMany(
            count: members, inflight: common.inflight, host: common.host, ports: common.ports, prefix: prefix,
            group: group)
        let meters = connections.map { _ in Meter() }
        let senderState = (0..<senders).map { _ in Sender() }
        let channels = self.channels
        guard channels >= 1, senders >= channels, members > senders + channels else {
            throw ValidationError("need 1 <= channels <= senders and more members than senders + channels")
        }
        // Per channel, the first member that does not send sees every line and frees its sender.
        let observers = Set((0..<channels).map { senders + ($0 - senders % channels + channels) % channels })
        let channelName = { @Sendable (index: Int) in channels == 1 ? "#bench" : "#bench\(index % channels)" }
        let window = self.window
        let joined = NIOLockedValueBox(0)
        @Sendable func pump(_ index: Int) {
            let connection = connections[index]
            let state = senderState[index]
            while state.inFlight < window {
                state.seq += 1
                state.inFlight += 1
                connection.send("PRIVMSG \(channelName(index)) :s\(index) \(state.seq) \(nowNanos())\r\n")
            }
            connection.flush()
        }
        try await onLoops(connections) { connection in
            let index = Int(connection.nick.dropFirst(prefix.count))!
            let meter = meters[index]
            connection.onLine = { connection, line in
                if isPrivmsg(line) {
                    guard let sent = BenchConnection.lastNumber(of: line), sent <= connection.readAt else { return }
                    meter.record(connection.readAt - sent)
                    if observers.contains(index), let text = BenchConnection.trailing(of: line),
                        text.first == UInt8(ascii: "s")
                    {
                        let senderIndex =
                            Int(String(decoding: text.dropFirst().prefix { $0 != 32 }, as: UTF8.self)) ?? 0
                        let sender = connections[senderIndex]
                        sender.channel.eventLoop.execute {
                            senderState[senderIndex].inFlight -= 1
                            pump(senderIndex)
                        }
                    }
                } else if BenchConnection.command(of: line)?.elementsEqual("366".utf8) == true {
                    joined.withLockedValue { $0 += 1 }
                }
            }
            connection.send("JOIN \(channelName(index))\r\n")
            connection.flush()
        }
        while joined.withLockedValue({ $0 }) < members { try await Task.sleep(for: .milliseconds(20)) }
        var pacers: [RepeatedTask] = []
        for index in 0..<senders {
            let connection = connections[index]
            if let intervalMs {
                // A steady rate (e.g. 10 senders × 5 lines/s × 200 members = 10,000 deliveries/s).
                pacers.append(
                    connection.channel.eventLoop.scheduleRepeatedTask(
                        initialDelay: .milliseconds(Int64(index * intervalMs / senders)),
                        delay: .milliseconds(Int64(intervalMs))
                    ) { _ in
                        let state = senderState[index]
                        state.seq += 1
                        connection.send("PRIVMSG \(channelName(index)) :p\(index) \(state.seq) \(nowNanos())\r\n")
                        connection.flush()
                    })
            } else {
                connection.channel.eventLoop.execute { pump(index) }
            }
        }
        let pairs = Array(zip(connections, meters))
        try await Task.sleep(for: .seconds(common.warmup))
        let span = Span(pids: common.pids)
        let (deliveries, latencies) = try await measure(pairs, seconds: common.duration)
        let (seconds, cpu, harness, rss) = span.finish()
        var r = common.report("fanout")
        r.add("members", members)
        r.add("senders", senders)
        r.add("channels", channels)
        if let intervalMs { r.add("interval_ms", intervalMs) }
        r.add("window", window)
        r.add("deliveries", deliveries)
        r.add("deliveries_per_s", Double(deliveries) / seconds)
        r.add("deliveries_per_server_cpu_s", cpu.map { Double(deliveries) / max($0, 0.001) })
        r.addRun(seconds: seconds, latencies: latencies, serverCPU: cpu, harnessCPU: harness, rss: rss)
        print(r.line())
        // Before the loops shut down (a pacer cancelled after that is an error NIO prints).
        for pacer in pacers { pacer.cancel() }
        await closeAll(connections)
        try await group.shutdownGracefully()
    }
}

// MARK: direct

/// Pairs ping-ponging private messages; `chatPairs` is reused by the bot and login scenarios
/// to measure chat latency under other load.
func startPingPong(pairs: Int, prefix: String, common: Common, group: EventLoopGroup, pauseMillis: Int64 = 0)
    async throws
    -> (connections: [BenchConnection], meters: [(BenchConnection, Meter)])
{
    let connections = try await openMany(
        count: pairs * 2, inflight: common.inflight, host: common.host, ports: common.ports, prefix: prefix,
        group: group)
    let byNick = Dictionary(uniqueKeysWithValues: connections.map { ($0.nick, $0) })
    var meters: [(BenchConnection, Meter)] = []
    for i in 0..<pairs {
        guard let a = byNick["\(prefix)\(2 * i)"], let b = byNick["\(prefix)\(2 * i + 1)"] else { continue }
        let meter = Meter()
        meters.append((a, meter))
        let aNick = a.nick
        let bNick = b.nick
        try await a.channel.eventLoop.submit {
            a.onLine = { connection, line in
                guard isPrivmsg(line), let sent = BenchConnection.lastNumber(of: line), sent <= connection.readAt
                else { return }
                meter.record(connection.readAt - sent)
                if pauseMillis > 0 {
                    // A person chatting, not a flood: the next line after a pause.
                    connection.channel.eventLoop.scheduleTask(in: .milliseconds(pauseMillis)) {
                        connection.send("PRIVMSG \(bNick) :\(nowNanos())\r\n")
                        connection.flush()
                    }
                } else {
                    connection.send("PRIVMSG \(bNick) :\(nowNanos())\r\n")
                }
            }
        }.get()
        try await b.channel.eventLoop.submit {
            b.onLine = { connection, line in
                guard isPrivmsg(line), let text = BenchConnection.trailing(of: line) else { return }
                connection.send("PRIVMSG \(aNick) :" + String(decoding: text, as: UTF8.self) + "\r\n")
            }
        }.get()
        a.channel.eventLoop.execute {
            a.send("PRIVMSG \(bNick) :\(nowNanos())\r\n")
            a.flush()
        }
    }
    return (connections, meters)
}

struct Direct: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "P pairs ping-ponging private messages.")
    @OptionGroup var common: Common
    @Option(help: "Pairs.") var pairs = 500

    func run() async throws {
        raiseFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: common.threads)
        let (connections, meters) = try await startPingPong(
            pairs: pairs, prefix: "d" + runTag(), common: common, group: group)
        try await Task.sleep(for: .seconds(common.warmup))
        let span = Span(pids: common.pids)
        let (roundTrips, latencies) = try await measure(meters, seconds: common.duration)
        let (seconds, cpu, harness, rss) = span.finish()
        var r = common.report("direct")
        r.add("pairs", pairs)
        r.add("round_trips", roundTrips)
        r.add("round_trips_per_s", Double(roundTrips) / seconds)
        r.add("messages_per_server_cpu_s", cpu.map { Double(2 * roundTrips) / max($0, 0.001) })
        r.addRun(seconds: seconds, latencies: latencies, serverCPU: cpu, harnessCPU: harness, rss: rss)
        print(r.line())
        await closeAll(connections)
        try await group.shutdownGracefully()
    }
}

// MARK: bot

/// What one measured stretch of a load scenario produced.
struct LoadResult {
    var count: Int
    var latencies: Latencies
    var chatLoaded: Latencies
    var seconds: Double
    var serverCPU: Double?
    var harnessCPU: Double
    var serverRSS: Int?

    /// Measures `load` for the scenario's duration while the chat pairs keep talking.
    static func run(load: [(BenchConnection, Meter)], chat: [(BenchConnection, Meter)], common: Common) async throws
        -> LoadResult
    {
        let span = Span(pids: common.pids)
        async let chatUnderLoad = measure(chat, seconds: common.duration)
        let (count, latencies) = try await measure(load, seconds: common.duration)
        let (seconds, cpu, harness, rss) = span.finish()
        let (_, loaded) = try await chatUnderLoad
        return LoadResult(
            count: count, latencies: latencies, chatLoaded: loaded, seconds: seconds, serverCPU: cpu,
            harnessCPU: harness,
            serverRSS: rss)
    }

    func report(into r: inout Report, rateKey: String, quiet: Latencies) {
        r.add(rateKey, Double(count) / seconds)
        r.add("chat_p99_ms_quiet", quiet.ms(99))
        r.add("chat_p99_ms_loaded", chatLoaded.ms(99))
        r.addRun(seconds: seconds, latencies: latencies, serverCPU: serverCPU, harnessCPU: harnessCPU, rss: serverRSS)
    }
}

/// Clients that each keep one bot command in flight. `outcome` reads a line from the bot:
/// nil while the reply goes on, true at the end of a successful one (it is measured),
/// false at the end of a refusal (not measured; the command is sent again).
func startBotClients(
    count: Int, prefix: String, common: Common, group: EventLoopGroup, rate: Double? = nil,
    command: @escaping @Sendable (BenchConnection) -> String,
    outcome: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool?
) async throws -> (connections: [BenchConnection], meters: [(BenchConnection, Meter)]) {
    let connections = try await openMany(
        count: count, inflight: common.inflight, host: common.host, ports: common.ports, prefix: prefix, group: group)
    return (connections, try await driveBotClients(connections, rate: rate, command: command, outcome: outcome))
}

/// Makes each connection keep one bot command in flight (see `startBotClients`). With
/// `rate` (commands per second over all connections), each one waits for its next slot
/// instead of sending again at once, so the load is fixed rather than as much as the server takes.
func driveBotClients(
    _ connections: [BenchConnection], rate: Double? = nil, command: @escaping @Sendable (BenchConnection) -> String,
    outcome: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool?
) async throws -> [(BenchConnection, Meter)] {
    var meters: [(BenchConnection, Meter)] = []
    let interval = rate.map { UInt64(Double(connections.count) / $0 * 1e9) }
    for connection in connections {
        let meter = Meter()
        meters.append((connection, meter))
        try await connection.channel.eventLoop.submit {
            let sentAt = SentAt(nowNanos())
            var due = sentAt.value
            connection.onLine = { connection, line in
                guard line.starts(with: ":hearth!".utf8), let success = outcome(line) else { return }
                if success { meter.record(nowNanos() - sentAt.value) }
                let now = nowNanos()
                guard let interval else {
                    sentAt.value = now
                    connection.send("PRIVMSG hearth :\(command(connection))\r\n")
                    return
                }
                // The next slot; when the server fell behind, the next command goes at once.
                due = max(due + interval, now)
                connection.channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(due - now))) {
                    sentAt.value = nowNanos()
                    connection.send("PRIVMSG hearth :\(command(connection))\r\n")
                    connection.flush()
                }
            }
            sentAt.value = nowNanos()
            connection.send("PRIVMSG hearth :\(command(connection))\r\n")
            connection.flush()
        }.get()
    }
    return meters
}

/// When a client's command went out; read and written only on its connection's event loop.
final class SentAt: @unchecked Sendable {
    var value: UInt64
    init(_ value: UInt64) { self.value = value }
}

struct BotLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bot", abstract: "Clients issuing Hearth bot commands, and the chat latency of others meanwhile.")
    @OptionGroup var common: Common
    @Option(help: "Clients issuing commands (one in flight each).") var clients = 64
    @Option(help: "The bot command.") var command = "!whoami"
    @Option(help: "Text in the last line of a reply (default: every line is a whole reply).") var end: String?
    @Option(help: "Chat pairs measured alongside.") var chatPairs = 20
    @Option(help: "Milliseconds each chat pair waits between messages (0: as fast as the server answers).")
    var chatPause: Int64 = 20
    @Option(help: "Commands per second over all clients (default: each client sends again as soon as it is answered).")
    var rate: Double?

    func run() async throws {
        raiseFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: common.threads)
        let chat = try await startPingPong(
            pairs: chatPairs, prefix: "bc", common: common, group: group, pauseMillis: chatPause)
        try await Task.sleep(for: .seconds(common.warmup))
        let (_, quiet) = try await measure(chat.meters, seconds: common.duration / 2)
        let command = self.command
        let end = self.end
        let bots = try await startBotClients(
            count: clients, prefix: "bb", common: common, group: group, rate: rate, command: { _ in command },
            outcome: { line in
                guard let end else { return true }
                return String(decoding: line, as: UTF8.self).contains(end) ? true : nil
            })
        try await Task.sleep(for: .seconds(common.warmup))
        let result = try await LoadResult.run(load: bots.meters, chat: chat.meters, common: common)
        var r = common.report("bot")
        r.add("command", command)
        r.add("clients", clients)
        r.add("chat_pause_ms", Int(chatPause))
        if let rate { r.add("paced_per_s", rate) }
        result.report(into: &r, rateKey: "replies_per_s", quiet: quiet)
        print(r.line())
        await closeAll(chat.connections + bots.connections)
        try await group.shutdownGracefully()
    }
}

// MARK: login

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Concurrent !login (Argon2id) while chat runs: chat p99 must not move.")
    @OptionGroup var common: Common
    @Option(help: "Clients logging in over and over.") var clients = 16
    @Option(help: "Chat pairs measured alongside.") var chatPairs = 20
    @Option(help: "Milliseconds each chat pair waits between messages (0: as fast as the server answers).")
    var chatPause: Int64 = 20
    static let password = "bench-s3cret-pass"

    func run() async throws {
        raiseFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: common.threads)
        // Accounts named after the connections' nicks ("bl0", "bl1", …); "taken" is fine on a rerun.
        let setup = try await startBotClients(
            count: clients, prefix: "bl", common: common, group: group,
            command: { "!register \($0.nick) \(Login.password)" },
            outcome: { line in
                let text = String(decoding: line, as: UTF8.self)
                return text.contains("To stay logged in") || text.contains("register:") ? true : nil
            })
        try await measureOnce(setup.meters, count: clients)
        await closeAll(setup.connections)
        let chat = try await startPingPong(
            pairs: chatPairs, prefix: "lc", common: common, group: group, pauseMillis: chatPause)
        try await Task.sleep(for: .seconds(common.warmup))
        let (_, quiet) = try await measure(chat.meters, seconds: common.duration / 2)
        // Fresh connections ("lg0", …) log in to those accounts; a registered account's nick
        // is reserved, so they cannot reuse the setup nicks.
        let logins = try await startBotClients(
            count: clients, prefix: "lg", common: common, group: group,
            command: { "!login bl\($0.nick.dropFirst(2)) \(Login.password)" },
            outcome: { line in
                let text = String(decoding: line, as: UTF8.self)
                if text.contains("To stay logged in") { return true }
                return text.contains("login:") ? false : nil
            })
        let result = try await LoadResult.run(load: logins.meters, chat: chat.meters, common: common)
        var r = common.report("login")
        r.add("clients", clients)
        r.add("chat_pause_ms", Int(chatPause))
        result.report(into: &r, rateKey: "logins_per_s", quiet: quiet)
        print(r.line())
        await closeAll(chat.connections + logins.connections)
        try await group.shutdownGracefully()
    }

    /// Waits until every setup client got one reply.
    func measureOnce(_ meters: [(BenchConnection, Meter)], count: Int) async throws {
        try await setMeasuring(meters, true)
        for _ in 0..<600 {
            try await Task.sleep(for: .milliseconds(100))
            var done = 0
            for (connection, meter) in meters {
                done += try await connection.channel.eventLoop.submit { meter.count > 0 ? 1 : 0 }.get()
            }
            if done >= count { break }
        }
        try await setMeasuring(meters, false)
    }
}
