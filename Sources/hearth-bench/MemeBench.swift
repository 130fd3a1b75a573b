import ArgumentParser
import Foundation
import HearthMedia
import NIOCore
import NIOPosix
import Synchronization

/// `!meme` from logged-in clients, cold (every caption new) or cached (the same one
/// again), and the chat latency of others meanwhile.
struct MemeLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meme", abstract: "Clients making memes (cold or cached) while chat runs.")
    @OptionGroup var common: Common
    @Option(help: "Clients making memes (one in flight each).") var clients = 8
    @Flag(help: "Repeat one caption (cache hits) instead of a new caption each time.") var cached = false
    @Option(help: "Chat pairs measured alongside.") var chatPairs = 20
    @Option(help: "Milliseconds each chat pair waits between messages (0: as fast as the server answers).")
    var chatPause: Int64 = 20

    func run() async throws {
        raiseFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: common.threads)
        // Accounts named after the connections ("bm0", …); these connections stay logged in.
        let run = UInt32.random(in: 0...UInt32.max)
        let prefix = cached ? "bk" : "bm"
        let setup = try await startBotClients(
            count: clients, prefix: prefix, common: common, group: group,
            command: { "!register \($0.nick)x\(run % 100_000) \(Login.password)" },
            outcome: { line in
                let text = String(decoding: line, as: UTF8.self)
                return text.contains("To stay logged in") ? true : nil
            })
        try await Login().measureOnce(setup.meters, count: clients)
        let chat = try await startPingPong(
            pairs: chatPairs, prefix: cached ? "kc" : "mc", common: common, group: group, pauseMillis: chatPause)
        try await Task.sleep(for: .seconds(common.warmup))
        let (_, quiet) = try await measure(chat.meters, seconds: common.duration / 2)
        let counter = Atomic<Int>(0)
        let cached = self.cached
        let meters = try await driveBotClients(
            setup.connections,
            command: { connection in
                if cached { return "!meme sunset when the cache | answers at once" }
                let n = counter.add(1, ordering: .relaxed).newValue
                return "!meme sunset meme number \(n) from \(connection.nick) | rendered cold \(run)"
            },
            outcome: { line in String(decoding: line, as: UTF8.self).contains("meme #") ? true : nil })
        try await Task.sleep(for: .seconds(common.warmup))
        let result = try await LoadResult.run(load: meters, chat: chat.meters, common: common)
        var r = common.report(cached ? "meme-cached" : "meme-cold")
        r.add("clients", clients)
        r.add("chat_pause_ms", Int(chatPause))
        result.report(into: &r, rateKey: "memes_per_s", quiet: quiet)
        print(r.line())
        await closeAll(chat.connections + setup.connections)
        try await group.shutdownGracefully()
    }
}

/// Renders memes in this process, one at a time: the cost of one cold 800×600 meme with two
/// captions from a built-in template, decoded once and cloned per render, to JPEG.
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time one cold meme render (template cached, captions new) to JPEG.")
    @Option(help: "Memes to render.") var count = 200
    @Flag(help: "Put colour emoji in the captions (a different pair each meme, from 40).") var emoji = false

    func run() async throws {
        guard let fonts = FontSet.installed() else {
            throw ValidationError("caption fonts are not installed (scripts/setup)")
        }
        let renderer = MemeRenderer(fonts: fonts)
        let template = BuiltinTemplate.named("sunset")!
        let base = template.picture()
        var times: [Double] = []
        var bytes = 0
        for n in 0..<count {
            let start = nowNanos()
            let image = base.clone()
            let (a, b) = emoji ? (Self.emoji[n % 40], Self.emoji[(n * 7 + 3) % 40]) : ("", "")
            renderer.caption(
                image, boxes: template.boxes,
                captions: ["meme number \(n) with a caption \(a)", "and a bottom line \(n * 7) \(b)"])
            bytes += image.jpeg(quality: 85).count
            times.append(Double(nowNanos() - start) / 1e6)
        }
        times.sort()
        func pct(_ p: Double) -> Double { times[min(times.count - 1, Int(Double(times.count) * p / 100))] }
        let line: [String: Any] = [
            "scenario": emoji ? "render-emoji" : "render", "server": "hearth", "count": count, "width": base.width,
            "height": base.height,
            "p50_ms": pct(50), "p99_ms": pct(99), "memes_per_core_s": 1000 / pct(50), "avg_jpeg_bytes": bytes / count,
        ]
        let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    static let emoji = Array("😀😂🥲😍🤔😎😭😡👍👎🙏👏🔥💯🎉🍪🍕🍺☕🚀" + "🐱🐶🦄🌈⭐🌙💡📈📉💻🐛✅❌⚠️🏆🎂🥳🤯🫠🙈").map(String.init)
}
