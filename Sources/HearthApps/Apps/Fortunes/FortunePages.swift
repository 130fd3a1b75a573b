import Foundation
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore

/// The fortunes app on the web: someone's cookie of the day and their cookies so far (if they
/// share them with the viewer, as `!fortunes NAME` asks), your fortune map, the points
/// leaderboard, and opening today's cookie (the `!fortune` command).
enum FortunePages {
    /// `/fortunes/NAME`: today's cookie (in NAME's time zone) with its lucky numbers, and the
    /// cookies before it, paged — refused exactly when `!fortunes NAME` is.
    static let person = WebPage("/fortunes/:name", name: "fortune", template: FortuneTemplates.person) { request in
        let store = request.services.store
        let subject = try await request.person()
        guard try await FortuneCommands.mayViewFortunes(store, viewer: request.viewer?.id, of: subject.id) else {
            let why = FortuneCommands.friendsOnly(subject.name) + "."
            if request.viewer == nil { throw WebRefusal.signInRequired(why) }
            throw WebRefusal.forbidden(why)
        }
        let days = LocalDays(identifier: UserSettings(stored: try await store.settings(subject.id))["tz"])
        let today = days.day(request.services.clock.now())
        let own = subject.id == request.viewer?.id
        var values: [String: Any] = [
            "name": subject.name, "whose": Words.possessive(subject.name), "nameKey": subject.nameKey,
            "day": FortuneCommands.formatDay(today),
            "points": try await store.points(of: subject.id), "own": own,
        ]
        // The cookie of the day they are living, wherever they opened it.
        let last = try await store.lastFortune(accountID: subject.id)
        var opened: Stored<FortuneRecord>?
        if case .wait = OncePerDay.decide(last: last?.localDay, now: request.services.clock.now(), in: days) {
            opened = last
        }
        let viewer = request.viewer?.id
        if let opened { values["today"] = cookie(opened, viewer: viewer) }
        values["canOpen"] = own && opened == nil
        values["categories"] = request.services.fortunes.map(FortuneCategories.names) ?? []
        if opened != nil, let next = countdown(last, days, request) { values["next"] = next }
        let all = try await store.allFortunes(of: subject.id)
        if let image = await mapImage(request, of: AccountRef(id: subject.id, name: subject.name), all) {
            values["image"] = image
        }
        let (rows, total) = try await store.fortunes(of: subject.id, page: request.page)
        values["cookies"] = rows.map { cookie($0, viewer: viewer) }
        (values["total"], values["hasCookies"]) = (total, !rows.isEmpty)
        values["paging"] = WebPaging.links(page: request.page, total: total, size: StoreLimits.fortunePageSize)
        return WebContent(
            title: "\(Words.possessive(subject.name)) fortune cookie",
            summary: opened.map { "“\(FortuneCommands.text($0, viewer: viewer))” — lucky numbers \($0.numbers)" }
                ?? "\(subject.name) has not opened today's cookie yet.",
            values: values)
    }

    /// Time left until the next cookie after `last`, in its owner's zone (a script ticks it
    /// down), or nil when one may be opened now.
    static func countdown(_ last: Stored<FortuneRecord>?, _ days: LocalDays, _ request: WebRequest) -> [String: Any]? {
        let now = request.services.clock.now()
        guard case .wait(let next) = OncePerDay.decide(last: last?.localDay, now: now, in: days) else { return nil }
        return [
            "left": LocalDays.countdown(from: now, to: next.start), "at": TimeText.iso8601(next.start),
            "zone": days.name,
        ]
    }

    static func cookie(_ f: Stored<FortuneRecord>, viewer: Int64?) -> [String: Any] {
        var values: [String: Any] = [
            "id": f.id, "day": f.day, "date": FortuneCommands.formatDay(f.day),
            "text": FortuneCommands.text(f, viewer: viewer),
            "numbers": f.numbers.split(separator: " ").map(String.init), "points": f.points,
        ]
        if let place = placeName(f) { values["place"] = place }
        return values
    }

    /// Where a cookie was opened, as `!fortunes` writes it (nil: nowhere said).
    static func placeName(_ f: Stored<FortuneRecord>) -> String? {
        f.place ?? f.lat.map { String(format: "%.2f,%.2f", $0, f.lon ?? 0) }
    }

    /// `/fortunes`: the signed-in user's fortune map — the picture `!fortune map` draws (when
    /// this server draws pictures) and the places as a table.
    static let map = WebPage(
        "/fortunes", name: "fortune-map", template: FortuneTemplates.map, nav: WebNavLink("Fortunes", position: 30)
    ) { request in
        let viewer = try request.signedIn("Sign in to open your fortune cookie and see where you opened them.")
        let store = request.services.store
        let all = try await store.allFortunes(of: viewer.id)
        let days = LocalDays(identifier: UserSettings(stored: try await store.settings(viewer.id))["tz"])
        let decision = OncePerDay.decide(last: all.last?.localDay, now: request.services.clock.now(), in: days)
        var canOpen = false
        if case .give = decision { canOpen = true }
        var values: [String: Any] = [
            "name": viewer.name, "whose": Words.possessive(viewer.name), "nameKey": IRCNames.fold(viewer.name),
            "cookies": Words.counted(all.count, "cookie"), "canOpen": canOpen,
        ]
        if let next = countdown(all.last, days, request) { values["next"] = next }
        values["categories"] = request.services.fortunes.map(FortuneCategories.names) ?? []
        // One row per place: how many cookies were opened there, first and last day.
        var places: [(name: String, count: Int, first: String, last: String)] = []
        for f in all {
            guard let place = f.lat != nil ? placeName(f) : nil else { continue }
            if let i = places.firstIndex(where: { $0.name == place }) {
                places[i].count += 1
                places[i].last = f.day
            } else {
                places.append((place, 1, f.day, f.day))
            }
        }
        values["places"] = places.map { ["place": $0.name, "count": $0.count, "first": $0.first, "last": $0.last] }
        values["located"] = places.reduce(0) { $0 + $1.count }
        values["hasPlaces"] = !places.isEmpty
        values.merge(try await SayingPages.values(store, viewer)) { $1 }
        let image = await mapImage(request, of: viewer, all)
        if let image { values["image"] = image }
        return WebContent(
            title: "\(Words.possessive(viewer.name)) fortune map",
            summary: "Where \(viewer.name) opened fortune cookies: \(places.count) places.", image: image,
            values: values)
    }

    /// `/leaderboard`: the points leaderboard of `!top points`; `?friends=1` is `!top points
    /// friends` (signed in).
    static let leaderboard = WebPage(
        "/leaderboard", name: "leaderboard", template: FortuneTemplates.leaderboard,
        nav: WebNavLink("Leaderboard", position: 40)
    ) { request in
        let friends = request.query["friends"].map { !["", "0", "no", "false"].contains($0) } ?? false
        let viewer = friends ? try request.signedIn("Sign in to see the leaderboard of your friends.") : request.viewer
        let rows = try await FortuneCommands.leaderboard(request.services.store, friendsOf: friends ? viewer?.id : nil)
        let me = viewer.map { IRCNames.fold($0.name) }
        let values: [String: Any] = [
            "friends": friends, "hasRows": !rows.isEmpty,
            "rows": rows.enumerated().map { index, row -> [String: Any] in
                let key = IRCNames.fold(row.name)
                return ["rank": index + 1, "name": row.name, "nameKey": key, "points": row.points, "me": key == me]
            },
            "size": FortuneCommands.leaderboardSize,
        ]
        let title = friends ? "Top points among your friends" : "Top points"
        let leader = rows.first.map { "\($0.name) leads with \($0.points) points." } ?? "Nobody has points yet."
        return WebContent(title: title, summary: leader, values: values)
    }

    /// The path of `who`'s fortune map (`!fortune map`'s picture, zoomed to the places), or nil
    /// when no cookie has a place or this server draws no pictures.
    static func mapImage(_ request: WebRequest, of who: AccountRef, _ all: [Stored<FortuneRecord>]) async -> String? {
        guard let media = request.services.media else { return nil }
        do {
            let markers = FortuneCommands.mapMarkers(all)
            guard
                let picture = try await FortuneCommands.mapPicture(
                    request.services.store, media: media, of: who, markers: markers)
            else { return nil }
            return MediaLibrary.path(id: picture.id, format: picture.format)
        } catch {
            // No map data or fonts on this server: the table alone.
            request.services.logger.warning("fortune map not drawn: \(error)")
            return nil
        }
    }

    /// Opening today's cookie from a page: the `!fortune` command (with `@PLACE` if given). It
    /// leads to the cookie's card, so the chat answer is not repeated in a notice.
    static let actions: [WebAction] = [
        quietly(
            WebAction(
                "/fortunes",
                command: { _, form in
                    let place = (form["place"] ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
                        .trimmingCharacters(in: .whitespaces)
                    // A category is one word of its letters; anything else is sent as a word the
                    // command refuses, never as more words.
                    let chosen = (form["category"] ?? "").lowercased()
                    let word = chosen.allSatisfy(FortuneCatalogue.categoryLetters.contains) ? chosen : "?"
                    let category = chosen.isEmpty ? "" : " " + word
                    guard !place.isEmpty else { return "!fortune" + category }
                    return "!fortune\(category) @" + (place.hasPrefix("@") ? String(place.dropFirst()) : place)
                }, back: { _ in "/fortunes" }))
    ]

    static func quietly(_ action: WebAction) -> WebAction {
        var action = action
        action.quiet = true
        return action
    }
}
