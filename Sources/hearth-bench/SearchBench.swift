import ArgumentParser
import Foundation
import HearthStore

/// Chat history search (issue 38): a store filled with `--lines` lines of Zipf-distributed words
/// over many channels and conversations, then searches by one reader (in `--joined` channels,
/// account 1's conversations) through `searchHistory` — what SEARCH and `!search chat` wait on.
/// One JSON line per kind of query (a common word, a rare one, two words, a prefix, a phrase, a
/// word nobody wrote), and one for all of them.
struct SearchLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Full-text search of chat history over a filled store: p50/p99 per query kind."
    )
    @OptionGroup var store: BenchStore
    @Option(help: "SQLite's data directory (made if missing).") var dataDir = "/tmp/hearth-search-bench"
    @Option(help: "Lines to write before searching.") var lines = 1_000_000
    @Flag(help: "Search what the store holds already (a previous run's lines, the same searches).")
    var skipFill = false
    @Option(help: "Channels the lines are spread over.") var channels = 200
    @Option(help: "Channels the searcher is in.") var joined = 20
    @Option(help: "Searches of each kind.") var queries = 300
    @Option(help: "Lines a search returns at most (SEARCH's most is 100).") var limit = 100
    @Option(help: "Only these kinds, comma-separated (the others' searches are drawn, not made).")
    var kinds: String?
    @Flag(help: "First index what an earlier version wrote (`indexHistoryForSearch`), timed.")
    var backfill = false

    func run() async throws {
        let store = try await self.store.open(dataDirectory: dataDir)
        var words = SearchWords(seed: 38)
        if skipFill {
            // The same searches as the run that filled the store: draw its lines without writing them.
            try await fill(nil, &words)
        } else {
            let started = nowNanos()
            try await fill(store, &words)
            print(rate("search-fill", lines: lines, since: started).line())
        }
        if backfill { try await indexEarlierLines(store) }
        let scope = HistoryScope(targets: (0..<joined).map { "#chan\($0)" }, conversationsOf: 1)
        let only = kinds.map { Set($0.split(separator: ",").map(String.init)) }
        var all = newLatencies()
        for kind in SearchWords.Kind.allCases {
            var latencies = newLatencies()
            var hits = 0
            for _ in 0..<queries {
                let search = HistorySearch(words: words.query(kind), scope: scope, limit: limit)
                guard only?.contains(kind.rawValue) ?? true else { continue }
                let start = nowNanos()
                hits += try await store.searchHistory(search).count
                let took = UInt64(nowNanos() - start)
                latencies.record(took)
                all.record(took)
            }
            guard latencies.totalCount > 0 else { continue }
            print(report(kind.rawValue, latencies, hits: Double(hits) / Double(queries)).line())
        }
        print(report("all", all, hits: nil).line())
        await store.close()
    }

    /// Indexes the lines an earlier version wrote, batch after batch as the server does at start.
    private func indexEarlierLines(_ store: any Store) async throws {
        let started = nowNanos()
        var indexed = 0
        while case let done = try await store.indexHistoryForSearch(batch: historySearchIndexBatch), done > 0 {
            indexed += done
        }
        print(rate("search-backfill", lines: indexed, since: started).line())
    }

    private func rate(_ scenario: String, lines: Int, since started: UInt64) -> Report {
        let seconds = Double(nowNanos() - started) / 1e9
        var r = Report()
        r.add("scenario", scenario)
        r.add("engine", self.store.engine)
        r.add("lines", lines)
        r.add("seconds", seconds)
        r.add("lines_per_s", Double(lines) / seconds)
        return r
    }

    private func report(_ kind: String, _ latencies: Latencies, hits: Double?) -> Report {
        var r = Report()
        r.add("scenario", "search")
        r.add("engine", self.store.engine)
        r.add("lines", lines)
        r.add("kind", kind)
        r.add("searches", latencies.totalCount)
        r.add("mean_hits", hits)
        r.add("p50_ms", latencies.ms(50))
        r.add("p99_ms", latencies.ms(99))
        r.add("max_ms", Double(latencies.max) / 1e6)
        return r
    }

    /// Batches of 10,000 lines, as the history writer would write them over time: most to
    /// channels, one in ten to a conversation (one in fifty of those involves account 1).
    private func fill(_ store: (any Store)?, _ words: inout SearchWords) async throws {
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        var written = 0
        while written < lines {
            let count = min(10_000, lines - written)
            var batch: [HistoryRecord] = []
            batch.reserveCapacity(count)
            for n in written..<(written + count) {
                let target: String
                if words.next(10) == 0 {
                    let a = words.next(50) == 0 ? 1 : Int64(words.next(500)) + 2
                    target = HistoryRecord.conversation(a, Int64(words.next(500)) + 502)
                } else {
                    target = "#chan\(words.next(channels))"
                }
                batch.append(
                    HistoryRecord(
                        target: target, msgid: "b\(n)", source: "u\(n % 997)!u@bench", command: "PRIVMSG",
                        text: words.line(), createdAt: start + Double(n) * 0.5))
            }
            try await store?.appendHistory(batch)
            written += count
        }
    }
}

/// A made-up language with a Zipf distribution (word k is said about 1/k as often as the
/// first), from a fixed seed, so each run writes and searches the same.
struct SearchWords {
    enum Kind: String, CaseIterable {
        // `said`: two neighbouring words of a line as someone would say it (last, so the kinds
        // before it draw the same searches as earlier rounds).
        case common, mid, rare, two, prefix, phrase, absent, said
    }

    static let vocabulary = 30_000
    var state: UInt64
    let words: [String]
    let cumulative: [Double]

    init(seed: UInt64) {
        state = seed
        var made: [String] = []
        var seen: Set<String> = []
        let syllables = [
            "ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "de", "fa", "gu", "he", "ji", "ve", "zo", "ba",
        ]
        var generator = seed &+ 1
        while made.count < Self.vocabulary {
            generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var word = ""
            let length = 2 + Int((generator >> 33) % 3)
            for i in 0..<length { word += syllables[Int((generator >> (40 + UInt64(i) * 4)) & 15)] }
            if seen.insert(word).inserted { made.append(word) }
        }
        words = made
        var total = 0.0
        cumulative = (1...Self.vocabulary).map { k in
            total += 1 / Double(k)
            return total
        }
    }

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    mutating func zipfWord() -> String {
        let target = Double(next(1 << 30)) / Double(1 << 30) * cumulative[cumulative.count - 1]
        var (low, high) = (0, cumulative.count - 1)
        while low < high {
            let mid = (low + high) / 2
            if cumulative[mid] < target { low = mid + 1 } else { high = mid }
        }
        return words[low]
    }

    mutating func line() -> String {
        (0..<(3 + next(12))).map { _ in zipfWord() }.joined(separator: " ")
    }

    mutating func query(_ kind: Kind) -> TextSearch {
        func term(_ text: String, prefix: Bool = false) -> TextSearch.Part { .term(text, prefix: prefix) }
        switch kind {
        case .common: return TextSearch(parts: [term(words[5 + next(45)])])
        case .mid: return TextSearch(parts: [term(words[200 + next(1800)])])
        case .rare: return TextSearch(parts: [term(words[5000 + next(25_000)])])
        case .two: return TextSearch(parts: [term(words[5 + next(45)]), term(words[200 + next(1800)])])
        case .prefix: return TextSearch(parts: [term(String(words[200 + next(1800)].prefix(3)), prefix: true)])
        case .phrase: return TextSearch(parts: [term(words[next(10)] + " " + words[next(10)])])
        case .absent: return TextSearch(parts: [term("qqq\(next(1000))")])
        case .said:
            let said = line().split(separator: " ")
            let at = next(said.count - 1)
            return TextSearch(parts: [term(said[at] + " " + said[at + 1])])
        }
    }
}
