import Foundation
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore

/// The home page (`/`): what is hot and trending for everyone, and for a signed-in person their
/// cookie (ready to open, or the countdown to the next) and their families. The server adds how
/// to connect (`network`, `host`, `ircPort`). Each part reads through the rules its app's
/// commands use (`!hot`, `!recipes hot`, `!fortune`, `!tree`).
enum HomePage {
    /// How many hot memes and trending recipes the home page shows.
    static let memeCount = 6
    static let recipeCount = 4

    static let page = WebPage("/", name: "home-page", template: template) { request in
        let store = request.services.store
        let now = request.services.clock.now()
        let viewer = request.viewer?.id
        var values: [String: Any] = [:]
        let memes = try await HotLists.hotMemes(request.services, viewer: viewer, now: now).prefix(memeCount)
        values["memes"] = memes.map { row -> [String: Any] in
            [
                "id": row.meme.id, "caption": row.meme.caption, "image": MemePages.imagePath(row), "author": row.author,
                "authorKey": IRCNames.fold(row.author),
            ]
        }
        let trending = try await HotLists.trending(request.services, viewer: viewer, now: now).prefix(recipeCount)
        let recipes = try await RecipePages.items(Array(trending), request.services, now: now)
        values["recipes"] = recipes
        if let me = request.viewer {
            values["me"] = true
            values.merge(try await cookie(request.services, me, now: now)) { $1 }
            let families = try await store.families(of: me.id)
            values["families"] = families.map { ["id": $0.id, "name": $0.name] }
            values["hasFamilies"] = !families.isEmpty
        }
        return WebContent(
            title: "Hearth",
            summary: "Chat from nc, IRC or the web, with memes, fortunes, recipes and family.",
            image: memes.first.map(MemePages.imagePath), values: values)
    }

    /// Today's cookie: ready to open, or when the next one is (in the person's time zone).
    static func cookie(_ services: BotServices, _ me: AccountRef, now: Date) async throws -> [String: Any] {
        let store = services.store
        let zone = LocalDays(identifier: UserSettings(stored: try await store.settings(me.id))["tz"])
        let last = try await store.lastFortune(accountID: me.id)
        switch OncePerDay.decide(last: last?.localDay, now: now, in: zone) {
        case .give: return ["cookieReady": true]
        case .wait(let next):
            var cookie: [String: Any] = [
                "cookieCountdown": LocalDays.countdown(from: now, to: next.start), "cookieZone": zone.name,
                "cookieNext": TimeText.iso8601(next.start),
            ]
            if let last { cookie["cookieText"] = last.text }
            return cookie
        }
    }

    static let template = """
        <section class="hero">
          <h1>Welcome to {{network}}</h1>
          <p>Memes, a daily fortune cookie, recipes and your family — in chat and here.</p>
          {{^me}}<p class="actions"><a class="button" href="/signup">Sign up</a>
            <a href="/signin">Sign in</a></p>{{/me}}
        </section>
        {{#me}}
        <section class="card home-cookie">
          <h2>Your cookie</h2>
          {{#cookieReady}}
          <p>Today's fortune cookie is waiting.</p>
          <form method="post" action="/fortunes"><input type="hidden" name="csrf" value="{{csrf}}">
            <button>Open it</button></form>
          {{/cookieReady}}
          {{^cookieReady}}
          {{#cookieText}}<p class="fortune">“{{cookieText}}”</p>{{/cookieText}}
          <p class="countdown">Next cookie in <time class="left" datetime="{{cookieNext}}">{{cookieCountdown}}</time>
            ({{cookieZone}}).</p>
          <script src="{{script.countdown}}" defer></script>
          {{/cookieReady}}
        </section>
        <section class="card families">
          <h2>Your families</h2>
          {{#hasFamilies}}<ul>{{#families}}<li><a href="/family/{{id}}">{{name}}</a></li>{{/families}}</ul>
          {{/hasFamilies}}
          {{^hasFamilies}}<p>None yet. Found one in chat with <code>!tree new NAME</code>, or join with an invite code:
            <code>!tree join CODE</code>.</p>{{/hasFamilies}}
        </section>
        {{/me}}
        <section>
          <h2><a href="/hot">Hot memes</a></h2>
          {{^memes}}<p>Nothing is trending yet.</p>{{/memes}}
          <ul class="cards home-memes">
          {{#memes}}<li><a href="/m/{{id}}"><img src="{{image}}" alt="{{caption}}" loading="lazy">
            <span>{{caption}}</span></a> <small>by <a href="/u/{{authorKey}}">{{author}}</a></small></li>{{/memes}}
          </ul>
        </section>
        <section>
          <h2><a href="/recipes">Trending recipes</a></h2>
          {{^recipes}}<p>No recipes yet.</p>{{/recipes}}
          \(RecipeTemplates.table)
        </section>
        <section>
          <h2>Other ways in</h2>
          {{> ways}}
        </section>
        """
}
