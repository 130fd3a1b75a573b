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
