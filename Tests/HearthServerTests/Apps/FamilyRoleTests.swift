import Foundation
import HearthTesting
import Testing

/// Who runs a family: the founder and admins make others admins or members again (in chat and
/// with the Members table's buttons), the founder stays; the page counts members and people
/// apart; `!family new` points to the command that founds one.
@Suite struct FamilyRoleTests {
    @Test func theFounderMakesAMemberAnAdminAndBackAgain() async throws {
        try await withServer { server in
            let (ann, bob, web) = try await FamilyFormTests.rivers(server)
            let cat = try await TestClient.user(server, "cat")
            try await ann.send("!tree invite")
            let code = try FamilyTests.code(in: try await ann.expect("Invite code for Rivers: "))
            try await cat.send("!tree join \(code)")
            try await cat.expect("Welcome to Rivers")

            // Only the founder or an admin; the founder stays; bad roles change nothing.
            try await bob.send("!tree role cat admin")
            try await bob.expect("only the founder or an admin of Rivers can change who is an admin")
            try await ann.send("!tree role bob founder")
            try await ann.expect("role USER admin, or role USER member")
            try await ann.send("!tree role dan admin")
            try await ann.expect("dan is not in Rivers")

            try await ann.send("!tree role bob admin")
            try await ann.expect("bob is now an admin of Rivers.")
            try await bob.expect("ann made you an admin of Rivers.")
            try await ann.send("!tree members")
            try await ann.expect("bob")
            var page = try await web.get("/family/1")
            #expect(page.body.contains(#"<a href="/u/bob">bob</a></td><td>admin</td>"#))

            // An admin may make others admins, but not demote the founder.
            try await bob.send("!tree role ann member")
            try await bob.expect("ann founded Rivers and stays its founder")
            try await bob.send("!tree role cat admin")
            try await bob.expect("cat is now an admin of Rivers.")

            // The page's button is the same command.
            #expect(page.body.contains(#"<input type="hidden" name="name" value="bob">"#))
            #expect(!page.body.contains(#"<input type="hidden" name="name" value="ann">"#))
            let posted = try await web.post("/family/1/role", form: ["name": "cat", "role": "member"])
            #expect(posted.status == 303 && posted.location == "/family/1")
            try await cat.expect("ann made you a member of Rivers.")
            page = try await web.get("/family/1")
            #expect(page.body.contains(#"<a href="/u/cat">cat</a></td><td>member</td>"#))
            #expect(page.body.contains(#"<a href="/u/bob">bob</a></td><td>admin</td>"#))

            // A member sees roles but no buttons.
            let bobWeb = WebBrowser(server)
            try await bobWeb.signIn("bob")
            try await ann.send("!tree role bob member")
            try await ann.expect("bob is a member of Rivers again, no longer an admin of Rivers.")
            #expect(!(try await bobWeb.get("/family/1").body.contains("/family/1/role")))
        }
    }

    @Test func thePageCountsMembersAndPeopleApart() async throws {
        try await withServer { server in
            let (ann, _, web) = try await FamilyFormTests.rivers(server)
            #expect(try await web.get("/family/1").body.contains(#"<p class="meta">2 members · founded by ann"#))
            try await ann.send("!person add \"Rose Rivers\" born 1931")
            try await ann.expect("is person #1 in Rivers")
            try await ann.send("!person add \"Tom Rivers\" born 1929")
            try await ann.expect("is person #2 in Rivers")
            let page = try await web.get("/family/1").body
            #expect(page.contains(#"<p class="meta">2 members · 4 people · founded by ann"#))
        }
    }

    @Test func familyNewPointsToTheCommandThatFoundsOne() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            try await ann.send("!family new Smiths")
            try await ann.expect("a family is founded with !tree new Smiths (!family is for export, import and today)")
            try await ann.send("!family invite")
            try await ann.expect("invite is not a !family command — did you mean !tree invite?")
            try await ann.send("!tree families")
            try await ann.expect("you are in no family yet")
        }
    }
}
