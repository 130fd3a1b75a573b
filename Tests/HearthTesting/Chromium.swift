import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOWebSocket

/// A headless Chromium driven over the Chrome DevTools Protocol, for tests of Hearth's web pages:
///
///     try await Chromium.withBrowser { browser in
///         try await browser.navigate(to: "http://127.0.0.1:\(port)/chat")
///         try await browser.waitUntil("document.querySelector('#nick') !== null")
///         let title = try await browser.evaluate("document.title")
///     }
///
/// The browser is stopped and its profile removed when the closure ends. A missing or broken
/// `chromium` (or `HEARTH_CHROMIUM`) throws `Chromium.Failure`: the test fails, never skips.
public final class Chromium: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// The program run: `HEARTH_CHROMIUM` if set, else `chromium` from PATH.
    public static var program: String { ProcessInfo.processInfo.environment["HEARTH_CHROMIUM"] ?? "chromium" }
    /// The most a DevTools message may hold (a full-page screenshot is a few MiB of base64).
    static let maxMessageBytes = 64 << 20
    /// How long one DevTools command may take before the test gives up on it.
    static let commandTimeout: TimeAmount = .seconds(30)

    let running: Programs.Running
    let profile: String
    /// The browser's own connection (to close it) and the page's.
    let browser: DevToolsConnection
    let connection: DevToolsConnection

    init(running: Programs.Running, profile: String, connections: (DevToolsConnection, DevToolsConnection)) {
        (self.running, self.profile) = (running, profile)
        (browser, connection) = connections
    }

    /// Starts Chromium with a fresh profile, runs `body` with it, then stops it.
    public static func withBrowser<T: Sendable>(
        width: Int = 1200, height: Int = 900, _ body: (Chromium) async throws -> T
    ) async throws -> T {
        let profile = NSTemporaryDirectory() + "hearth-chromium-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let arguments = [
            program, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
            "--user-data-dir=\(profile)", "--window-size=\(width),\(height)", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "about:blank",
        ]
        var started = false
        do {
            defer { removeProfile(profile) }
            let (value, _) = try await Programs.whileRunning(arguments) { running in
                started = true
                // SIGTERM comes when the closure ends; a browser that ignores it is killed later.
                defer {
                    Task {
                        try? await Task.sleep(for: .seconds(5))
                        running.kill()
                    }
                }
                let browser = try await Chromium(running: running, profile: profile, connections: connect(running))
                do {
                    let value = try await body(browser)
                    await browser.close()
                    return value
                } catch {
                    await browser.close()
                    throw error
                }
            }
            return value
        } catch let error where !started {
            throw Failure("could not start \(program) (install it: scripts/setup): \(error)")
        }
    }

    /// Chromium's helpers may still write to the profile for a moment after the browser ended.
    static func removeProfile(_ profile: String) {
        for _ in 0..<50 where FileManager.default.fileExists(atPath: profile) {
            if (try? FileManager.default.removeItem(atPath: profile)) == nil { usleep(20_000) }
        }
    }

    /// Waits for "DevTools listening on ws://…", asks the browser for its page target and
    /// connects to that. (Not through /json/list: Chromium keeps that HTTP connection open, which
    /// FoundationNetworking fails on.)
    static func connect(_ running: Programs.Running) async throws -> (DevToolsConnection, DevToolsConnection) {
        // A browser's start is slow by nature when the pass starts sixteen of them on two cores (one
        // took over 20 s here): the wait is for the start, not a timing under test.
        let deadline = ContinuousClock.now + .seconds(60)
        var browserURL: URL?
        while browserURL == nil {
            if let range = running.output.range(of: "DevTools listening on ") {
                browserURL = URL(string: String(running.output[range.upperBound...].prefix { !$0.isWhitespace }))
            } else if ContinuousClock.now > deadline {
                throw Failure("\(program) did not open its DevTools port in 60 s: \(running.output.suffix(2000))")
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        guard let browserURL, var page = URLComponents(url: browserURL, resolvingAgainstBaseURL: false) else {
            throw Failure("no DevTools address in: \(running.output.suffix(2000))")
        }
        let browser = try await DevToolsConnection.open(browserURL)
        while true {
            let targets = try await browser.call("Target.getTargets")["targetInfos"] as? [[String: Any]] ?? []
            if let id = targets.first(where: { $0["type"] as? String == "page" })?["targetId"] as? String {
                page.path = "/devtools/page/\(id)"
                guard let url = page.url else { throw Failure("bad target id \(id)") }
                let connection = try await DevToolsConnection.open(url)
                for domain in ["Page", "Runtime", "Log"] { _ = try await connection.call("\(domain).enable") }
                return (browser, connection)
            }
            guard ContinuousClock.now < deadline else { throw Failure("\(program) has no page target: \(targets)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Ends the browser now (it is ended anyway when `withBrowser`'s closure returns). Asked to
    /// close, Chromium removes its socket directory in /tmp, which a signal would leave behind.
    public func close() async {
        let socket = (profile as NSString).appendingPathComponent("SingletonSocket")
        let leftover = (try? FileManager.default.destinationOfSymbolicLink(atPath: socket)).map {
            ($0 as NSString).deletingLastPathComponent
        }
        _ = try? await browser.call("Browser.close")
        await connection.close()
        await browser.close()
        for _ in 0..<100 where leftover.map({ FileManager.default.fileExists(atPath: $0) }) == true {
            try? await Task.sleep(for: .milliseconds(50))
        }
        running.terminate()
        // Not left to a later task: the test process may end first, and a browser that outlives
        // its test keeps its renderers (seen in CI).
        try? await Task.sleep(for: .milliseconds(500))
        running.kill()
    }

    /// Exceptions, console messages and browser log entries (CSP violations among them), in order.
    public var console: [String] { connection.events.withLockedValue { $0 } }

    /// What a page must never cause: exceptions, CSP refusals and failed loads, except the lines
    /// `expected` lets through (a 401 a story provokes on purpose).
    public func problems(except expected: (String) -> Bool = { _ in false }) -> [String] {
        console.filter { line in
            let bad =
                line.hasPrefix("exception") || line.contains("Content Security") || line.contains("Refused to")
                || line.hasPrefix("log error")
            return bad && !expected(line)
        }
    }

    /// Opens `url` and waits until its document has loaded.
    public func navigate(to url: String, timeout: Double = 30) async throws {
        // Marks the old document, so the wait below cannot mistake it for the new one.
        _ = try await evaluate("window.__hearthOldPage = true")
        let result = try await connection.call("Page.navigate", ["url": url])
        if let error = result["errorText"] as? String, !error.isEmpty {
            throw Failure("could not open \(url): \(error)")
        }
        try await waitUntil("!window.__hearthOldPage && document.readyState === 'complete'", timeout: timeout)
    }

    /// Runs JavaScript in the page (awaiting a promise) and returns its value: a string as it
    /// is, anything else as JSON ("" for undefined).
    @discardableResult
    public func evaluate(_ javaScript: String) async throws -> String {
        let reply = try await connection.call(
            "Runtime.evaluate", ["expression": javaScript, "returnByValue": true, "awaitPromise": true])
        if let details = reply["exceptionDetails"] as? [String: Any] {
            let exception = (details["exception"] as? [String: Any])?["description"] as? String
            throw Failure("JavaScript failed: \(exception ?? details["text"] as? String ?? "?")\n  in: \(javaScript)")
        }
        guard let value = (reply["result"] as? [String: Any])?["value"] else { return "" }
        if let text = value as? String { return text }
        let data = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// Polls `condition` (a JavaScript expression) until it is truthy, for at most `timeout`
    /// seconds; then fails with the page's visible text, to show what it said instead.
    public func waitUntil(_ condition: String, timeout: Double = 10) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var lastError = ""
        while ContinuousClock.now < deadline {
            // While a page loads its context may be gone for a moment: that is not an answer.
            do {
                if try await evaluate("!!(\(condition))") == "true" { return }
            } catch {
                lastError = "\n  last error: \(error)"
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let text = (try? await evaluate("document.body ? document.body.innerText : ''")) ?? ""
        throw Failure(
            "timed out after \(timeout) s waiting for \(condition)\(lastError)\n  page text: \(text.suffix(1500))")
    }

    /// Saves a PNG of the viewport to `path`.
    public func screenshot(to path: String) async throws {
        let reply = try await connection.call("Page.captureScreenshot", ["format": "png"])
        guard let base64 = reply["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw Failure("Chromium sent no screenshot")
        }
        try png.write(to: URL(fileURLWithPath: path))
    }

    /// Pretends to be a screen of this size (a phone: `mobile: true`, e.g. 390×844); nil restores it.
    public func emulate(width: Int?, height: Int = 844, mobile: Bool = true) async throws {
        guard let width else {
            _ = try await connection.call("Emulation.clearDeviceMetricsOverride")
            return
        }
        _ = try await connection.call(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "deviceScaleFactor": mobile ? 2 : 1, "mobile": mobile])
    }

    /// Sets `prefers-color-scheme` ("dark" or "light"; "" for the default).
    public func colorScheme(_ scheme: String) async throws {
        _ = try await connection.call(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": scheme]]])
    }

    /// `text` as a JavaScript string literal, for building expressions.
    public static func literal(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed)
        return String(decoding: data, as: UTF8.self)
    }
}

/// One DevTools WebSocket: commands go out with an id, replies come back by it; events are
/// kept as text for `Chromium.console`.
final class DevToolsConnection: Sendable {
    let channel: Channel
    let replies = NIOLockedValueBox<[Int: CheckedContinuation<Data, Error>]>([:])
    let events = NIOLockedValueBox<[String]>([])
    let nextID = NIOLockedValueBox(0)

    init(channel: Channel) { self.channel = channel }

    /// How often a DevTools handshake is tried: a Chromium still starting under a loaded machine
    /// has closed the first connection during the handshake (a browser pass failed on it in CI).
    static let handshakeAttempts = 5

    /// Opens the connection, trying the handshake again (after a short pause) when it fails.
    static func open(_ url: URL) async throws -> DevToolsConnection {
        for attempt in 1..<handshakeAttempts {
            do {
                return try await openOnce(url)
            } catch {
                try await Task.sleep(for: .milliseconds(200 * attempt))
            }
        }
        return try await openOnce(url)
    }

    /// The WebSocket handshake by hand, without an Origin header (Chromium refuses origins it
    /// was not told to allow).
    static func openOnce(_ url: URL) async throws -> DevToolsConnection {
        let (host, port) = (url.host ?? "127.0.0.1", url.port ?? 80)
        let upgraded = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)
        let box = NIOLockedValueBox<DevToolsConnection?>(nil)
        let connection: DevToolsConnection
        // The promise is completed on every path: one left pending when the connection failed
        // is a "leaking promise" trap in debug builds, which ended a whole browser pass here.
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(Handshake(done: upgraded, connection: box))
                    }
                }
                .connect(host: host, port: port).get()
            connection = DevToolsConnection(channel: channel)
            box.withLockedValue { $0 = connection }
            let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            let request =
                "GET \(url.path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
            try await channel.writeAndFlush(ByteBuffer(string: request))
        } catch {
            upgraded.fail(error)
            try? await box.withLockedValue({ $0 })?.channel.close()  // connected, then the request failed
            throw error
        }
        try await upgraded.futureResult.get()
        return connection
    }

    /// Sends a command and waits (bounded) for its result.
    func call(_ method: String, _ parameters: [String: Any] = [:]) async throws -> [String: Any] {
        let id = nextID.withLockedValue {
            $0 += 1
            return $0
        }
        let message = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": parameters])
        let channel = self.channel
        let data: Data = try await withCheckedThrowingContinuation { continuation in
            replies.withLockedValue { $0[id] = continuation }
            _ = channel.eventLoop.scheduleTask(in: Chromium.commandTimeout) {
                self.finish(id, .failure(Chromium.Failure("no answer from Chromium to \(method)")))
            }
            let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(bytes: message))
            channel.writeAndFlush(frame).whenFailure { self.finish(id, .failure($0)) }
        }
        let reply = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        if let error = reply["error"] as? [String: Any] {
            throw Chromium.Failure("\(method) failed: \(error["message"] as? String ?? "\(error)")")
        }
        return reply["result"] as? [String: Any] ?? [:]
    }

    func finish(_ id: Int, _ result: Result<Data, Error>) {
        replies.withLockedValue { $0.removeValue(forKey: id) }?.resume(with: result)
    }

    func received(_ data: Data) {
        guard let message = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        if let id = message["id"] as? Int { return finish(id, .success(data)) }
        let params = message["params"] as? [String: Any] ?? [:]
        let line: String
        switch message["method"] as? String {
        case "Runtime.exceptionThrown":
            let details = params["exceptionDetails"] as? [String: Any] ?? [:]
            let exception = (details["exception"] as? [String: Any])?["description"] as? String
            line = "exception: \(exception ?? details["text"] as? String ?? "?")"
        case "Runtime.consoleAPICalled":
            let arguments = (params["args"] as? [[String: Any]] ?? []).map { argument -> String in
                argument["value"].map { "\($0)" } ?? argument["description"] as? String ?? ""
            }
            line = "console.\(params["type"] as? String ?? "log"): \(arguments.joined(separator: " "))"
        case "Log.entryAdded":
            let entry = (params["entry"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
            line = "log \(entry["level"] ?? "") \(entry["source"] ?? ""): \(entry["text"] ?? "") \(entry["url"] ?? "")"
        default:
            return
        }
        events.withLockedValue { if $0.count < 500 { $0.append(line) } }
    }

    func closed() {
        let waiting = replies.withLockedValue { replies in
            defer { replies = [:] }
            return replies
        }
        for continuation in waiting.values { continuation.resume(throwing: Chromium.Failure("Chromium went away")) }
    }

    func close() async { try? await channel.close() }

    /// Reads the handshake's answer; on 101 puts the frame handlers in its place.
    final class Handshake: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let done: EventLoopPromise<Void>
        let connection: NIOLockedValueBox<DevToolsConnection?>
        var received = ByteBuffer()

        init(done: EventLoopPromise<Void>, connection: NIOLockedValueBox<DevToolsConnection?>) {
            (self.done, self.connection) = (done, connection)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            received.writeBuffer(&bytes)
            let view = received.readableBytesView
            guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let status = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
            received.moveReaderIndex(to: end.upperBound)
            guard status.hasPrefix("HTTP/1.1 101"), let connection = connection.withLockedValue({ $0 }) else {
                done.fail(Chromium.Failure("DevTools refused the WebSocket: \(status)"))
                context.close(promise: nil)
                return
            }
            do {
                let pipeline = context.pipeline.syncOperations
                try pipeline.addHandler(WebSocketFrameEncoder(), position: .after(self))
                try pipeline.addHandler(
                    ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: Chromium.maxMessageBytes)),
                    position: .after(pipeline.handler(type: WebSocketFrameEncoder.self)))
                try pipeline.addHandler(
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16,
                        maxAccumulatedFrameSize: Chromium.maxMessageBytes))
                try pipeline.addHandler(Messages(connection: connection))
                let rest = received
                pipeline.removeHandler(context: context, promise: nil)
                if rest.readableBytes > 0 { context.fireChannelRead(NIOAny(rest)) }
                done.succeed()
            } catch {
                done.fail(error)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            done.fail(Chromium.Failure("DevTools closed the connection during the handshake"))
            context.fireChannelInactive()
        }
    }

    /// Whole messages in, to the connection.
    final class Messages: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = WebSocketFrame
        let connection: DevToolsConnection

        init(connection: DevToolsConnection) { self.connection = connection }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            guard frame.opcode == .text || frame.opcode == .binary else { return }
            connection.received(Data(frame.unmaskedData.readableBytesView))
        }

        func channelInactive(context: ChannelHandlerContext) {
            connection.closed()
            context.fireChannelInactive()
        }
    }
}
