import Foundation
import HearthKit
import HearthTesting
import Testing

@testable import HearthServer

/// The web chat signs in with the site's session: `POST /chat/ticket` gives a one-time ticket
/// that SASL PLAIN takes as the password, once, for its account, within `ChatTickets.lifetime`.
@Suite struct ChatSignInTests {
    @Test func aTicketWorksOnceForItsAccountWithinItsLifetime() async throws {
        try await withServer { server in
            let store = server.server.store
            let ann = try await store.createAccount(
                name: "Ann", nameKey: "ann", passwordHash: "x", email: nil, phone: nil, recoveryHashes: [])
            let me = AccountRef(id: ann.id, name: "Ann")
            // Whole seconds: the store keeps milliseconds.
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let ticket = try #require(try await ChatTickets.issue(store, for: me, tokenHash: "h", now: now))
            #expect(ChatTickets.looksLikeTicket(ticket) && !ticket.contains("h\u{0}"))
            #expect(try await ChatTickets.redeem(store, ticket, now: now)?.accountId == ann.id)
            #expect(try await ChatTickets.redeem(store, ticket, now: now) == nil)  // used
            let late = try #require(try await ChatTickets.issue(store, for: me, tokenHash: "h", now: now))
            #expect(try await ChatTickets.redeem(store, late, now: now.addingTimeInterval(ChatTickets.lifetime)) == nil)
            let inTime = try #require(try await ChatTickets.issue(store, for: me, tokenHash: "h", now: now))
            let almost = now.addingTimeInterval(ChatTickets.lifetime - 1)
            #expect(try await ChatTickets.redeem(store, inTime, now: almost) != nil)
            #expect(try await ChatTickets.redeem(store, "hct_" + String(repeating: "0", count: 32)) == nil)
        }
    }

    static func ticket(_ web: WebBrowser, headers: [String: String] = ["X-Hearth-Chat": "1"]) async throws
        -> (status: Int, account: String?, ticket: String?)
    {
        let page = try await web.send("POST", "/chat/ticket", headers: headers)
        let json = try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any] ?? [:]
        return (page.status, json["account"] as? String, json["ticket"] as? String)
    }

    static func sasl(_ server: TestServer, nick: String, _ name: String, _ secret: String) async throws -> TestClient {
        try await sasl(port: server.ircPort, nick: nick, name, secret)
    }

    static func sasl(port: Int, nick: String, _ name: String, _ secret: String) async throws -> TestClient {
        let c = try await TestClient.connect(port: port)
        try await c.send("CAP REQ :sasl")
        try await c.send("NICK \(nick)")
        try await c.send("USER web 0 * :Web")
        try await c.send("AUTHENTICATE PLAIN")
        try await c.expect("AUTHENTICATE +")
        try await c.send("AUTHENTICATE " + Data(("\0" + name + "\0" + secret).utf8).base64EncodedString())
        return c
    }

    @Test func theSitesSessionSignsTheChatInOnceByTicket() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            let web = WebBrowser(server)
            // Signed out: no ticket, and no error either (the page shows its own form).
            #expect(try await Self.ticket(web) == (200, nil, nil))
            try await web.signIn("ann")
            // Only the chat's script may ask: its header, from this site.
            #expect(try await Self.ticket(web, headers: [:]).status == 403)
            #expect(
                try await Self.ticket(web, headers: ["X-Hearth-Chat": "1", "Sec-Fetch-Site": "cross-site"]).status
                    == 403)
            #expect(
                try await Self.ticket(web, headers: ["X-Hearth-Chat": "1", "Origin": "https://evil.example"]).status
                    == 403)
            let (status, account, ticket) = try await Self.ticket(
                web, headers: ["X-Hearth-Chat": "1", "Origin": "http://127.0.0.1:\(server.httpPort)"])
            #expect(status == 200 && account == "ann")
            let secret = try #require(ticket)

            let chat = try await Self.sasl(server, nick: "ann", "ann", secret)
            try await chat.expectNumeric("903")
            try await chat.send("CAP END")
            try await chat.expectNumeric("001")
            try await chat.send("PRIVMSG hearth :!whoami")
            try await chat.expect("logged in as ann")

            // Used once: a second try fails, as does a ticket for ann sent as another account.
            let again = try await Self.sasl(server, nick: "ann2", "ann", secret)
            try await again.expect("904 ann2 :SASL authentication failed: the chat's sign-in ticket is used or expired")
            try await TestClient.register(server, "bob", "s3cret-pass")
            let stolen = try #require(try await Self.ticket(web).ticket)
            let bob = try await Self.sasl(server, nick: "bob", "bob", stolen)
            try await bob.expectNumeric("904")

            // Signing out on the site makes a ticket it gave useless.
            let last = try #require(try await Self.ticket(web).ticket)
            let out = try await web.post("/signout", form: [:])
            #expect(out.status == 303)
            let gone = try await Self.sasl(server, nick: "ann3", "ann", last)
            try await gone.expectNumeric("904")
        }
    }
}
