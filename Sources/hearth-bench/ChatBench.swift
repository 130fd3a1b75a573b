import ArgumentParser
import NIOPosix

/// Chat pairs alone: their latency while something outside loads the server (`wrk` on the
/// web pages, in scripts/bench-web). Half the time quiet is not measured here: run it twice.
struct ChatOnly: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat", abstract: "Chat pairs talking; their latency over the duration (run beside a load).")
    @OptionGroup var common: Common
    @Option(help: "Chat pairs measured.") var chatPairs = 20
    @Option(help: "Milliseconds each chat pair waits between messages.") var chatPause: Int64 = 20
    @Option(help: "A name for what ran beside (for the report).") var beside = "nothing"

    func run() async throws {
        raiseFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: common.threads)
        let chat = try await startPingPong(
            pairs: chatPairs, prefix: "co", common: common, group: group, pauseMillis: chatPause)
        try await Task.sleep(for: .seconds(common.warmup))
        let (count, latencies) = try await measure(chat.meters, seconds: common.duration)
        var r = common.report("chat")
        r.add("beside", beside)
        r.add("chat_pairs", chatPairs)
        r.add("messages_per_s", Double(count) / common.duration)
        r.add("chat_p50_ms", latencies.ms(50))
        r.add("chat_p99_ms", latencies.ms(99))
        r.add("chat_max_ms", latencies.ms(100))
        print(r.line())
        await closeAll(chat.connections)
        try await group.shutdownGracefully()
    }
}
