import Foundation
import HearthStore
import HearthTesting
import Testing

@testable import HearthServer

/// draft/metadata-2: profiles in the client — kept with the account, pushed to subscribers.
@Suite struct MetadataTests {
    /// A registered client with the metadata cap (and `batch`).
    static func client(_ server: TestServer, _ nick: String, extra: [String] = []) async throws -> TestClient {
        try await TestClient.irc(server, nick: nick, extra: extra + ["CAP REQ :draft/metadata-2 batch", "CAP END"])
    }

    @Test func anAccountsKeysAreItsProfile() async throws {
        try await withServer { server in
            let ann = try await Self.client(server, "ann")
            try await ann.send("REGISTER * * s3cret-pass")
            try await ann.expect("REGISTER SUCCESS ann")
            try await ann.send("METADATA * SET display-name :Ann Archer")
            try await ann.expect(":test.hearth 761 ann ann display-name * :Ann Archer")
            try await ann.send("METADATA * SET pronouns she/her")
            try await ann.expect(" 761 ann ann pronouns * :she/her")
            try await ann.send("METADATA * SET bio :I bake bread")
            try await ann.expect(" 761 ann ann bio * :I bake bread")
            #expect(try await server.sql.int("SELECT count(*) FROM profileField") == 2)

            // !profile shows the same values, the bio among them.
            try await ann.send("PRIVMSG hearth :!profile")
            try await ann.expect("bio: I bake bread")
            try await ann.expect("name: Ann Archer · pronouns: she/her")
            // and so does the web's profile page.
            let (page, _) = try await Web.fetch(try #require(URL(string: "http://127.0.0.1:\(server.httpPort)/u/ann")))
            let html = String(decoding: page, as: UTF8.self)
            #expect(html.contains("<span>name: Ann Archer</span> <span>pronouns: she/her</span>"))
            await ann.close()

            // A new login brings them back; others read them.
            let again = try await Self.client(server, "ann", extra: ["PASS ann:s3cret-pass"])
            try await again.send("METADATA * LIST")
            try await again.expect(" 761 ann ann bio * :I bake bread")
            try await again.expect(" 761 ann ann display-name * :Ann Archer")
            try await again.expect(" 761 ann ann pronouns * :she/her")
            let bob = try await Self.client(server, "bob")
            try await bob.send("METADATA ann GET pronouns color")
            try await bob.expect(" 761 bob ann pronouns * :she/her")
            try await bob.expect(" 766 bob ann color :key not set")
            try await bob.send("METADATA ann SET pronouns :they/them")
            try await bob.expect("FAIL METADATA KEY_NO_PERMISSION ann pronouns :")
            try await bob.send("WHOIS ann")
            try await bob.expect(" 760 bob ann display-name * :Ann Archer")

            // Unset removes it from the store too.
            try await again.send("METADATA * SET pronouns")
            try await again.expect(" 766 ann ann pronouns :key not set")
            #expect(try await server.sql.int("SELECT count(*) FROM profileField") == 1)
        }
    }

    @Test func subscribersInASharedChannelHearChanges() async throws {
        try await withServer { server in
            let foo = try await Self.client(server, "foo")
            let bar = try await Self.client(server, "bar")
            let cat = try await Self.client(server, "cat")
            try await bar.send("METADATA * SUB display-name avatar")
            try await bar.expect(" 770 bar display-name :avatar")
            for client in [foo, bar, cat] {
                try await client.send("JOIN #c")
                try await client.expect(" 366 ")
            }
            try await foo.send("METADATA * SET display-name :Foo")
            try await bar.expect(":test.hearth 761 bar foo display-name * :Foo")
            try await foo.send("METADATA * SET display-name")
            try await bar.expect(" 766 bar foo display-name :key not set")
            // cat did not subscribe: nothing reaches it.
            try await foo.send("PRIVMSG #c :after")
            try await cat.expectNoLine(containing: " 76", before: "PRIVMSG #c :after")

            // A channel's keys: its operator sets them, members read them, others may not.
            try await foo.send("METADATA #c SET avatar :https://example.org/c.png")
            try await foo.expect(" 761 foo #c avatar * :https://example.org/c.png")
            try await bar.expect(" 761 bar #c avatar * :https://example.org/c.png")
            try await cat.send("METADATA #c SET avatar :x")
            try await cat.expect("FAIL METADATA KEY_NO_PERMISSION #c avatar :")
            let out = try await Self.client(server, "out")
            try await out.send("METADATA #c LIST")
            try await out.expect("FAIL METADATA KEY_NO_PERMISSION #c * :")
            // A subscriber joining later hears the channel's keys.
            try await out.send("METADATA * SUB avatar")
            try await out.send("JOIN #c")
            try await out.expect(" 761 out #c avatar * :https://example.org/c.png")
        }
    }

    @Test func keysSetWhileConnectingComeBackAfterTheWelcome() async throws {
        try await withServer { server in
            let c = try await server.connect()
            try await c.send("CAP LS 302")
            try await c.expect("draft/metadata-2=before-connect,max-subs=")
            try await c.send("CAP REQ :draft/metadata-2 batch")
            try await c.send("METADATA * SET color :#c90076")
            try await c.expect(" 761 * * color * :#c90076")
            try await c.send("METADATA eve SET color :#000000")
            try await c.expect("FAIL METADATA KEY_NO_PERMISSION eve color :")
            try await c.send("NICK dee")
            try await c.send("USER dee 0 * :Dee")
            try await c.send("CAP END")
            try await c.expectNumeric("376")
            try await c.expect("BATCH +")
            try await c.expect(" 761 dee dee color * :#c90076")
        }
    }

    @Test func limitsOfKeysValuesSubscriptionsAndRate() async throws {
        try await withServer { server in
            let c = try await Self.client(server, "lim")
            let longest = String(repeating: "v", count: ProfileFields.maxValueBytes)
            try await c.send("METADATA * SET k0 :\(longest)")
            try await c.expect(" 761 lim lim k0 * :\(longest)")
            try await c.send("METADATA * SET k0 :\(longest)w")
            try await c.expect("FAIL METADATA INVALID_VALUE k0 :a value has at most")
            try await c.send("METADATA * SET Bad-Key x")
            try await c.expect("FAIL METADATA INVALID_KEY Bad-Key :")
            for i in 1..<ProfileFields.maxFields {
                try await c.send("METADATA * SET k\(i) v")
                try await c.expect(" 761 lim lim k\(i) * :v")
            }
            try await c.send("METADATA * SET one-more v")
            try await c.expect("FAIL METADATA LIMIT_REACHED lim \(ProfileFields.maxFields) :")
            // Subscriptions.
            let keys = (0..<Core.maxMetadataSubscriptions).map { "s\($0)" }
            for start in stride(from: 0, to: keys.count, by: 10) {  // (a line has at most 15 parameters)
                try await c.send("METADATA * SUB " + keys[start..<min(start + 10, keys.count)].joined(separator: " "))
                try await c.expect(" 770 lim s\(start) ")
            }
            try await c.send("METADATA * SUB s-extra")
            try await c.expect("FAIL METADATA LIMIT_REACHED s-extra \(Core.maxMetadataSubscriptions) :")

            // Rate: changes of one's own keys per window.
            let r = try await Self.client(server, "rate")
            for i in 0..<Core.metadataChangesPerWindow {
                try await r.send("METADATA * SET k v\(i)")
                try await r.expect(" 761 rate rate k * :v\(i)")
            }
            try await r.send("METADATA * SET k late")
            try await r.expect("FAIL METADATA RATE_LIMITED rate k ")
        }
    }
}
