import Foundation
import HearthTesting
import Testing

/// Families over TCP: codes, joining with a relationship, the tree, independence.
@Suite struct FamilyTests {
    static func code(in line: String) throws -> String {
        let word = try #require(
            line.split(separator: " ").first { $0.count == 14 && $0.filter { $0 == "-" }.count == 2 })
        return String(word)
    }

    @Test func foundInviteJoinAndShowTheTree() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let bob = try await TestClient.user(server, "bob")
            let cat = try await TestClient.user(server, "cat")
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
            // Invites are told apart by number: no part of a code is kept or shown again.
            let listed = try await ann.expect("as child by ann, expires in 7 days — !tree revoke ")
            #expect(listed.hasSuffix("#3 as child by ann, expires in 7 days — !tree revoke 3"), "\(listed)")
            #expect(!listed.contains(childCode.suffix(4)))

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
            try await ann.send("!tree image")
            let picture = try await ann.expect("The Rivers as a picture (3 people): http")
            let (png, response) = try await Web.fetch(try Web.link(in: picture))
            #expect(response.statusCode == 200 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))

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
    }

    @Test func codesAreSingleUseRevocableAndGuessingIsSlowed() async throws {
        try await withServer(configure: { $0.clock = TestClock().hearth }) { server in
            let dee = try await TestClient.user(server, "dee")
            let eli = try await TestClient.user(server, "eli")
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
            let stored = try await server.sql.strings("SELECT codeHash FROM familyInvite")
            #expect(!stored.contains { $0.contains(first.replacingOccurrences(of: "-", with: "")) })
        }
    }
}

@Suite struct FamilyChannelTests {
    @Test func onlyMembersJoinReadOrSeeTheFamilyChannel() async throws {
        try await withServer { server in
            let gus = try await TestClient.user(server, "gus")
            try await gus.send("!tree new Oaks")
            try await gus.expect("Its private channel is #family-1.")
            let code = try FamilyTests.code(in: try await gus.expect("Invite code for Oaks: "))
            try await gus.expect("You joined #family-1.")
            let hal = try await TestClient.user(server, "hal")
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
            // The topic the app set names the bot's full mask as its setter (a bare server name
            // reads as `Topic set by hearth.local []` in irssi).
            let whoTime = try await laptop.expect(" 333 ")
            #expect(whoTime.contains(" 333 hal_ #family-1 hearth!hearth@test.hearth "), "\(whoTime)")
            #expect(whoTime.split(separator: " ").count == 6, "\(whoTime)")
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
}

@Suite struct FamilyFounderDeletionTests {
    /// Issue 33: a founder deleting their account took the family and everyone's posts with it.
    @Test func theFamilyOutlivesItsFounderAndTheNewFounderIsTold() async throws {
        try await withServer { server in
            let cat = try await TestClient.user(server, "cat")
            try await cat.send("!tree new Rivers")
            let code = try FamilyTests.code(in: try await cat.expect("Invite code for Rivers: "))
            let eve = try await TestClient.user(server, "eve")
            try await eve.send("!tree join \(code)")
            try await eve.expect("You joined #family-1.")
            let laptop = try await TestClient.irc(server, nick: "cat_", extra: ["PASS cat:s3cret-pass"])
            try await laptop.expect("JOIN #family-1")
            try await eve.send("!post the garden is in bloom")
            try await eve.expect("Posted #1 to Rivers' feed.")
            try await cat.send("!post my last words")
            try await cat.expect("Posted #2")

            try await cat.send("!account delete s3cret-pass")
            // Cat's connections, guests now, are out of the family channel and stay out.
            try await cat.expect("cat out of #family-1") { $0.contains("#family-1") && $0.contains("left") }
            try await cat.expect("everything that was only yours are deleted")
            try await laptop.expect("PART #family-1")
            try await eve.expect("cat deleted their account: you are now the founder of Rivers.")
            try await eve.expect("[#family-1] <hearth> cat deleted their account; eve is now the founder of Rivers.")
            try await laptop.send("JOIN #family-1")
            try await laptop.expect("it is a family's private channel")

            try await eve.send("!tree members")
            try await eve.expect("Rivers (1): eve (founder)")
            try await eve.send("!famfeed")
            // Newest first: cat's post would come before eve's.
            try await eve.expectNoLine(containing: "last words", before: "#1 eve: the garden is in bloom")
            try await eve.send("!tree invite")
            try await eve.expect("Invite code for Rivers: ")
        }
    }
}

@Suite struct FamilyFeedAndPlacesTests {
    @Test func feedEventsLikesCommentsStayInTheFamily() async throws {
        try await withServer { server in
            let jo = try await TestClient.user(server, "jo")
            try await jo.send("!tree new Pines")
            let code = try FamilyTests.code(in: try await jo.expect("Invite code for Pines: "))
            let kai = try await TestClient.user(server, "kai")
            try await kai.send("!tree join \(code)")
            try await kai.expect("Welcome to Pines")
            let out = try await TestClient.user(server, "out")

            try await jo.send("!post the garden is in bloom")
            try await jo.expect("Posted #1 to Pines' feed.")
            try await kai.expect("jo posted to Pines: “the garden is in bloom” — !famfeed")
            try await kai.send("!event 2026-12-24 dinner at grandma's")
            try await kai.expect("Posted #2")
            try await kai.send("!event 24/12 dinner")
            try await kai.expect("24/12 is not a date like 2026-12-24")
            try await kai.send("!like post 1")
            try await kai.expect("You like post #1. It has 1 like.")
            try await kai.send("!comment post 1 lovely!")
            try await kai.expect("Comment #1 added to post #1.")
            try await jo.send("!famfeed")
            try await jo.expect("#2 kai: 📅 2026-12-24 dinner at grandma's")
            try await jo.expect("#1 jo: the garden is in bloom · ♥1 · 1 comment ·")

            // An outsider sees none of it, through any command.
            for command in ["!famfeed", "!like post 1", "!comments post 1", "!comment post 1 hi"] {
                try await out.send(command)
                let reply = try await out.expect("out") {
                    $0.contains("in no family") || $0.contains("there is no post #1 in your families")
                }
                #expect(!reply.contains("garden"))
            }
            try await kai.send("!share post 1 out")
            try await kai.expect("family posts stay in the family")
        }
    }

    @Test func whereAndTheFamilyMapShowOnlySharers() async throws {
        try await withServer { server in
            let lu = try await TestClient.user(server, "lu")
            try await lu.send("!tree new Firs")
            let code = try FamilyTests.code(in: try await lu.expect("Invite code for Firs: "))
            let mo = try await TestClient.user(server, "mo")
            try await mo.send("!tree join \(code)")
            try await mo.expect("Welcome to Firs")
            try await lu.send("!loc 48.85,2.35 Paris")
            try await lu.expect("location sharing is off — !loc on first")
            try await lu.send("!loc on")
            try await lu.expect("Location sharing is on")
            try await lu.send("!loc 95,2")
            try await lu.expect("is off the globe")
            try await lu.send("!loc 48.85,2.35 home in Paris")
            try await lu.expect("Shared: home in Paris.")
            try await mo.send("!where")
            try await mo.expect("Firs:")
            try await mo.expect("lu — home in Paris · just now")
            try await mo.expect("mo — not sharing")
            try await mo.send("!map family")
            let line = try await mo.expect("Firs on the map (1 of 2): http")
            let (png, response) = try await Web.fetch(try Web.link(in: line))
            #expect(response.statusCode == 200 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            // Sharing off hides it again.
            try await lu.send("!loc off")
            try await lu.expect("Location sharing is off")
            try await mo.send("!where")
            try await mo.expect("lu — not sharing")
            let stranger = try await TestClient.user(server, "nia")
            try await stranger.send("!where")
            try await stranger.expect("you are in no family yet")
        }
    }
}

@Suite struct FamilyAuthorizationTests {
    /// Every family command and link, tried by a stranger, an ex-member and a user the
    /// founder blocks: each is refused and sees nothing of the family.
    @Test func outsidersAreRefusedEverywhere() async throws {
        let clock = TestClock("2026-05-01T10:00:00Z")
        try await withServer {
            $0.clock = clock.hearth
        } run: { server in
            let founder = try await TestClient.user(server, "rosa")
            try await founder.send("!tree new Elms")
            let first = try FamilyTests.code(in: try await founder.expect("Invite code for Elms: "))
            let ex = try await TestClient.user(server, "exie")
            try await ex.send("!tree join \(first)")
            try await ex.expect("Welcome to Elms")
            try await ex.send("!tree leave")
            try await ex.expect("You left Elms.")
            let blocked = try await TestClient.user(server, "blox")
            try await founder.send("!block blox")
            try await founder.expect("You blocked blox")
            let stranger = try await TestClient.user(server, "stran")
            try await founder.send("!post secret family news")
            try await founder.expect("Posted #1")
            try await founder.send("!loc on")
            try await founder.send("!loc 10,10 the secret cabin")
            try await founder.expect("Shared: the secret cabin.")

            let commands = [
                "!tree", "!tree members", "!tree image", "!tree invite", "!tree invites", "!tree link rosa child",
                "!tree remove rosa",
                "!tree leave", "!tree revoke AAAA-BBBB-CCCC", "!tree independent Mine", "!famfeed", "!post hello",
                "!event 2026-06-01 party",
                "!where", "!map family", "!like post 1", "!comment post 1 hi", "!comments post 1",
            ]
            for outsider in [stranger, ex, blocked] {
                for command in commands {
                    try await outsider.send(command)
                    let reply = try await outsider.expect(command) {
                        $0.contains("you are in no family yet") || $0.contains("there is no post #1 in your families")
                    }
                    #expect(!reply.contains("secret"), "\(command): \(reply)")
                }
                try await outsider.send("/join #family-1")
                try await outsider.expect("it is a family's private channel")
                try await outsider.send("!history #family-1")
                try await outsider.expectNoLine(containing: "secret", before: "history")
            }
            // Nothing changed: still one member, one post, no new invites.
            try await founder.send("!tree members")
            try await founder.expect("Elms (1): rosa (founder)")
            try await founder.send("!famfeed")
            try await founder.expect("#1 rosa: secret family news")
            try await founder.send("!tree invites")
            try await founder.expect("Elms has no open invites")

            // Codes expire after 7 days.
            try await founder.send("!tree invite as child")
            let late = try FamilyTests.code(in: try await founder.expect("as your child: "))
            clock.set("2026-05-08T10:00:01Z")
            try await stranger.send("!tree join \(late)")
            try await stranger.expect("that code is unknown, used or expired")
        }
    }

    @Test func threeGenerationsAsText() async throws {
        try await withServer { server in
            let gran = try await TestClient.user(server, "gran")
            try await gran.send("!tree new Maples")
            _ = try await gran.expect("Invite code for Maples: ")
            func invite(_ relation: String, by inviter: TestClient) async throws -> String {
                try await inviter.send("!tree invite as \(relation)")
                return try FamilyTests.code(in: try await inviter.expect("as your \(relation): "))
            }
            let gramps = try await TestClient.user(server, "gramps")
            try await gramps.send("!tree join \(try await invite("partner", by: gran))")
            try await gramps.expect("Welcome")
            let mum = try await TestClient.user(server, "mum")
            try await mum.send("!tree join \(try await invite("child", by: gran))")
            try await mum.expect("Welcome")
            try await mum.send("!tree link gramps parent")
            try await mum.expect("gramps is now your parent")
            let uncle = try await TestClient.user(server, "uncle")
            try await uncle.send("!tree join \(try await invite("child", by: gramps))")
            try await uncle.expect("Welcome")
            let kid = try await TestClient.user(server, "kid")
            try await kid.send("!tree join \(try await invite("child", by: mum))")
            try await kid.expect("Welcome")
            try await gran.send("!tree")
            try await gran.expect("Maples")
            try await gran.expect("gran ⚭ gramps")
            try await gran.expect("├─ mum")
            try await gran.expect("│  └─ kid")
            try await gran.expect("└─ uncle")
        }
    }
}
