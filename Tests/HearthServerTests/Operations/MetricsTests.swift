import Foundation
import HearthServer
import HearthTesting
import Testing

/// `/metrics` after real traffic, read by a parser of Prometheus's text format: the counters
/// say what the test did.
@Suite struct MetricsTests {
    /// One sample: `name{label="value",…} number`.
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct FormatError: Error { let line: String }

    static func check(_ condition: Bool, _ line: String) throws { if !condition { throw FormatError(line: line) } }

    /// Prometheus's text exposition format (version 0.0.4): `# HELP`/`# TYPE` lines, then
    /// samples; label values escape `\\`, `\"` and `\n`. Throws on a line that is none of these.
    static func parse(_ text: String) throws -> (samples: [Sample], types: [String: String]) {
        var samples: [Sample] = []
        var types: [String: String] = [:]
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                try check(parts.count == 4, line)
                try check(["counter", "gauge", "histogram", "summary", "untyped"].contains(String(parts[3])), line)
                types[String(parts[2])] = String(parts[3])
                continue
            }
            if line.hasPrefix("#") { continue }
            var rest = Substring(line)
            let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
            try check(!name.isEmpty && !(name.first?.isNumber ?? true), line)
            rest = rest.dropFirst(name.count)
            var labels: [String: String] = [:]
            if rest.first == "{" {
                rest = rest.dropFirst()
                while rest.first != "}" {
                    let label = String(rest.prefix { $0 != "=" })
                    rest = rest.dropFirst(label.count)
                    try check(rest.hasPrefix("=\""), line)
                    rest = rest.dropFirst(2)
                    var value = ""
                    while let c = rest.first, c != "\"" {
                        rest = rest.dropFirst()
                        if c == "\\", let escaped = rest.first {
                            rest = rest.dropFirst()
                            value.append(escaped == "n" ? "\n" : escaped)
                        } else {
                            value.append(c)
                        }
                    }
                    try check(rest.first == "\"", line)
                    rest = rest.dropFirst()
                    labels[label] = value
                    if rest.first == "," { rest = rest.dropFirst() }
                }
                rest = rest.dropFirst()
            }
            try check(rest.first == " ", line)
            let number = rest.dropFirst().split(separator: " ").first.map(String.init) ?? ""
            guard let value = number == "+Inf" ? Double.infinity : Double(number) else { throw FormatError(line: line) }
            samples.append(Sample(name: name, labels: labels, value: value))
        }
        return (samples, types)
    }

    static func scrape(_ server: TestServer, port: Int? = nil, headers: [String: String] = [:]) async throws
        -> (status: Int, body: String)
    {
        let url = URL(string: "http://127.0.0.1:\(port ?? server.httpPort)/metrics")!
        let (data, response) = try await Web.fetch(url, headers: headers)
        return (response.statusCode, String(decoding: data, as: UTF8.self))
    }

    static func value(_ samples: [Sample], _ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }?
            .value
    }

    static func irc(_ server: TestServer, _ nick: String) async throws -> TestClient {
        let client = try await TestClient.connect(port: server.ircPort)
        try await client.send("NICK \(nick)")
        try await client.send("USER \(nick) 0 * :\(nick)")
        try await client.expectNumeric("001")
        return client
    }

    @Test func countersSayWhatHappened() async throws {
        let server = try await TestServer.start()
        let ada = try await Self.irc(server, "ada")
        let bob = try await Self.irc(server, "bob")
        for n in 1...3 { try await ada.send("PRIVMSG bob :hello \(n)") }
        try await bob.expect("hello 3")
        try await ada.send("NOTICE bob :psst")
        try await bob.expect("psst")
        try await ada.send("JOIN #kitchen")
        try await ada.expectNumeric("366")
        try await ada.send("PRIVMSG #kitchen :!help")
        try await ada.expect(":hearth!")
        let health = try await Web.fetch(URL(string: "http://127.0.0.1:\(server.httpPort)/health")!)
        #expect(health.1.statusCode == 200)
        let (status, body) = try await Self.scrape(server)
        #expect(status == 200)
        let (samples, types) = try Self.parse(body)
        #expect(Self.value(samples, "hearth_registrations_total", ["mode": "irc"]) == 2)
        #expect(Self.value(samples, "hearth_messages_received_total", ["command": "PRIVMSG"]) == 4)
        #expect(Self.value(samples, "hearth_messages_received_total", ["command": "NOTICE"]) == 1)
        #expect(Self.value(samples, "hearth_connections", ["transport": "tcp"]) == 2)
        #expect(Self.value(samples, "hearth_connections_opened_total", ["transport": "tcp"]) == 2)
        #expect(Self.value(samples, "hearth_bot_commands_total", ["command": "help"]) == 1)
        #expect(Self.value(samples, "hearth_bot_command_seconds_count", ["command": "help"]) == 1)
        #expect(Self.value(samples, "hearth_http_requests_total", ["route": "/health", "status": "200"]) == 1)
        #expect((Self.value(samples, "hearth_deliveries_total") ?? 0) >= 4)
        #expect(types["hearth_deliveries_total"] == "counter")
        #expect(types["hearth_connections"] == "gauge")
        #expect(types["hearth_bot_command_seconds"] == "histogram")
        #expect(Self.value(samples, "hearth_password_hash_queue") == 0)
        // The bot's command read the database (either engine reports its statements' times).
        #expect((Self.value(samples, "hearth_database_query_seconds_count") ?? 0) > 0)
        // A connection that leaves is no longer counted as open.
        await bob.close()
        var open: Double?
        for _ in 0..<200 {
            open = Self.value(
                try Self.parse(try await Self.scrape(server).body).samples, "hearth_connections",
                ["transport": "tcp"])
            if open == 1 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(open == 1)
    }

    @Test func aTokenGuardsMetricsAndASeparatePortServesThem() async throws {
        let server = try await TestServer.start { setup in
            setup.server.metricsToken = "s3cret-scrape"
            setup.server.metricsPort = 0
        }
        let port = try await server.server.metricsPort()
        #expect(port != 0)
        #expect(try await Self.scrape(server, port: port).status == 403)
        let (status, body) = try await Self.scrape(
            server, port: port, headers: ["Authorization": "Bearer s3cret-scrape"])
        #expect(status == 200 && body.contains("hearth_deliveries_total"))
        #expect(try await Self.scrape(server, port: port, headers: ["Authorization": "Bearer wrong"]).status == 403)
        #expect(try await Self.scrape(server, port: port, headers: ["Authorization": "Bearer"]).status == 403)
        // Not on the HTTP port when it has its own.
        #expect(try await Self.scrape(server, headers: ["Authorization": "Bearer s3cret-scrape"]).status == 404)
    }

    /// Without a token, loopback only — but not a reverse proxy on this machine passing on
    /// someone else's request.
    @Test func aProxiedRequestIsNotLoopback() async throws {
        let server = try await TestServer.start()
        #expect(try await Self.scrape(server).status == 200)
        for header in ["X-Forwarded-For", "Forwarded", "X-Real-IP"] {
            #expect(try await Self.scrape(server, headers: [header: "203.0.113.9"]).status == 403, "\(header)")
        }
    }

    /// Every forwarding header, and a listed proxy's request even without one (a proxy on this
    /// machine that adds no header looked like loopback): refused, token or not. The metrics
    /// port is not the proxy's, so loopback reads it there.
    @Test func nothingThroughAProxyReadsMetrics() async throws {
        let proxy = HTTPProxies(["127.0.0.1"])!
        try await withServer {
            $0.server.httpProxies = proxy
        } run: { server in
            let sameHostProxy = try await Self.scrape(server)
            #expect(sameHostProxy.status == 403)
        }
        try await withServer { server in
            for header in ["X-Forwarded-For", "Forwarded", "X-Real-IP", "X-Forwarded-Host", "X-Forwarded-Proto"] {
                let forwarded = try await Self.scrape(server, headers: [header: "evil.example"])
                #expect(forwarded.status == 403, "\(header)")
            }
        }
        try await withServer { setup in
            setup.server.metricsToken = "s3cret-scrape"
            setup.server.httpProxies = proxy
        } run: { server in
            let bearer = try await Self.scrape(server, headers: ["Authorization": "Bearer s3cret-scrape"])
            #expect(bearer.status == 403)
        }
        try await withServer { setup in
            setup.server.metricsPort = 0
            setup.server.httpProxies = proxy
        } run: { server in
            let port = try await server.server.metricsPort()
            let direct = try await Self.scrape(server, port: port)
            let forwarded = try await Self.scrape(server, port: port, headers: ["X-Forwarded-Host": "x"])
            #expect(direct.status == 200 && forwarded.status == 403)
        }
    }

    @Test func theParserRefusesWhatIsNotTheFormat() throws {
        #expect(throws: (any Error).self) { try Self.parse("hearth_x{a=\"1\" 2") }
        #expect(throws: (any Error).self) { try Self.parse("9bad 1") }
        let (samples, _) = try Self.parse("# TYPE m counter\nm{a=\"x\\\"y\",b=\"z\"} 3\n")
        #expect(samples == [Sample(name: "m", labels: ["a": "x\"y", "b": "z"], value: 3)])
    }
}

extension MetricsTests {
    @Test func metricsOffAreNeitherCountedNorServed() async throws {
        let server = try await TestServer.start { $0.server.metrics = false }
        let ada = try await Self.irc(server, "ada")
        try await ada.send("PRIVMSG ada :to myself")
        #expect(try await Self.scrape(server).status == 404)
        #expect(try Self.parse(String(decoding: server.server.metricsText(), as: UTF8.self)).samples.isEmpty)
    }
}
