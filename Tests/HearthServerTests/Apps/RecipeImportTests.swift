import Foundation
import HearthKit
import HearthTesting
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Testing

@testable import HearthApps

/// `!recipe import URL` against a local site the test starts: a page with JSON-LD (an @graph,
/// HowToSections), one with microdata, a redirect, an oversized page; and the guard that keeps
/// the server off loopback unless the operator allows it.
@Suite struct RecipeImportTests {
    static let jsonLD = """
        <html><head><title>Soup</title>
        <script type="application/ld+json">
        {"@context":"https://schema.org","@graph":[
          {"@type":"WebSite","name":"Kitchen"},
          {"@type":["Recipe"],"name":"Weeknight Tomato &amp; Basil Soup","image":[{"@type":"ImageObject",
            "url":"/photo.png"}],
           "recipeYield":["4","4 servings"],"prepTime":"PT15M","cookTime":"PT1H5M",
           "recipeIngredient":["4 ripe tomatoes","1 onion, chopped","a handful of basil"],
           "recipeInstructions":[
             {"@type":"HowToSection","name":"Base","itemListElement":[
               {"@type":"HowToStep","text":"Soften the onion in olive oil."},
               {"@type":"HowToStep","text":"Add the tomatoes; simmer 20 minutes."}]},
             {"@type":"HowToStep","text":"Blend with the basil."}]}]}
        </script></head><body>Soup</body></html>
        """

    static let microdata = """
        <html><body><div itemscope itemtype="https://schema.org/Recipe">
          <h1 itemprop="name">Grandma's Pancakes</h1>
          <img itemprop="image" src="/photo.png" alt="">
          <meta itemprop="totalTime" content="PT25M">
          <span itemprop="recipeYield">8 pancakes</span>
          <ul><li itemprop="recipeIngredient">200 g flour</li><li itemprop="recipeIngredient">2 eggs</li>
          <li itemprop="recipeIngredient">300 ml milk</li></ul>
          <ol itemprop="recipeInstructions"><li>Whisk everything.</li><li>Fry thin, turn once.</li></ol>
        </div></body></html>
        """

    /// A page of a recipe with more ingredients than a recipe may have.
    static let long = """
        <script type="application/ld+json">{"@type":"Recipe","name":"Everything stew","recipeIngredient":[\
        \((1...(RecipeCommands.maxIngredients + 1)).map { "\"item \($0)\"" }.joined(separator: ","))],\
        "recipeInstructions":"Put it all in.\\nWait."}</script>
        """

    static func html(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ to: String) -> Response {
        Response(status: .found, headers: [.location: to])
    }

    /// Starts the site on loopback; returns its base URL.
    static func site() async throws -> (base: String, group: ServiceGroup) {
        let router = Router()
        router.get("/jsonld") { _, _ in html(jsonLD) }
        router.get("/microdata") { _, _ in html(microdata) }
        router.get("/long") { _, _ in html(long) }
        router.get("/plain") { _, _ in html("<html><body>No recipe here.</body></html>") }
        router.get("/moved") { _, _ in redirect("/jsonld") }
        router.get("/loop") { _, _ in redirect("/loop") }
        router.get("/to-file") { _, _ in redirect("file:///etc/passwd") }
        router.get("/huge") { _, _ in html(String(repeating: "x", count: PageFetcher.maxBytes + 1)) }
        // Headers at once, then a byte every 100 ms for a minute: the fetch's deadline must cover the body.
        router.get("/trickle") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html"],
                body: ResponseBody { writer in
                    for _ in 0..<600 {
                        try await writer.write(ByteBuffer(string: "x"))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("/photo.png") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "image/png"],
                body: .init(byteBuffer: ByteBuffer(bytes: [UInt8](Web.samplePNG()))))
        }
        let (ports, port) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.yield(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "recipe-site"))
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "recipe-site")))
        Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let bound = try #require(await iterator.next())
        return ("http://127.0.0.1:\(bound)", group)
    }

    static func withSite(_ body: (String, TestServer) async throws -> Void) async throws {
        let (base, site) = try await site()
        defer { Task { await site.triggerGracefulShutdown() } }
        try await withServer {
            $0.apps.fetchLocalAddresses = true
        } run: { server in
            try await body(base, server)
        }
    }

    @Test func aJSONLDPageBecomesADraftToReviewThenPostCitingItsPage() async throws {
        try await Self.withSite { base, server in
            let ida = try await TestClient.user(server, "ida")
            try await ida.send("!recipe import \(base)/jsonld")
            try await ida.expect(
                "Imported “Weeknight Tomato & Basil Soup” from 127.0.0.1 as your draft (3 ingredients, 3 steps, a photo"
                    + " · makes 4 servings · prep 15 min · cook 1 h 5 min). Check it:")
            try await ida.expect("• 1 onion, chopped")
            try await ida.expect("1. Soften the onion in olive oil.")
            try await ida.expect("3. Blend with the basil.")
            try await ida.expect("!recipe post publishes it, !recipe cancel drops it")
            // A second import would overwrite the draft: refused, the draft kept.
            try await ida.send("!recipe import \(base)/microdata")
            try await ida.expect(
                "you have a draft “Weeknight Tomato & Basil Soup” already — !recipe post or !recipe cancel")
            // No recipe is posted yet, but the list names the waiting draft and how to finish it.
            try await ida.send("!recipes")
            try await ida.expect(
                "No recipes posted yet — your draft “Weeknight Tomato & Basil Soup” is waiting"
                    + " (3 ingredients, 3 steps): !recipe post publishes it, !recipe cancel drops it.")
            try await ida.send("!recipe post")
            try await ida.expect("Recipe #1 “Weeknight Tomato & Basil Soup” is posted")
            try await ida.send("!recipe 1")
            try await ida.expect("photo: http")
            try await ida.expect("source: \(base)/jsonld · makes 4 servings · prep 15 min · cook 1 h 5 min")
            try await ida.expect("Ingredients (serves 4):")  // the page's yield
            try await ida.expect("• 4 ripe tomatoes")
            try await ida.expect("2. Add the tomatoes; simmer 20 minutes.")
        }
    }

    @Test func aMicrodataPageAndARedirectAreReadAndLimitsAreKept() async throws {
        try await Self.withSite { base, server in
            let max = try await TestClient.user(server, "max")
            try await max.send("!recipe import \(base)/microdata")
            try await max.expect(
                "Imported “Grandma's Pancakes” from 127.0.0.1 as your draft (3 ingredients, 2 steps, a photo"
                    + " · makes 8 pancakes · total 25 min)")
            try await max.expect("• 200 g flour")
            try await max.expect("2. Fry thin, turn once.")
            try await max.send("!recipe cancel")
            try await max.expect("Draft dropped.")

            // Redirects are followed, each hop checked again; the page cited is where it ended.
            try await max.send("!recipe import \(base)/moved")
            try await max.expect("Imported “Weeknight Tomato & Basil Soup”")
            try await max.send("!recipe post")
            try await max.expect("is posted")
            try await max.send("!recipe 1")
            try await max.expect("source: \(base)/jsonld ·")

            try await max.send("!recipe import \(base)/to-file")
            try await max.expect("file:///etc/passwd is not an http(s) address")
            try await max.send("!recipe import \(base)/loop")
            try await max.expect("the page redirected more than \(PageFetcher.maxRedirects) times")
            try await max.send("!recipe import \(base)/huge")
            try await max.expect("the page is over \(PageFetcher.maxBytes / 1024 / 1024) MiB")
            try await max.send("!recipe import \(base)/plain")
            try await max.expect("127.0.0.1 describes no recipe on that page")
            try await max.send("!recipe post")
            try await max.expect("you have no draft")  // nothing failed left a draft behind

            try await max.send("!recipe import \(base)/long")
            try await max.expect("(\(RecipeCommands.maxIngredients) ingredients, 2 steps)")
            try await max.expect(
                "Kept the first \(RecipeCommands.maxIngredients) ingredients and \(RecipeCommands.maxSteps) steps"
                    + " of \(RecipeCommands.maxIngredients + 1) and 2.")
        }
    }

    /// A page whose headers come at once and whose body trickles is cut off at the fetch's
    /// deadline (the HTTP client's own deadline ends with the headers).
    @Test func aTricklingPageIsCutOffAtTheDeadline() async throws {
        let (base, site) = try await Self.site()
        defer { Task { await site.triggerGracefulShutdown() } }
        // 3 s of a body that takes a minute (a loaded machine answers the headers well within it).
        let fetcher = PageFetcher(allowLocal: true, timeout: .seconds(3))
        await #expect(throws: BotError("127.0.0.1 could not be fetched (it took over 3 s)")) {
            _ = try await fetcher.fetch(base + "/trickle", accept: "text/html")
        }
        // A page that comes at once is read whole.
        #expect(try await PageFetcher(allowLocal: true).fetch(base + "/jsonld", accept: "text/html").body.count > 100)
    }

    @Test func byDefaultLoopbackAndPrivateAddressesAreRefused() async throws {
        let (base, site) = try await Self.site()
        defer { Task { await site.triggerGracefulShutdown() } }
        try await withServer { server in
            let eve = try await TestClient.user(server, "eve")
            try await eve.send("!recipe import \(base)/jsonld")
            try await eve.expect(
                "127.0.0.1 is not a public address (or does not resolve); Hearth fetches public pages only")
            for address in ["http://10.0.0.1/", "http://[::1]/", "http://169.254.169.254/latest/meta-data/"] {
                try await eve.send("!recipe import \(address)")
                try await eve.expect("is not a public address")
            }
            try await eve.send("!recipe import http://localhost:\(base.split(separator: ":").last!)/jsonld")
            try await eve.expect("localhost is not a public address")
            try await eve.send("!recipe post")
            try await eve.expect("you have no draft")
        }
    }

    @Test func theWebFieldImportsIntoTheFormToReviewAndPublish() async throws {
        try await Self.withSite { base, server in
            _ = try await TestClient.user(server, "web")
            let browser = WebBrowser(server)
            try await browser.signIn("web")
            var page = try await browser.get("/recipes/new")
            #expect(page.body.contains(#"<form method="post" action="/recipes/import""#))
            #expect(
                try await browser.post("/recipes/import", form: ["url": "\(base)/jsonld"], csrf: false).status == 403)
            // A page without a recipe: the form again, with why.
            let failed = try await browser.post("/recipes/import", form: ["url": "\(base)/plain"])
            #expect(failed.status == 422 && failed.body.contains("describes no recipe on that page"))

            let imported = try await browser.post("/recipes/import", form: ["url": "\(base)/jsonld"])
            #expect(imported.status == 303 && imported.location?.hasPrefix("/recipes/new") == true)
            page = try await browser.get("/recipes/new")
            #expect(page.body.contains(#"value="Weeknight Tomato &amp; Basil Soup""#))
            #expect(page.body.contains("4 ripe tomatoes\n1 onion, chopped\na handful of basil"))
            #expect(page.body.contains("Imported from \(base)/jsonld"))
            #expect(page.body.contains(#"<input type="hidden" name="imported" value="1">"#))
            let photo = try #require(
                page.body.firstMatch(of: /<input type="hidden" name="photo" value="([0-9a-f]+)">/)?.1)

            let posted = try await browser.post(
                "/recipes/new",
                form: [
                    "title": "Tomato soup", "ingredients": "4 ripe tomatoes", "steps": "Simmer.", "tags": "",
                    "photo": String(photo), "imported": "1",
                ])
            #expect(posted.status == 303 && posted.location == "/r/1")
            page = try await browser.get("/r/1")
            #expect(page.body.contains("\(base)/jsonld"))
            #expect(page.body.contains(#"name="serves" min="1" max="100" value="4""#))  // the page's yield
            let again = try await browser.get("/recipes/new")
            #expect(!again.body.contains("Imported from"))  // the draft was used up
        }
    }

    /// A form that is not the imported draft (opened before the import, say) is a recipe of its
    /// own: it cites no page, and the imported draft stays to be reviewed.
    @Test func anUnrelatedFormIsNotCreditedToTheImportedPage() async throws {
        try await Self.withSite { base, server in
            _ = try await TestClient.user(server, "web")
            let browser = WebBrowser(server)
            try await browser.signIn("web")
            let imported = try await browser.post("/recipes/import", form: ["url": "\(base)/jsonld"])
            #expect(imported.status == 303)
            let posted = try await browser.post(
                "/recipes/new", form: ["title": "Toast", "ingredients": "1 slice bread", "steps": "Toast.", "tags": ""])
            #expect(posted.status == 303 && posted.location == "/r/1")
            let page = try await browser.get("/r/1")
            #expect(page.body.contains("Toast") && !page.body.contains("\(base)/jsonld"))
            let draft = try await browser.get("/recipes/new")
            #expect(draft.body.contains("Imported from \(base)/jsonld"))
        }
    }
}
