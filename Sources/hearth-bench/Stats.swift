import Foundation
import Histogram

/// CPU seconds and resident memory of a process, from /proc/PID.
struct ProcessStats {
    var cpuSeconds: Double
    var rssKiB: Int

    static func read(pid: Int32) -> ProcessStats? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        else { return nil }
        // Fields after the command name (which may contain spaces) start after ") ".
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let utime = Double(fields[11]) ?? 0
        let stime = Double(fields[12]) ?? 0
        let rssLine = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        let rss = Int(rssLine.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return ProcessStats(cpuSeconds: (utime + stime) / ticks, rssKiB: rss)
    }

    static func harnessCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

/// A span of measurement: wall time, server CPU and harness CPU.
struct Span {
    /// The server's processes (one per node of a network): their CPU and memory add up.
    let pids: [Int32]
    let started = nowNanos()
    let serverStart: [ProcessStats]
    let harnessStart = ProcessStats.harnessCPU()

    init(pids: [Int32]) {
        self.pids = pids
        serverStart = pids.compactMap(ProcessStats.read)
    }

    func finish() -> (seconds: Double, serverCPU: Double?, harnessCPU: Double, serverRSS: Int?) {
        let seconds = Double(nowNanos() - started) / 1e9
        let end = pids.compactMap(ProcessStats.read)
        let measured = !pids.isEmpty && end.count == pids.count && serverStart.count == pids.count
        let cpu = measured ? zip(end, serverStart).reduce(0) { $0 + $1.0.cpuSeconds - $1.1.cpuSeconds } : nil
        let rss = measured ? end.reduce(0) { $0 + $1.rssKiB } : nil
        return (seconds, cpu, ProcessStats.harnessCPU() - harnessStart, rss)
    }
}

typealias Latencies = Histogram<UInt64>

func newLatencies() -> Latencies {
    Histogram<UInt64>(highestTrackableValue: 120_000_000_000, numberOfSignificantValueDigits: .three)
}

extension Histogram<UInt64> {
    func ms(_ percentile: Double) -> Double {
        totalCount == 0 ? 0 : Double(valueAtPercentile(percentile)) / 1e6
    }
}

/// One JSON line per scenario, keys in a stable order.
struct Report {
    var fields: [(String, Any)] = []

    mutating func add(_ key: String, _ value: Any?) {
        if let value { fields.append((key, value)) }
    }

    /// The fields every measured run reports: how long, how fast (p50/p99), and what it cost.
    mutating func addRun(seconds: Double, latencies: Latencies, serverCPU: Double?, harnessCPU: Double, rss: Int?) {
        add("seconds", seconds)
        add("p50_ms", latencies.ms(50))
        add("p99_ms", latencies.ms(99))
        add("server_cpu_s", serverCPU)
        add("harness_cpu_s", harnessCPU)
        add("server_rss_kib", rss)
    }

    func line() -> String {
        "{"
            + fields.map { key, value in
                let rendered: String
                switch value {
                case let d as Double: rendered = d.isFinite ? String(format: "%.3f", d) : "null"
                case let s as String: rendered = "\"\(s)\""
                default: rendered = "\(value)"
                }
                return "\"\(key)\":\(rendered)"
            }.joined(separator: ",") + "}"
    }
}
