import Foundation
import HearthTesting
import Testing

/// Smaller IRCv3 caps clients use: no-implicit-names, draft/pre-away, draft/extended-isupport.
@Suite struct SmallCapsTests {
    @Test func noImplicitNamesLeavesOutTheNamesAfterJoin() async throws {
        try await withServer { server in
            let quiet = try await TestClient.irc(
                server, nick: "nina", extra: ["CAP LS 302", "CAP REQ :no-implicit-names", "CAP END"])
            try await quiet.send("JOIN #lean")
            try await quiet.expect("JOIN #lean")
            try await quiet.send("PING after-join")
            try await quiet.expectNoLine(containing: " 366 ", before: "after-join")
            try await quiet.send("NAMES #lean")
            try await quiet.expect(" 353 nina = #lean :@nina")
            try await quiet.expect(" 366 nina #lean")
            // Without the cap the NAMES reply follows the JOIN as ever.
            let plain = try await TestClient.irc(server, nick: "noel")
            try await plain.send("JOIN #lean")
            try await plain.expect(" 353 noel = #lean :@nina noel")
        }
    }

    @Test func preAwaySetsAwayBeforeRegistration() async throws {
        try await withServer { server in
            let device = try await TestClient.irc(
                server, nick: "pia", extra: ["CAP LS 302", "CAP REQ :draft/pre-away", "AWAY *", "CAP END"])
            let friend = try await TestClient.irc(server, nick: "pete")
            try await friend.send("WHOIS pia")
            try await friend.expect(" 301 pete pia :*")
            try await device.send("AWAY")
            try await device.expect(" 305 pia")
            // Without the cap, AWAY must wait for registration.
            let early = try await server.connect()
            try await early.send("CAP LS 302")
            try await early.send("AWAY :lunch")
            try await early.expect(" 451 ")
        }
    }

    @Test func isupportBeforeRegistrationInABatch() async throws {
        try await withServer { server in
            let client = try await server.connect()
            try await client.send("CAP LS 302")
            try await client.expect("draft/extended-isupport")
            try await client.send("ISUPPORT")
            try await client.expect(" 451 ")
            try await client.send("CAP REQ :batch draft/extended-isupport")
            try await client.expect("ACK")
            try await client.send("ISUPPORT")
            let start = try await client.expect("BATCH +")
            #expect(start.hasSuffix(" draft/isupport"))
            let id = String(start.split(separator: " ")[2].dropFirst())
            try await client.expect("@batch=\(id) ") { $0.hasPrefix("@batch=\(id) ") && $0.contains(" 005 * ") }
            try await client.expect("BATCH -\(id)")
            // The welcome's 005 lines come batched too.
            try await client.send("NICK isa")
            try await client.send("USER isa 0 * :Isa")
            try await client.send("CAP END")
            try await client.expectNumeric("001")
            let welcome = try await client.expect("draft/isupport")
            let again = String(welcome.split(separator: " ")[2].dropFirst())
            try await client.expect("005 isa") { $0.hasPrefix("@batch=\(again) ") && $0.contains(" 005 isa ") }
            // Registered, without the caps: ISUPPORT answers plain 005 lines.
            let other = try await TestClient.irc(server, nick: "ivo")
            try await other.send("ISUPPORT")
            let unbatched = try await other.expect(" 005 ivo ")
            #expect(unbatched.hasPrefix(":test.hearth 005 ivo "))
        }
    }
}
