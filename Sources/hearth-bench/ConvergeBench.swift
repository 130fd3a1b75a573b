import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// How fast a channel change reaches every node of a network (issue 37): one operator changes
/// a channel (+l, then the key, then the topic, in turn), observers sit on every node; a round
/// lasts from the operator's send to the moment the last observer has read the change.
struct Converge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "An operator changes a channel round after round; time until every observer on every node saw it.")
    @OptionGroup var common: Common
    @Option(help: "Observers per node (port); the operator is on the first.") var observers = 5
    @Option(help: "Measured rounds.") var rounds = 300
    @Option(help: "Rounds before measuring (not counted).") var warmupRounds = 10
    @Option(help: "Milliseconds between a round's end and the next change.") var pauseMs = 20
    @Option(help: "Seconds a round may take before it counts as lost.") var patience: Double = 5

    /// The change of the round in progress and who has seen it.
    struct RoundState {
        var token = ""
        var seen = 0
        var last: UInt64 = 0
    }

    /// What one observer saw last (touched only on its event loop).
    final class Seen: @unchecked Sendable {
        var token = ""
    }

    func run() async throws {
        raiseFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: common.threads)
        let tag = runTag()
        let channel = "#conv" + tag
        let op = try await BenchConnection.open(host: common.host, port: common.port, nick: "v\(tag)op", group: group)
            .get()
        let joined = NIOLockedValueBox(0)
        try await onLoops([op]) { connection in
            connection.onLine = { _, line in
                if BenchConnection.command(of: line)?.elementsEqual("366".utf8) == true {
                    joined.withLockedValue { $0 += 1 }
                }
            }
            connection.send("JOIN \(channel)\r\n")
            connection.flush()
        }
        try await waitUntil(seconds: patience) { joined.withLockedValue { $0 } >= 1 }
        let total = observers * common.ports.count
        let connections = try await openMany(
            count: total, inflight: common.inflight, host: common.host, ports: common.ports, prefix: "v\(tag)o",
            group: group)
        let round = NIOLockedValueBox(RoundState())
        try await onLoops(connections) { connection in
            let seen = Seen()
            connection.onLine = { connection, line in
                guard let command = BenchConnection.command(of: line) else { return }
                if command.elementsEqual("366".utf8) {
                    joined.withLockedValue { $0 += 1 }
                    return
                }
                guard command.elementsEqual("MODE".utf8) || command.elementsEqual("TOPIC".utf8) else { return }
                let token = Self.lastParameter(of: line)
                guard token != seen.token else { return }
                seen.token = token
                let at = connection.readAt
                round.withLockedValue { state in
                    guard state.token == token else { return }
                    state.seen += 1
                    state.last = max(state.last, at)
                }
            }
            connection.send("JOIN \(channel)\r\n")
            connection.flush()
        }
        try await waitUntil(seconds: patience * 4) { joined.withLockedValue { $0 } >= total + 1 }
        var converged = newLatencies()
        var lost = 0
        let span = Span(pids: common.pids)
        for index in 0..<(warmupRounds + rounds) {
            let (token, line) = Self.change(index, channel: channel)
            round.withLockedValue { $0 = RoundState(token: token) }
            let sentAt = try await op.channel.eventLoop.submit {
                let now = nowNanos()
                op.send(line + "\r\n")
                op.flush()
                return now
            }.get()
            let done = try await waitUntil(seconds: patience) { round.withLockedValue { $0.seen } >= total }
            let last = round.withLockedValue { $0.last }
            if index >= warmupRounds {
                if done { _ = converged.record(last - sentAt) } else { lost += 1 }
            }
            try await Task.sleep(for: .milliseconds(pauseMs))
        }
        let (seconds, cpu, harness, rss) = span.finish()
        var r = common.report("converge")
        r.add("nodes", common.ports.count)
        r.add("observers", total)
        r.add("rounds", rounds)
        r.add("lost", lost)
        r.addRun(seconds: seconds, latencies: converged, serverCPU: cpu, harnessCPU: harness, rss: rss)
        r.add("max_ms", converged.ms(100))
        print(r.line())
        await closeAll([op] + connections)
        try await group.shutdownGracefully()
    }

    /// Round `index`'s change and the token its MODE or TOPIC line ends with: a limit, a key
    /// (replaced: a set key must be removed first) or a topic, each unique to the round.
    static func change(_ index: Int, channel: String) -> (token: String, line: String) {
        switch index % 3 {
        case 0: ("\(1000 + index)", "MODE \(channel) +l \(1000 + index)")
        case 1: ("k\(index)", index < 3 ? "MODE \(channel) +k k\(index)" : "MODE \(channel) -k+k * k\(index)")
        default: ("t\(index)", "TOPIC \(channel) :t\(index)")
        }
    }

    /// The last parameter, trailing or not (a server may send `+l :1003` as well as `+l 1003`).
    static func lastParameter(of line: UnsafeRawBufferPointer) -> String {
        if let trailing = BenchConnection.trailing(of: line) { return String(decoding: trailing, as: UTF8.self) }
        let start = (line.lastIndex(of: 32) ?? -1) + 1
        return String(decoding: line[start...], as: UTF8.self)
    }
}

/// Polls `condition` every millisecond until it holds (true) or `seconds` pass (false).
/// Arrival times are stamped where lines are read, so polling adds nothing to them.
@discardableResult
func waitUntil(seconds: Double, _ condition: () -> Bool) async throws -> Bool {
    let deadline = nowNanos() + UInt64(seconds * 1e9)
    while nowNanos() < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
