import HearthApps
import HearthKit
import Testing

@testable import HearthServer

/// The site's header links to the apps' index pages: each page says whether it wants a link
/// (`WebPage.nav`), so the server names no app.
@Suite struct WebNavigationTests {
    static func page(_ path: String, _ nav: WebNavLink?) -> WebPage {
        WebPage(path, name: path, template: "", nav: nav) { _ in WebContent(title: "", summary: "", values: [:]) }
    }

    @Test func theHeaderListsThePagesThatAskInTheirPositions() {
        let pages = [
            Self.page("/b", WebNavLink("B", position: 20)), Self.page("/x/:id", nil),
            Self.page("/a", WebNavLink("A", position: 10)), Self.page("/c", WebNavLink("C", position: 20)),
        ]
        let links = WebRoutes.navigation(pages)
        // Lower positions first; a tie keeps the apps' order.
        #expect(links.map(\.path) == ["/a", "/b", "/c"])
        #expect(links.map(\.label) == ["A", "B", "C"])
        #expect(WebRoutes.navigation([Self.page("/x", nil)]).isEmpty)
    }

    @Test func theBuiltInAppsLinkTheirIndexPages() {
        let links = WebRoutes.navigation(BuiltInApps.builtIn().flatMap(\.pages))
        #expect(links.map(\.label) == ["Memes", "Recipes", "Fortunes", "Leaderboard"])
        #expect(links.map(\.path) == ["/hot", "/recipes", "/fortunes", "/leaderboard"])
    }
}
