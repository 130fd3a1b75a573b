import Foundation
import HearthTesting
import Testing

/// People who are not users in a family's tree, how two people are related, and what a member's
/// leaving keeps of the tree, over TCP.
@Suite struct FamilyPeopleTests {
    /// The issue's tree (gran joins last as alice's parent), then an ancestor, a son, his wife and
    /// a grandchild who later claims his place.
    @Test func peopleWhoAreNotUsersAreInTheTreeAndKinshipIsTold() async throws {
        try await withServer { server in
            let bob = try await TestClient.user(server, "bob")
            let alice = try await TestClient.user(server, "alice")
            let cat = try await TestClient.user(server, "cat")
            let gran = try await TestClient.user(server, "gran")
            try await bob.send("!tree new Smiths")
            _ = try await bob.expect("Invite code for Smiths: ")
            try await bob.send("!tree invite as partner")
            let partner = try FamilyTests.code(in: try await bob.expect("Invite code for Smiths as your partner: "))
            try await bob.send("!tree invite as child")
            let child = try FamilyTests.code(in: try await bob.expect("Invite code for Smiths as your child: "))
            try await alice.send("!tree join \(partner)")
            try await alice.expect("Welcome to Smiths")
            try await cat.send("!tree join \(child)")
            try await cat.expect("Welcome to Smiths")
            try await alice.send("!tree link cat child")
            try await alice.expect("cat is now your child in Smiths.")
            try await alice.send("!tree invite as parent")
            let parent = try FamilyTests.code(in: try await alice.expect("Invite code for Smiths as your parent: "))
            try await gran.send("!tree join \(parent)")
            try await gran.expect("Welcome to Smiths as alice's parent!")
            // The text says what the picture shows: gran above the couple, cat below.
            try await bob.send("!tree")
            try await bob.expect("Smiths")
            try await bob.expect("gran")
            try await bob.expect("└─ bob ⚭ alice")
            try await bob.expect("   └─ cat")

            // Someone who is not a user, with dates and places; bad facts change nothing.
            try await bob.send("!person add \"Rose Smith\" born 1931 in Lyon died 2019")
            try await bob.expect("Rose Smith, born 1931 in Lyon, died 2019 is person #1 in Smiths.")
            try await bob.send("!person add Tom born 19x1")
            try await bob.expect("born takes a date: 1931, 1931-05 or 1931-05-02")
            try await bob.send("!person add Tom born 1931-02-30")
            try await bob.expect("born takes a date")
            try await bob.send("!person 99")
            try await bob.expect("Smiths has no person #99")
            try await bob.send("!tree link #1 parent of gran")
            try await bob.expect("Rose Smith is now gran's parent in Smiths.")
            try await bob.send("!tree link #1 child of cat")
            try await bob.expect("that would make someone their own ancestor")
            try await bob.send("!person 1")
            try await bob.expect("#1 Rose Smith, born 1931 in Lyon, died 2019 · parent of gran")
            try await bob.send("!tree")
            try await bob.expect("Rose Smith (1931–2019)")
            try await bob.expect("└─ gran")

            // A son (alice's only), his wife married in Paris, and how they are related.
            try await alice.send("!person add dan sex m born 1990")
            try await alice.expect("is person #2 in Smiths.")
            try await alice.send("!tree link dan child")
            try await alice.expect("dan is now your child in Smiths.")
            try await alice.send("!person add eve sex f")
            try await alice.expect("eve is person #3 in Smiths.")
            try await alice.send("!tree link eve partner of dan married 2015 in Paris")
            try await alice.expect("eve is now dan's partner (married 2015 in Paris) in Smiths.")
            // Gran's own facts are a person of the family too (#4), hers.
            try await gran.send("!person me sex f born 1950")
            try await gran.expect("You in Smiths: gran, born 1950")
            try await alice.send("!tree how alice eve")
            try await alice.expect("eve is alice's daughter-in-law, through dan.")
            try await alice.send("!tree how cat dan")
            try await alice.expect("dan is cat's half-brother — common ancestor: alice.")
            try await alice.send("!tree how cat gran")
            try await alice.expect("gran is cat's grandmother.")
            try await alice.send("!tree how dan #1")
            try await alice.expect("Rose Smith is dan's great-grandparent.")
            // Eve married bob's stepson: no kin of his in the tree.
            try await alice.send("!tree how bob eve")
            try await alice.expect("bob and eve are not related in Smiths' tree.")
            try await alice.send("!tree how dan bob")
            try await alice.expect("bob is dan's step-parent, through alice.")
            try await alice.send("!tree how bob nobody")
            // The error says how to name someone, with commands that exist.
            try await alice.expect(
                "nobody is not in Smiths — name someone by number (#3) or full name in quotes; "
                    + "!person lists the people, !tree members the users")

            // A grandchild too young for an account, who later claims his place: the family
            // consents through its founder.
            try await cat.send("!person add ken born 2020")
            try await cat.expect("ken, born 2020 is person #5 in Smiths.")
            try await cat.send("!tree link ken child")
            try await cat.expect("ken is now your child in Smiths.")
            let ken = try await TestClient.user(server, "ken")
            try await cat.send("!tree invite")
            let plain = try FamilyTests.code(in: try await cat.expect("Invite code for Smiths: "))
            try await ken.send("!tree join \(plain)")
            try await ken.expect("Welcome to Smiths")
            try await ken.send("!person claim 5")
            try await ken.expect("You asked to be ken (#5) in Smiths; the founder or an admin approves")
            try await bob.expect("ken asks to be ken (#5) in Smiths: !person approve 5")
            try await cat.send("!person approve 5")
            try await cat.expect("only the founder or an admin of Smiths approves claims")
            try await bob.send("!person approve 5")
            try await bob.expect("ken is now ken (#5) in Smiths' tree.")
            try await ken.expect("bob approved: you are ken in Smiths.")
            try await ken.send("!tree how cat ken")
            try await ken.expect("ken is cat's child.")
            try await ken.send("!person claim 1")
            try await ken.expect("You asked to be Rose Smith")
            try await bob.expect("ken asks to be Rose Smith (#1)")
            // A second claim does not take the first one's place, and a member's facts are theirs.
            try await cat.send("!person claim 1")
            try await cat.expect("someone else has asked to be #1 already")
            try await cat.send("!person 5 died 2024")
            try await cat.expect("#5 is a member: only they, the founder or an admin can change their facts")
            try await bob.send("!person approve 1")
            try await bob.expect("ken is another person of Smiths already")
        }
    }

    /// Deleting an account deletes what was the member's, not the family's record of them: their
    /// relatives' ties hold through them, as a person who is not a user.
    @Test func aDeletedMembersRelativesKeepTheirTies() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let bea = try await TestClient.user(server, "bea")
            try await ann.send("!tree new Oaks")
            _ = try await ann.expect("Invite code for Oaks: ")
            try await ann.send("!tree invite as child")
            let code = try FamilyTests.code(in: try await ann.expect("as your child: "))
            try await bea.send("!tree join \(code)")
            try await bea.expect("Welcome to Oaks")
            try await bea.send("!person add tim born 2021")
            try await bea.expect("is person #1 in Oaks.")
            try await bea.send("!tree link tim child")
            try await bea.expect("tim is now your child in Oaks.")
            try await bea.send("!post hello")
            try await bea.expect("Posted #1")
            try await bea.send("!account delete s3cret-pass")
            try await bea.expect("everything that was only yours are deleted")
            try await ann.send("!tree members")
            try await ann.expect("Oaks (1): ann (founder)")
            // Ann's grandson is still her grandson; bea's post went with her account.
            try await ann.send("!tree how ann tim")
            try await ann.expect("tim is ann's grandchild.")
            try await ann.send("!person")
            try await ann.expect("People in Oaks who are not users:")
            try await ann.expect("#1 tim, born 2021")
            try await ann.expect("#2 bea")
            try await ann.send("!famfeed")
            try await ann.expectNoLine(containing: "hello", before: "Oaks")
        }
    }
}

/// The family page: people who are not users (listed, added with a form that is `!person add`),
/// every member's role, and the households that left home.
@Suite struct FamilyPeoplePageTests {
    @Test func thePageListsPeopleRolesAndHouseholdsAndItsFormAddsAPerson() async throws {
        try await withServer { server in
            let (ann, bob, web) = try await FamilyFormTests.rivers(server)
            try await bob.send("!tree independent Bob's Barn")
            try await bob.expect("You left home: Bob's Barn is your own household")
            var page = try await web.get("/family/1")
            #expect(page.body.contains(#"<form method="post" action="/family/1/person""#))
            // Every role is shown: the founder's and a member's.
            #expect(page.body.contains("<td>founder</td>") && page.body.contains("<td>member</td>"))
            // Bob's household: named (ann is not in it, so no link to a page she cannot open).
            #expect(page.body.contains("<b>Bob&#39;s Barn</b>") || page.body.contains("<b>Bob's Barn</b>"))
            #expect(!page.body.contains(#"href="/family/2""#))

            let added = try await web.post(
                "/family/1/person",
                form: ["name": "Rose Smith", "sex": "f", "born": "1931", "bornPlace": "Lyon", "died": "2019"])
            #expect(added.status == 303 && added.location == "/family/1#people")
            page = try await web.get("/family/1")
            #expect(page.body.contains("#1 Rose Smith, born 1931 in Lyon, died 2019"))
            try await ann.send("!person 1")
            try await ann.expect("#1 Rose Smith, born 1931 in Lyon, died 2019")
            // Bad input is chat's refusal, and adds nobody.
            _ = try await web.post("/family/1/person", form: ["name": "Tom", "born": "someday"])
            #expect(try await FamilyFormTests.flash(web, "/family/1").contains("born takes a date"))
            #expect(!(try await web.get("/family/1").body.contains("#2 Tom")))

            // Bob, in both, sees his household linked from his parents' family page.
            let bobWeb = WebBrowser(server)
            try await bobWeb.signIn("bob")
            #expect(try await bobWeb.get("/family/1").body.contains(#"<a href="/family/2">Bob"#))
        }
    }
}
