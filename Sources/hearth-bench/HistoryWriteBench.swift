import ArgumentParser
import Foundation
import HearthStore

/// History writes with tags (issue 38): the store's `appendHistory` fed batches one after another,
/// as the server's history writer feeds it (one batch per `Core.historyFlushDelay`), every line a
/// reply (`+draft/reply`) and one in `--reaction-every` a kept reaction (TAGMSG with
/// `+draft/react`), spread over channels. One JSON line: lines written per second.
struct HistoryWrite: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history-write", abstract: "History lines with reaction and reply tags written per second.")
    @OptionGroup var store: BenchStore
    @Option(help: "SQLite's data directory (made if missing; a fresh one is best).")
    var dataDir = "/tmp/hearth-history-write-bench"
    @Option(help: "Lines to write.") var lines = 200_000
    /// A busy server collects for `Core.busyHistoryFlushDelay` (250 ms): 5,000 lines at 20,000 lines/s.
    @Option(help: "Lines per batch (1,000: 20,000 lines/s flushed every 50 ms; a busy server's are 5,000).")
    var batch = 1_000
    @Option(help: "Channels the lines are spread over.") var channels = 20
    @Option(help: "One line in N is a reaction (TAGMSG).") var reactionEvery = 5

    func run() async throws {
        let store = try await self.store.open(dataDirectory: dataDir)
        let run = String(UInt64(Date().timeIntervalSince1970 * 1000), radix: 36)
        let start = Date()
        var written = 0
        var writing: UInt64 = 0
        while written < lines {
            let records = (written..<min(lines, written + batch)).map { n in
                Self.line(n, run: run, channels: channels, reactionEvery: reactionEvery, at: start)
            }
            let began = nowNanos()
            try await store.appendHistory(records)
            writing += nowNanos() - began
            written += records.count
        }
        await store.close()
        let seconds = Double(writing) / 1e9
        var r = Report()
        r.add("scenario", "history-write")
        r.add("engine", self.store.engine)
        r.add("lines", written)
        r.add("batch", batch)
        r.add("seconds", seconds)
        r.add("lines_per_s", Double(written) / seconds)
        print(r.line())
    }

    /// Line `n`: a reply to the line before it in its channel, or a reaction to it.
    static func line(_ n: Int, run: String, channels: Int, reactionEvery: Int, at start: Date) -> HistoryRecord {
        let target = "#bench\(n % channels)"
        let ref = "\(run)-\(max(0, n - channels))"
        let reaction = reactionEvery > 0 && n % reactionEvery == 0
        let tags = reaction ? "+draft/react=👍;+draft/reply=\(ref)" : "+draft/reply=\(ref)"
        return HistoryRecord(
            target: target, msgid: "\(run)-\(n)", source: "u\(n % 97)!u@bench",
            command: reaction ? "TAGMSG" : "PRIVMSG",
            text: reaction ? "" : "line \(n) about soup, bread and the weather today",
            createdAt: start + Double(n) / 1000,
            tags: tags, refMsgid: ref)
    }
}
