import Foundation
import HearthStore
import HearthTesting
import Testing

@testable import HearthApps
@testable import HearthServer

/// A family's web page: the tree (the picture `!tree image` draws), members, feed and places,
/// for its signed-in members only — by the same membership rule as every family command.
@Suite struct FamilyPageTests {
    static let hostileName = "<script>x</script> & co"

    /// ann founds a family with a hostile name; bob joins as her partner; a hostile post, an
    /// event and a hostile place follow. The clock stands still, so "ago" texts stay the same.
    static func family(_ server: TestServer) async throws -> (ann: TestClient, bob: TestClient) {
        let ann = try await TestClient.user(server, "ann")
        try await ann.send("!tree new \(hostileName)")
        try await ann.expect("You founded \(hostileName).")
        try await ann.send("!tree invite as partner")
        let code = try FamilyTests.code(in: try await ann.expect("as your partner: "))
        let bob = try await TestClient.user(server, "bob")
        try await bob.send("!tree join \(code)")
        try await bob.expect("Welcome to \(hostileName) as ann's partner!")
        try await ann.send("!post <img src=x onerror=alert(2)> dinner")
        try await ann.expect("Posted #1")
        try await bob.send("!event 2026-12-24 <b>party</b>")
        try await bob.expect("Posted #2")
        try await ann.send("!loc on")
        try await ann.expect("Location sharing is on")
        try await ann.send("!loc 48.85,2.35 <u>home</u>")
        try await ann.expect("Shared: <u>home</u>.")
        return (ann, bob)
    }

    @Test func membersSeeTheTreeMembersFeedAndPlacesEscaped() async throws {
        let clock = TestClock("2026-05-01T10:00:00Z")
        try await withServer {
            $0.clock = clock.hearth
        } run: { server in
            let (ann, bob) = try await Self.family(server)
            let url = "http://127.0.0.1:\(server.httpPort)/family/1"
            // Chat links the page wherever it shows the family.
            try await ann.send("!tree")
            try await ann.expect("\(Self.hostileName) · page: \(url)")
            try await ann.expect("ann ⚭ bob")
            try await ann.send("!tree image")
            let imageLine = try await ann.expect("as a picture (2 people): http")
            #expect(imageLine.hasSuffix("· page: \(url)"))
            let tree = try Web.link(in: imageLine).path
            try await bob.send("!famfeed")
            try await bob.expect("\(Self.hostileName)'s feed: \(url)")
            try await bob.send("!map family")
            let mapLine = try await bob.expect("on the map (1 of 2): http")
            #expect(mapLine.hasSuffix("· page: \(url)"))
            let map = try Web.link(in: mapLine).path

            let browser = WebBrowser(server)
            #expect(try await browser.signIn("bob").status == 303)
            let page = try await browser.get("/family/1")
            #expect(page.status == 200)
            #expect(page.body.contains("&lt;script&gt;x&lt;/script&gt; &amp; co"))
            #expect(page.body.contains("&lt;img src=x onerror=alert(2)&gt; dinner"))
            #expect(page.body.contains("📅 <b>2026-12-24</b> <span class=\"text\">&lt;b&gt;party&lt;/b&gt;</span>"))
            #expect(page.body.contains("&lt;u&gt;home&lt;/u&gt; · just now"))
            #expect(!page.body.contains("<script>") && !page.body.contains("<img src=x") && !page.body.contains("<u>"))
            // The tree: as text, and the very picture the command drew (kept, not drawn again).
            #expect(page.body.contains("ann ⚭ bob"))
            #expect(page.body.contains(#"<a href="\#(tree)"><img src="\#(tree)""#))
            #expect(page.body.contains(#"alt="The family tree of "#))
            let (png, _) = try await Web.fetch(try #require(URL(string: "http://127.0.0.1:\(server.httpPort)\(tree)")))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            // Members with their roles; places, with who is not sharing; the same map as `!map family`.
            #expect(page.body.contains(#"<td><a href="/u/ann">ann</a></td><td>founder</td>"#))
            #expect(page.body.contains(#"<td><a href="/u/bob">bob</a></td><td>member</td>"#))
            #expect(page.body.contains("<td>bob</td>\n    <td><span class=\"empty\">not sharing</span></td>"))
            #expect(page.body.contains(#"<img src="\#(map)""#))
            #expect(page.body.contains("Feed (2)") && page.body.contains("#2") && page.body.contains("♥ 0"))
            // A private page: no preview picture for link unfurlers.
            #expect(!page.body.contains("og:image"))
            // The founder sees it too.
            let anns = WebBrowser(server)
            try await anns.signIn("ann")
            #expect(try await anns.get("/family/1").status == 200)
        }
    }

    /// A visitor is asked to sign in; a stranger, an ex-member and a user the founder blocks —
    /// refused by every family command — are refused the page and see nothing of it.
    @Test func outsidersAreRefusedAsInChat() async throws {
        let clock = TestClock("2026-05-01T10:00:00Z")
        try await withServer {
            $0.clock = clock.hearth
        } run: { server in
            let (ann, bob) = try await Self.family(server)
            let ex = try await TestClient.user(server, "exie")
            try await ann.send("!tree invite")
            let code = try FamilyTests.code(in: try await ann.expect("Invite code for"))
            try await ex.send("!tree join \(code)")
            try await ex.expect("Welcome to")
            try await ex.send("!tree leave")
            try await ex.expect("You left")
            let blox = try await TestClient.user(server, "blox")
            try await ann.send("!block blox")
            try await ann.expect("You blocked blox")
            let stranger = try await TestClient.user(server, "stran")

            for path in ["/family/1", "/family/99"] {
                let visitor = try await WebBrowser(server).get(path)
                #expect(visitor.status == 401, "\(path)")
                #expect(visitor.body.contains(#"<a href="/signin?next=%2Ffamily%2F"#))
                #expect(!visitor.body.contains("dinner") && !visitor.body.contains("&lt;script"))
            }
            for (name, client) in [("stran", stranger), ("exie", ex), ("blox", blox)] {
                try await client.send("!tree")
                try await client.expect("you are in no family yet")
                try await client.send("!famfeed")
                try await client.expect("you are in no family yet")
                let browser = WebBrowser(server)
                #expect(try await browser.signIn(name).status == 303)
                let page = try await browser.get("/family/1")
                #expect(page.status == 403, "\(name)")
                #expect(page.body.contains("Only the members of a family see its page."))
                for leak in ["&lt;script", "dinner", "party", "&lt;u&gt;home", "ann ⚭", "/i/"] {
                    #expect(!page.body.contains(leak), "\(name) saw \(leak)")
                }
                #expect(try await browser.get("/family/99").status == 404)
                for path in ["/family/0", "/family/abc", "/family/-1"] {
                    #expect(try await browser.get(path).status == 404, "\(path)")
                }
            }
            // Removed from the family: refused from then on.
            try await ann.send("!tree remove bob")
            try await ann.expect("bob is no longer in")
            let bobs = WebBrowser(server)
            try await bobs.signIn("bob")
            #expect(try await bobs.get("/family/1").status == 403)
            _ = bob
        }
    }

    @Test func theFeedIsPagedAsInChat() async throws {
        try await withServer { server in
            let kim = try await TestClient.user(server, "kim")
            try await kim.send("!tree new Cedars")
            try await kim.expect("You founded Cedars.")
            let count = StoreLimits.familyPostPageSize + 1
            for n in 1...count {
                try await kim.send("!post news number \(n).")
                try await kim.expect("Posted #\(n) ")
            }
            let browser = WebBrowser(server)
            try await browser.signIn("kim")
            let first = try await browser.get("/family/1")
            #expect(first.body.contains("Feed (\(count))"))
            #expect(first.body.contains("news number \(count).") && !first.body.contains("news number 1."))
            #expect(first.body.contains("page 1 of 2") && first.body.contains(#"<a href="?page=2">next →</a>"#))
            let second = try await browser.get("/family/1?page=2")
            #expect(second.body.contains("news number 1.") && !second.body.contains("news number 2."))
            #expect(second.body.contains(#"<a href="?page=1">← previous</a>"#))
        }
    }
}
