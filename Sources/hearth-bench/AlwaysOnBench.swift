import ArgumentParser
import Foundation
import HearthStore

/// Always-on accounts (issue 39): seeds a store with `--accounts` always-on accounts kept present
/// in channels, and one more, `replayer`, whose default device left before `--lines` lines were
/// said in its channel; starts `hearth serve` on it and measures how long until the port answers a
/// registration (the stand-ins are restored before the listener opens), then how long the
/// replayer's replay takes from its welcome (001) to "End of what you missed.". One JSON line.
struct AlwaysOnLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "always-on", abstract: "Restart with N always-on accounts, and one device's replay.")
    @OptionGroup var store: BenchStore
    @Option(help: "The hearth executable to start.") var hearth = ".build/release/hearth"
    @Option(help: "A fresh data directory (made if missing).") var dataDir = "/tmp/hearth-always-on-bench"
    @Option(help: "Always-on accounts kept present.") var accounts = 10_000
    @Option(help: "Channels they are spread over (each account is in two).") var channels = 100
    @Option(help: "Lines the replayer missed.") var lines = 1_000
    @Option(help: "IRC port for the server.") var port = 16_667

    func run() async throws {
        let password = "bench-pass-1"
        let hash = try Self.output([hearth, "hash-password", password]).trimmingCharacters(in: .whitespacesAndNewlines)
        let store = try await self.store.open(dataDirectory: dataDir)
        let since = Date().addingTimeInterval(-3600)
        for n in 0..<accounts {
            let account = try await store.createAccount(
                name: "aon\(n)", nameKey: "aon\(n)", passwordHash: hash, email: nil, phone: nil, recoveryHashes: [])
            try await store.setSetting(account.id, key: AlwaysOnRules.settingKey, value: "on")
            try await store.keepAlwaysOnPresence(
                AlwaysOnPresence(
                    accountID: account.id, nick: "aon\(n)", user: "~aon\(n)", host: "bench.host", realname: "bench",
                    channels: ["#aon\(n % channels)", "#aon\((n + 1) % channels)"], since: since))
        }
        let replayer = try await store.createAccount(
            name: "replayer", nameKey: "replayer", passwordHash: hash, email: nil, phone: nil, recoveryHashes: [])
        try await store.setSetting(replayer.id, key: AlwaysOnRules.settingKey, value: "on")
        try await store.keepAlwaysOnPresence(
            AlwaysOnPresence(
                accountID: replayer.id, nick: "replayer", user: "~replayer", host: "bench.host", realname: "bench",
                channels: ["#aon0"], since: since))
        _ = try await store.advanceReadMarker(
            accountID: replayer.id, target: AlwaysOnRules.deviceTarget(""), to: since)
        // An earlier incarnation of #aon0 the replayer was in: its lines are the replayer's to read.
        let target = "#aon0 bench"
        let records = (0..<lines).map { n in
            HistoryRecord(
                target: target, msgid: "aon-\(n)", source: "aon1!~aon1@bench.host", accountID: nil,
                command: "PRIVMSG", text: "missed line \(n) about soup and bread", createdAt: since + Double(n + 1))
        }
        try await store.appendHistory(records, access: [HistoryAccess(target: target, accountID: replayer.id)])
        await store.close()

        let server = Process()
        server.executableURL = URL(fileURLWithPath: hearth)
        var arguments = [
            "serve", "--data-dir", dataDir, "--irc-port", String(port), "--http-port", "0", "--https-port", "0",
            "--no-flood-control",
        ]
        if let url = self.store.databaseURL, self.store.engine == "postgres" { arguments += ["--database", url] }
        server.arguments = arguments
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        let started = Date()
        try server.run()
        defer { server.terminate() }
        let probe = try await Self.firstWelcome(port: port, nick: "probe", extra: [])
        let serving = Date().timeIntervalSince(started)
        try probe.send("QUIT")
        let login = Data("\0replayer\0\(password)".utf8).base64EncodedString()
        let replay = try await Self.replayTime(port: port, login: login)
        var r = Report()
        r.add("scenario", "always-on")
        r.add("engine", self.store.engine)
        r.add("accounts", accounts)
        r.add("serving_after_s", serving)
        r.add("replayed_lines", replay.lines)
        r.add("replay_ms", replay.seconds * 1000)
        print(r.line())
    }

    static func output(_ command: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Connects (retrying until the port opens) and registers; returns once 001 arrived.
    static func firstWelcome(port: Int, nick: String, extra: [String]) async throws -> LineSocket {
        while true {
            if let socket = try? LineSocket(port: port) {
                for line in extra + ["NICK \(nick)", "USER \(nick) 0 * :\(nick)"] { try socket.send(line) }
                while let line = try socket.readLine() { if line.contains(" 001 ") { return socket } }
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The replayer's SASL login: from its 001 to the end of the replay.
    static func replayTime(port: Int, login: String) async throws -> (lines: Int, seconds: Double) {
        let socket = try LineSocket(port: port)
        for line in ["CAP REQ :sasl server-time", "NICK replayer", "USER r 0 * :r", "AUTHENTICATE PLAIN"] {
            try socket.send(line)
        }
        var welcomed: Date?
        var count = 0
        while let line = try socket.readLine() {
            if line.hasPrefix("AUTHENTICATE +") { try socket.send("AUTHENTICATE \(login)") }
            if line.contains(" 903 ") { try socket.send("CAP END") }
            if line.contains(" 001 ") { welcomed = Date() }
            if line.contains(" PRIVMSG #aon0 :missed line") { count += 1 }
            if line.contains("End of what you missed."), let welcomed {
                try socket.send("QUIT")
                return (count, Date().timeIntervalSince(welcomed))
            }
        }
        throw ValidationError("the connection closed before the replay ended")
    }
}

/// A blocking TCP line reader, enough for a probe.
final class LineSocket {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw ValidationError("connect failed")
        }
    }

    deinit { close(fd) }

    func send(_ line: String) throws {
        let bytes = Array((line + "\r\n").utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw ValidationError("write failed") }
    }

    func readLine() throws -> String? {
        while true {
            if let end = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                if line.hasPrefix("PING ") { try send("PONG " + line.dropFirst(5)) }
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffer += chunk[..<n]
        }
    }
}
