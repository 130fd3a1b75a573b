import Foundation
import HearthAccounts
import HearthServer
import HearthTesting
import Testing

/// Behind a reverse proxy every visitor arrives from the proxy's address. With the proxy listed
/// (`http-proxy-from`; here the tests' 127.0.0.1 plays it), each per-address limit of the HTTP
/// port counts the visitor the proxy names in `X-Forwarded-For`; from anyone else the header
/// counts for nothing.
@Suite struct ReverseProxyTests {
    static let proxy = HTTPProxies(["127.0.0.1"])!

    static func from(_ server: TestServer, _ visitor: String) -> WebBrowser {
        let browser = WebBrowser(server)
        browser.headers = ["X-Forwarded-For": visitor]
        return browser
    }

    static func upload(_ server: TestServer, _ login: String, from visitor: String) async throws -> Int {
        let endpoint = try #require(URL(string: "http://127.0.0.1:\(server.httpPort)/upload"))
        let basic = "Basic " + Data(login.utf8).base64EncodedString()
        let headers = ["Authorization": basic, "X-Forwarded-For": visitor]
        let (_, response) = try await Web.fetch(endpoint, method: "POST", body: Web.samplePNG(), headers: headers)
        return response.statusCode
    }

    /// One visitor's wrong sign-ins (one past the per-address allowance) once locked every
    /// visitor out: the whole site was the proxy's one address.
    @Test func oneVisitorsWrongPasswordsDoNotLockOutAnother() async throws {
        // The server's clock stands still: a loaded machine cannot outwait the lockout between two requests.
        let clock = TestClock("2026-03-02T10:00:00Z")
        try await withServer {
            $0.server.httpProxies = Self.proxy
            $0.server.clock = clock.hearth
        } run: { server in
            _ = try await TestClient.user(server, "alice")
            _ = try await TestClient.user(server, "bob")
            // Guessing across names, so that only the address's allowance runs out.
            let attacker = Self.from(server, "203.0.113.66")
            for guess in 0...LoginThrottle.freeFailuresPerAddress {
                #expect(try await attacker.signIn("user\(guess)", "a-guess").status == 401)
            }
            // The attacker's forwarded address is throttled, on the web and for uploads…
            let refused = try await attacker.signIn("bob")
            #expect(refused.status == 401 && refused.body.contains("too many failed attempts"))
            #expect(try await Self.upload(server, "bob:s3cret-pass", from: "203.0.113.66") == 401)
            // …and nobody else is: other visitors sign in and upload.
            #expect(try await Self.from(server, "198.51.100.7").signIn("bob").status == 303)
            #expect(try await Self.from(server, "198.51.100.8").signIn("alice").status == 303)
            #expect(try await Self.upload(server, "bob:s3cret-pass", from: "1.2.3.4, 198.51.100.7") == 201)
        }
    }

    /// A peer that is not a listed proxy writes what it likes in the header: it counts as itself.
    @Test func forwardingHeadersFromAnyoneElseAreIgnored() async throws {
        try await withServer {
            $0.server.httpProxies = HTTPProxies(["127.0.0.2"])!
            $0.server.clock = TestClock().hearth
        } run: { server in
            _ = try await TestClient.user(server, "bob")
            for guess in 0...LoginThrottle.freeFailuresPerAddress {
                let spoofing = Self.from(server, "198.51.100.\(guess + 1)")
                #expect(try await spoofing.signIn("user\(guess)", "a-guess").status == 401)
            }
            let refused = try await Self.from(server, "198.51.100.200").signIn("bob")
            #expect(refused.status == 401 && refused.body.contains("too many failed attempts"))
        }
    }

    /// Web chat: connections per address count the visitor, not the proxy (the whole site once
    /// had room for `connections-per-address` web-chat users).
    @Test func webChatConnectionsCountPerVisitor() async throws {
        try await withServer { setup in
            setup.server.httpProxies = Self.proxy
            setup.server.maxConnectionsPerAddress = 2
        } run: { server in
            var open: [TestClient] = []
            for _ in 0..<2 {
                let (client, _) = try await TestClient.connectWebSocket(
                    port: server.httpPort, headers: ["X-Forwarded-For": "203.0.113.66"])
                open.append(client)
            }
            let (third, _) = try await TestClient.connectWebSocket(
                port: server.httpPort, headers: ["X-Forwarded-For": "203.0.113.66"])
            try await third.expect("Too many connections from your address")
            let (other, _) = try await TestClient.connectWebSocket(
                port: server.httpPort, headers: ["X-Forwarded-For": "198.51.100.7"])
            try await other.send("NICK visitor")
            try await other.send("USER v 0 * :v")
            try await other.expect(" 001 visitor ")
            for client in open { await client.close() }
        }
    }
}
