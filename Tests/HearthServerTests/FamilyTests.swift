import Foundation
import Testing

/// Families over TCP: codes, joining with a relationship, the tree, independence.
@Suite struct FamilyTests {
    static func code(in line: String) throws -> String {
        let word = try #require(line.split(separator: " ").first { $0.count == 14 && $0.filter { $0 == "-" }.count == 2 })
        return String(word)
    }

    @Test func foundInviteJoinAndShowTheTree() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let ann = try await SocialTests.user(server, "ann")
        let bob = try await SocialTests.user(server, "bob")
        let cat = try await SocialTests.user(server, "cat")
        try await ann.send("!tree")
        try await ann.expect("you are in no family yet")
        try await ann.send("!tree new The Rivers")
        try await ann.expect("You founded The Rivers.")
        _ = try await ann.expect("Invite code for The Rivers: ")
        try await ann.send("!tree invite as partner")
        let partnerCode = try Self.code(in: try await ann.expect("Invite code for The Rivers as your partner: "))
        // Codes are easy to read: no look-alike letters.
        #expect(!partnerCode.contains(where: { "01OIL".contains($0) }))
        try await ann.send("!tree invite as child")
        let childCode = try Self.code(in: try await ann.expect("as your child: "))
        try await ann.send("!tree invites")
        try await ann.expect("…-\(childCode.suffix(4)) as child by ann, expires in 7 days")

        try await bob.send("!tree join \(partnerCode.lowercased())")
        try await bob.expect("Welcome to The Rivers as ann's partner!")
        try await ann.expect("bob joined The Rivers as your partner.")
        try await cat.send("!tree join \(partnerCode)")
        try await cat.expect("that code is unknown, used or expired")
        try await cat.send("!tree join \(childCode)")
        try await cat.expect("Welcome to The Rivers as ann's child!")
        try await ann.send("!tree")
        try await ann.expect("The Rivers")
        try await ann.expect("ann ⚭ bob")
        try await ann.expect("└─ cat")
        try await ann.send("!tree members")
        try await ann.expect("The Rivers (3): ann (founder), bob, cat")

        // No cycles of parents, no self links; only the founder removes people.
        try await cat.send("!tree link ann child")
        try await cat.expect("that would make someone their own ancestor")
        try await cat.send("!tree link cat sibling")
        try await cat.expect("you can't be your own sibling")
        try await cat.send("!tree remove bob")
        try await cat.expect("only the founder of The Rivers can remove people")
        try await ann.send("!tree leave")
        try await ann.expect("you founded The Rivers, so you stay")

        // Cat leaves home: her own household, connected to her parents'.
        try await cat.send("!tree independent Cat's Place")
        try await cat.expect("You left home: Cat's Place is your own household, still connected to The Rivers.")
        try await cat.send("!tree")
        try await cat.expect("Cat's Place")
        try await cat.expect("cat left home from The Rivers:")
        try await cat.expect("   ann ⚭ bob")
        try await ann.send("!tree")
        try await ann.expect("cat's own household, Cat's Place:")
    }

    @Test func codesAreSingleUseRevocableAndGuessingIsSlowed() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dee = try await SocialTests.user(server, "dee")
        let eli = try await SocialTests.user(server, "eli")
        try await dee.send("!tree new Hills")
        let first = try Self.code(in: try await dee.expect("Invite code for Hills: "))
        try await dee.send("!tree revoke \(first)")
        try await dee.expect("Invite \(first) is cancelled.")
        try await eli.send("!tree join \(first)")
        try await eli.expect("that code is unknown, used or expired")
        for _ in 0..<3 {
            try await eli.send("!tree join AAAA-BBBB-CCCC")
            try await eli.expect("tree: ")
        }
        try await eli.send("!tree join AAAA-BBBB-CCCC")
        try await eli.expect("too many wrong codes; try again in")
        // The codes are stored only as hashes.
        let stored = try await server.server.store.pool.read { db in try String.fetchAll(db, sql: "SELECT codeHash FROM familyInvite") }
        #expect(!stored.contains { $0.contains(first.replacingOccurrences(of: "-", with: "")) })
    }
}

@Suite struct FamilyChannelTests {
    @Test func onlyMembersJoinReadOrSeeTheFamilyChannel() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let gus = try await SocialTests.user(server, "gus")
        try await gus.send("!tree new Oaks")
        try await gus.expect("Its private channel is #family-1.")
        let code = try FamilyTests.code(in: try await gus.expect("Invite code for Oaks: "))
        try await gus.expect("You joined #family-1.")
        let hal = try await SocialTests.user(server, "hal")
        try await hal.send("!tree join \(code)")
        try await hal.expect("Welcome to Oaks")
        try await hal.expect("You joined #family-1.")
        try await gus.send("dinner on sunday?")
        try await hal.expect("[#family-1] <gus> dinner on sunday?")

        // An outsider, even an IRC operator, can't join, list or read it.
        let ivy = try await TestClient.irc(server, nick: "ivy")
        try await ivy.send("JOIN #family-1")
        try await ivy.expect(" 473 ivy #family-1 :Cannot join channel — it is a family's private channel")
        try await ivy.send("NAMES #family-1")
        try await ivy.expectNoLine(containing: "gus", before: " 366 ")
        try await ivy.send("LIST")
        try await ivy.expectNoLine(containing: "#family-1", before: " 323 ")
        try await ivy.send("CHATHISTORY LATEST #family-1 * 10")
        try await ivy.expect("FAIL CHATHISTORY INVALID_TARGET")
        try await ivy.send("WHOIS gus")
        try await ivy.expectNoLine(containing: "#family-1", before: " 318 ")

        // An IRC client logging in with SASL/PASS is put in its families' channels.
        let laptop = try await TestClient.irc(server, nick: "hal_", extra: ["PASS hal:s3cret-pass"])
        try await laptop.expect("JOIN #family-1")
        try await laptop.expect("PRIVMSG #family-1 :dinner on sunday?")  // the join backlog

        // Removed from the family: out of the channel too, and no way back in.
        try await gus.send("!tree remove hal")
        try await gus.expect("hal is no longer in Oaks.")
        try await hal.expect("You left #family-1.")
        try await laptop.expect("PART #family-1")
        try await hal.send("/join #family-1")
        try await hal.expect("it is a family's private channel")
    }
}
