import Foundation
import HearthServer
import HearthTesting
import Logging
import NIOConcurrencyHelpers
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What systemd and log readers see: readiness and watchdog datagrams (`Type=notify`,
/// `WatchdogSec=`), and log lines as text or JSON.
@Suite struct ServiceManagerTests {
    /// A datagram socket standing in for systemd's NOTIFY_SOCKET.
    final class NotifySocket: @unchecked Sendable {
        let fd: Int32
        let path: String

        init() throws {
            path = TestServer.tempDirectory() + "/notify.sock"
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            try #require(bound == 0, "bind \(path): \(errno)")
            var timeout = timeval(tv_sec: 0, tv_usec: 20_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(fd) }

        /// The datagrams that arrived so far (waits 20 ms for each).
        func drain() -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { return messages }
                messages.append(String(decoding: buffer[..<count], as: UTF8.self))
            }
        }
    }

    @Test func readinessWatchdogAndStoppingReachSystemd() async throws {
        let notify = try NotifySocket()
        // Read all along on a thread of its own, as systemd does: a datagram queue holds only ten
        // (net.unix.max_dgram_qlen), and a reader on the async pool of a loaded machine once fell a
        // second behind, so the server's non-blocking STOPPING=1 was dropped.
        let heard = NIOLockedValueBox<[String]>([])
        let stop = NIOLockedValueBox(false)
        let reader = Thread {
            while !stop.withLockedValue({ $0 }) {
                let got = notify.drain()
                heard.withLockedValue { $0 += got }
            }
        }
        reader.start()
        let (_, finished) = try await Programs.serving(
            dataDirectory: TestServer.tempDirectory(),
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"]
        ) { _, port in
            for _ in 0..<300 where heard.withLockedValue({ $0 }).filter({ $0 == "WATCHDOG=1" }).count < 3 {
                try await Task.sleep(for: .milliseconds(10))
            }
            let client = try await TestClient.connect(port: port)
            try await client.send("NICK up")
            try await client.send("USER u 0 * :u")
            try await client.expectNumeric("001")
        }
        stop.withLockedValue { $0 = true }
        while !reader.isFinished { try await Task.sleep(for: .milliseconds(10)) }
        #expect(finished.status == 0)
        let said = heard.withLockedValue { $0 } + notify.drain()
        #expect(said.first == "READY=1", "\(said)")
        #expect(said.filter { $0 == "WATCHDOG=1" }.count >= 3, "\(said)")
        #expect(said.last == "STOPPING=1", "\(said)")
    }

    /// A watchdog cancelled while it checks the server says nothing more, so STOPPING=1 said
    /// after it ended is the last word (a WATCHDOG=1 once followed it on a loaded machine).
    @Test func aWatchdogCancelledDuringItsCheckPingsNoMore() async throws {
        let notify = try NotifySocket()
        let systemd = SystemdNotify(environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "2000"])
        let (checking, check) = AsyncStream.makeStream(of: Void.self)
        let watchdog = Task {
            await systemd.keepWatchdog(logger: Logger(label: "test")) {
                check.yield()
                try? await Task.sleep(for: .seconds(3600))  // a check still running when the cancel comes
            }
        }
        for await _ in checking { break }
        watchdog.cancel()
        await watchdog.value
        systemd.send("STOPPING=1")
        #expect(notify.drain() == ["STOPPING=1"])
    }

    /// A manager that stops reading never holds the server up: states past its queue are dropped.
    @Test func aNotifySocketNobodyReadsNeverBlocks() throws {
        let notify = try NotifySocket()
        let systemd = SystemdNotify(environment: ["NOTIFY_SOCKET": notify.path])
        var dropped = 0
        for _ in 0..<5000 where !systemd.send("WATCHDOG=1") { dropped += 1 }
        #expect(dropped > 0)
        #expect(notify.drain().first == "WATCHDOG=1")
    }

    @Test func withoutSystemdNothingIsSent() {
        let notify = SystemdNotify(environment: [:])
        #expect(!notify.isActive)
        #expect(!notify.send("READY=1"))
        #expect(notify.watchdogInterval == nil)
        #expect(
            SystemdNotify(environment: ["NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "1000000"]).watchdogInterval
                == .milliseconds(500))
    }

    @Test func jsonLogLinesAreOneObjectEachWithEscapedText() throws {
        let lines = NIOLockedLines()
        let output = LogOutput(format: .json, level: .info) { lines.append($0) }
        var logger = Logger(label: "hearth") { output.handler(label: $0) }
        logger[metadataKey: "conn"] = "7"
        logger.info("said \"hi\"\nand left", metadata: ["nick": "ada"])
        logger.debug("not at info level")
        output.logLevel = .debug
        logger.debug("now at debug")
        let written = lines.all
        #expect(written.count == 2)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: String])
        #expect(object["message"] == "said \"hi\"\nand left")
        #expect(object["level"] == "info" && object["conn"] == "7" && object["nick"] == "ada")
        #expect(object["time"] != nil && written[0].hasSuffix("}\n"))
        #expect(written[0].split(separator: "\n").count == 1)
    }

    @Test func textLogLinesNameTheConnection() throws {
        let lines = NIOLockedLines()
        let output = LogOutput(format: .text, level: .info) { lines.append($0) }
        let logger = Logger(label: "hearth") { output.handler(label: $0) }
        logger.info("registered", metadata: ["conn": "3", "nick": "ada"])
        #expect(lines.all.first?.contains("info hearth: registered conn=3 nick=ada") == true, "\(lines.all)")
    }

    /// Lines written by a log handler, for the test to read.
    final class NIOLockedLines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }
}

extension ServiceManagerTests {
    /// `--log-format json`: every line one JSON object; connection events name the connection,
    /// nick and account; passwords said to the bot never appear, even at trace level.
    @Test func jsonLogsCarryConnectionEventsAndNoSecrets() async throws {
        let secret = "Hunter2-never-logged"
        let (_, finished) = try await Programs.serving(
            dataDirectory: TestServer.tempDirectory(), ["--log-format", "json", "--log-level", "trace"]
        ) { _, port in
            let nc = try await TestClient.connect(port: port)
            try await nc.send("!register logcook \(secret)")
            try await nc.expect("Welcome to Hearth, logcook!", timeout: 30)
            let irc = try await TestClient.connect(port: port)
            try await irc.send("PASS logcook:\(secret)")
            try await irc.send("NICK logcook2")
            try await irc.send("USER l 0 * :l")
            try await irc.expectNumeric("001")
            try await irc.send("PRIVMSG hearth :login logcook wrong-\(secret)")
            try await irc.expect(":hearth!")
            await irc.close()
            await nc.close()
            // (Still open at the stop, it is closed then, and logged as disconnected either way.)
        }
        let lines = finished.output.split(separator: "\n").map(String.init)
        #expect(!finished.output.contains(secret))
        var events: [[String: String]] = []
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
            #expect(object != nil, "not one JSON object: \(line)")
            if let object { events.append(object) }
        }
        let registered = events.filter { $0["message"] == "registered" }
        #expect(registered.contains { $0["nick"] == "logcook2" && $0["account"] == "logcook" && $0["conn"] != nil })
        #expect(events.contains { $0["message"] == "registered (plain mode)" })
        #expect(events.contains { $0["message"] == "disconnected" && $0["nick"] == "logcook2" })
        #expect(
            events.contains { $0["message"] == "connected" && $0["transport"] == "tcp" && $0["address"] == "127.0.0.1" }
        )
    }

    @Test func healthAndVersionNameTheRelease() async throws {
        let server = try await TestServer.start()
        let (data, _) = try await Web.fetch(URL(string: "http://127.0.0.1:\(server.httpPort)/health")!)
        #expect(String(decoding: data, as: UTF8.self).contains(#""version":"\#(HearthVersion.number)""#))
        let client = try await TestClient.connect(port: server.ircPort)
        try await client.send("NICK v")
        try await client.send("USER v 0 * :v")
        try await client.expectNumeric("001")
        try await client.send("VERSION")
        try await client.expect(HearthVersion.ircName)
        try await client.send("INFO")
        try await client.expect("Hearth \(HearthVersion.number)")
    }
}
