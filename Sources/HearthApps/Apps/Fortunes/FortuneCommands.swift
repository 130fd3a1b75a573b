import Foundation
import HearthCrypto
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthProtocol
import HearthStore

/// The daily fortune cookie: one a day in your time zone, its history, a map of where you
/// opened them, points and streaks.
enum FortuneCommands {
    static let group = "fortunes"
    static let pointsPerCookie = 10
    /// Per day of streak beyond the first, up to `maxStreakBonus`.
    static let streakBonusPerDay = 2
    static let maxStreakBonus = 10
    static let loginBonus = 2
    static let luckyNumberCount = 6
    static let luckyNumberRange = 1...49
    static let leaderboardSize = 10

    static func days(_ request: BotRequest) -> LocalDays {
        LocalDays(identifier: request.settings?["tz"] ?? "UTC")
    }

    static func now(_ request: BotRequest) -> Date { request.services.clock.now() }

    /// Six different numbers, drawn with libsodium's randomness, in order.
    static func luckyNumbers() -> [Int] {
        var numbers: Set<Int> = []
        let span = UInt32(luckyNumberRange.count)
        while numbers.count < luckyNumberCount {
            numbers.insert(luckyNumberRange.lowerBound + Int(Sodium.randomUniform(span)))
        }
        return numbers.sorted()
    }

    static func formatDay(_ day: String) -> String {
        guard let date = LocalDays.utcDate(day) else { return day }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let weekday = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][
            calendar.component(.weekday, from: date) - 1]
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return
            "\(weekday) \(calendar.component(.day, from: date)) \(months[calendar.component(.month, from: date) - 1])"
    }

    /// When `next` (the next day a cookie may be opened for) starts, from now.
    static func nextCookieLine(_ request: BotRequest, next: LocalDay) -> String {
        let zone = days(request)
        let now = now(request)
        let countdown = LocalDays.countdown(from: now, to: next.start)
        let which = next.start == zone.nextMidnight(after: now) ? "" : ", \(formatDay(next.day))"
        return "Next cookie in \(countdown) (midnight \(zone.name)\(which))."
    }

    /// The answer when no cookie may be opened now: `last` is the latest one opened.
    static func openedAlready(_ request: BotRequest, _ last: Stored<FortuneRecord>) -> BotResponse {
        let zone = days(request)
        let now = now(request)
        let today = zone.day(now)
        let first =
            last.day == today
            ? "You opened today's cookie already: “\(text(last, for: request))” — lucky numbers \(last.numbers)."
            : "Your last cookie was for \(formatDay(last.day)), and \(formatDay(today)) here (\(zone.name)) overlaps"
                + " that day — one cookie per day of your life, whatever your time zone."
        var response = BotResponse([first])  // a cookie opened meanwhile by another device
        if case .wait(let next) = OncePerDay.decide(last: last.localDay, now: now, in: zone) {
            response.lines.append(nextCookieLine(request, next: next))
        }
        response.madePage = cookiePage(request)
        return response
    }

    /// The page of the caller's cookies, where a web form that opened one goes.
    static func cookiePage(_ request: BotRequest) -> String? {
        request.caller.account.map { "/fortunes/\(IRCNames.fold($0.name))" }
    }

    static func describe(_ f: Stored<FortuneRecord>, style: Style, for request: BotRequest) -> String {
        let place = f.place.map { " · \($0)" } ?? (f.lat != nil ? String(format: " · %.2f,%.2f", f.lat!, f.lon!) : "")
        let shown = text(f, for: request)
        return "\(style.bold("#\(f.id)")) \(formatDay(f.day))\(place): “\(shown)” — lucky numbers \(f.numbers)"
    }

    /// A cookie's text as `viewer` may read it: a friend's saying was written for friends, so
    /// anyone but its reader (and everyone in a channel) learns only that it was one.
    static func text(_ f: Stored<FortuneRecord>, viewer: Int64?, inChannel: Bool = false) -> String {
        guard f.sayingKey.hasPrefix(SayingCommands.friendKeyPrefix), inChannel || viewer != f.accountId else {
            return f.text
        }
        return "a saying a friend wrote, for its reader only"
    }

    static func text(_ f: Stored<FortuneRecord>, for request: BotRequest) -> String {
        text(f, viewer: request.caller.account?.id, inChannel: request.caller.channel != nil)
    }

    // MARK: !fortune

    static let fortune = BotCommand(
        "fortune", group: group,
        usage: "[CATEGORY] [@LAT,LON [PLACE] | @CITY]  ·  show ID  ·  map [USER]  ·  stats  ·  categories",
        summary: "open today's fortune cookie (from a category, where you are, if you say)",
        example: "!fortune science @Lyon", arity: 0...Int.max, requiresLogin: true
    ) { request in
        switch request.words.first?.lowercased() {
        case "show": return try await show(request)
        case "map": return try await map(request)
        case "stats": return try await stats(request)
        case "categories": return try await FortuneCategories.list(request)
        default: return try await open(request)
        }
    }

    static func open(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        let store = request.services.store
        let days = days(request)
        let now = now(request)
        let catalogue = try FortuneCategories.catalogue(request)
        // `!fortune CATEGORY [@PLACE]`: a category first, then the place.
        var category: String?
        if let first = request.words.first, !first.hasPrefix("@") {
            category = try FortuneCategories.named(first, in: catalogue)
        }
        let placeWord = category == nil ? 0 : 1
        var where_: (lat: Double, lon: Double, name: String?)?
        var placeNote: String?
        if request.words.count > placeWord {
            guard request.words[placeWord].hasPrefix("@") else {
                throw request.usageError("\(request.words[placeWord])? Give a place as @LAT,LON or @City")
            }
            await Gazetteer.loaded()  // suspends, never blocks a pool thread on the first read
            let place = try PlaceInput.parse(request.input.text(after: placeWord))
            (where_, placeNote) = ((place.lat, place.lon, place.name), place.note)
        }
        let last = try await store.lastFortune(accountID: me.id)
        guard case .give(let today, let continues) = OncePerDay.decide(last: last?.localDay, now: now, in: days)
        else { return openedAlready(request, last!) }
        if where_ == nil, request.settings?["location"] == "on",
            let last = try await store.lastLocation(accountID: me.id)
        {
            where_ = (last.lat, last.lon, last.label)
        }
        // From the category asked for, else those the reader chose; no repeats until all of them
        // have been seen.
        if category == SayingCommands.friendsCategory, request.caller.channel != nil {
            throw BotError(
                "friends' sayings are for you alone: open that cookie in private (/msg the bot) or on the web")
        }
        let chosen = FortuneCategories.chosen(request.settings?[FortuneCategories.settingKey], in: catalogue)
        var pool = try await SayingCommands.pool(
            request, me, wanted: category.map { [$0] } ?? chosen, catalogue: catalogue)
        if pool.isEmpty, category == nil {  // the chosen ones hold nothing yet (no friend wrote one): all
            pool = try await SayingCommands.pool(request, me, wanted: nil, catalogue: catalogue)
        }
        guard !pool.isEmpty else {
            throw BotError(
                category == SayingCommands.friendsCategory
                    ? "none of your friends (mutual follows) has written a saying yet — !saying add TEXT writes one"
                    : "there are no sayings in \(category ?? "the catalogue") yet — !fortune categories lists them")
        }
        var (round, seen) = try await store.fortuneRound(accountID: me.id)
        var unseen = pool.filter { !seen.contains($0.key) }
        if unseen.isEmpty {
            round += 1
            seen = []
            unseen = pool
        }
        let saying = unseen[Int(Sodium.randomUniform(UInt32(unseen.count)))]
        let streak = continues ? (last?.streak ?? 0) + 1 : 1
        let bonus = min(maxStreakBonus, (streak - 1) * streakBonusPerDay)
        let record = FortuneRecord(
            accountId: me.id, day: today.day, sayingKey: saying.key, round: round, text: saying.text,
            numbers: luckyNumbers().map(String.init).joined(separator: " "), lat: where_?.lat, lon: where_?.lon,
            place: where_?.name,
            points: pointsPerCookie + bonus, openedAt: now, localDay: today, streak: streak)
        let (opened, isNew) = try await store.openFortune(record, after: last?.id)
        guard isNew else { return openedAlready(request, opened) }
        let style = request.style
        // In a channel everyone reads it: whose fortune it is, not "Your".
        let whose = request.caller.channel == nil ? "Your" : Words.possessive(me.name)
        var lines = [
            "🥠 \(style.bold("\(whose) fortune for \(formatDay(today.day))")) (\(saying.category)):"
                + " “\(text(opened, for: request))”",
            "Lucky numbers: \(opened.numbers) · +\(opened.points) points"
                + (streak > 1 ? " (\(streak)-day streak, +\(bonus) bonus)" : "")
                + (opened.place.map { " · opened in \($0)" } ?? ""),
        ]
        if let placeNote { lines.append(style.dim(placeNote)) }
        lines.append(
            style.dim(
                nextCookieLine(request, next: days.following(today))
                    + " · !fortunes for your history, !fortune map for the map"
                    + (try await pageLink(request, owner: me.id, nameKey: IRCNames.fold(me.name)))))
        let reminder = try await reminderEffects(
            request.services, me, settings: request.settings, at: days.following(today).start)
        var response = BotResponse(lines, effects: reminder)
        response.madePage = cookiePage(request)
        return response
    }

    /// A notice when the next cookie may be opened (`at`), for people who want it.
    static func reminderEffects(_ services: BotServices, _ account: AccountRef, settings: UserSettings?, at: Date)
        async throws -> [SessionEffect]
    {
        // Devices that asked for it hear of the cookie when it is ready (the server keeps one
        // such note per account, and sends it only if the account is not connected then).
        let push = SessionEffect.push(
            PushNote(
                accountID: account.id, kind: .cookie, text: "🥠 A new fortune cookie is ready", link: "/fortunes", at: at
            ))
        var resolved = settings
        if resolved == nil { resolved = UserSettings(stored: try await services.store.settings(account.id)) }
        guard resolved!.notify else { return [push] }
        return [.remind(accountID: account.id, at: at, text: "🥠 A new fortune cookie is ready — !fortune"), push]
    }

    /// On login: the first login of a day of one's life earns a bonus (once per day whatever the
    /// time zone, as cookies are), and an unopened cookie is announced.
    static func onLogin(_ services: BotServices, _ account: AccountRef) async throws -> [SessionEffect] {
        let store = services.store
        let settings = UserSettings(stored: try await store.settings(account.id))
        let zone = LocalDays(identifier: settings["tz"])
        let now = services.clock.now()
        var effects: [SessionEffect] = []
        var notes: [String] = []
        let lastVisit = try await store.lastPointsDay(accountID: account.id, kind: "login")
        if case .give(let today, _) = OncePerDay.decide(last: lastVisit, now: now, in: zone),
            try await store.addPoints(
                accountID: account.id, kind: "login", day: today, points: loginBonus, now: now, after: lastVisit)
        {
            notes.append("+\(loginBonus) points for your first visit today")
        }
        let lastCookie = try await store.lastFortune(accountID: account.id)
        let nextCookie: Date
        switch OncePerDay.decide(last: lastCookie?.localDay, now: now, in: zone) {
        case .give(let today, _):
            notes.append("today's fortune cookie is waiting — !fortune")
            nextCookie = today.end
        case .wait(let next): nextCookie = next.start
        }
        if !notes.isEmpty {
            effects.append(.notify(accountID: account.id, text: "🥠 " + notes.joined(separator: "; ") + "."))
        }
        return effects + (try await reminderEffects(services, account, settings: settings, at: nextCookie))
    }

    static func show(_ request: BotRequest) async throws -> BotResponse {
        guard request.words.count == 2, let id = Int64(request.words[1].drop { $0 == "#" }) else {
            throw request.usageError("show which? e.g. !fortune show 3")
        }
        let f = try await visibleFortune(request, id)
        let owner = try await request.services.store.account(id: f.accountId)
        var link = ""
        if let owner { link = try await pageLink(request, owner: owner.id, nameKey: owner.nameKey) }
        var lines = [
            describe(f, style: request.style, for: request) + " · \(owner?.name ?? "someone")"
                + " · +\(f.points) points" + link
        ]
        // The caller's latest cookie: when the next one comes.
        if f.accountId == request.caller.account?.id,
            try await request.services.store.lastFortune(accountID: f.accountId)?.id == f.id,
            case .wait(let next) = OncePerDay.decide(last: f.localDay, now: now(request), in: days(request))
        {
            lines.append(nextCookieLine(request, next: next))
        }
        lines.append(request.style.dim("!share fortune \(id) #channel|user"))
        return BotResponse(lines)
    }

    /// A fortune the caller may see: their own, or one of someone whose lists they may see.
    static func visibleFortune(_ request: BotRequest, _ id: Int64) async throws -> Stored<FortuneRecord> {
        guard let f = try await visibleFortune(request.services.store, viewer: request.caller.account?.id, id) else {
            throw BotError("there is no fortune #\(id) you can see")
        }
        return f
    }

    /// The same rule for the web: nil when there is no such fortune for `viewer`.
    static func visibleFortune(_ store: Store, viewer: Int64?, _ id: Int64) async throws -> Stored<FortuneRecord>? {
        guard let f = try await store.fortune(id: id),
            try await mayViewFortunes(store, viewer: viewer, of: f.accountId)
        else { return nil }
        return f
    }

    /// Whether `viewer` (nil: someone not logged in) may see `owner`'s fortunes: their own, a
    /// public account's, a mutual friend's — never across a block. Chat and the web both ask this.
    static func mayViewFortunes(_ store: Store, viewer: Int64?, of owner: Int64) async throws -> Bool {
        try await store.mayViewLists(of: owner, viewer: viewer)
    }

    /// Who reads a line the bot posts: the caller privately, everyone in a channel, or one account.
    enum Readers: Sendable {
        case anyone
        case account(Int64)

        /// The readers of the reply to `request`: the caller, or a channel's anyone.
        init(replyTo request: BotRequest) {
            self = request.caller.channel == nil ? request.caller.account.map { .account($0.id) } ?? .anyone : .anyone
        }

        var viewer: Int64? {
            if case .account(let id) = self { return id }
            return nil
        }
    }

    /// The link to `owner`'s fortunes page, only where all its readers may open it
    /// (docs/SECURITY.md): anyone when the fortunes are public, else only privately to someone
    /// allowed to see them (a friend, the owner). Elsewhere the line goes without a link.
    static func pageLink(_ request: BotRequest, owner: Int64, nameKey: String, for readers: Readers? = nil)
        async throws -> String
    {
        try await pageURL(request, owner: owner, nameKey: nameKey, for: readers).map { " · page: \($0)" } ?? ""
    }

    /// The bare URL under the same rule (nil: no link here).
    static func pageURL(_ request: BotRequest, owner: Int64, nameKey: String, for readers: Readers? = nil)
        async throws -> String?
    {
        let readers = readers ?? Readers(replyTo: request)
        guard try await mayViewFortunes(request.services.store, viewer: readers.viewer, of: owner) else { return nil }
        return request.services.pageURL("/fortunes/\(nameKey)")
    }

    /// What chat says when `mayViewFortunes` is false.
    static func friendsOnly(_ name: String) -> String { "\(name) shares fortunes with friends only (mutual follows)" }

    /// Whose fortunes: the caller, or USER if the caller may see theirs.
    static func subject(_ request: BotRequest, _ name: String?) async throws -> AccountRef {
        guard let name else { return try request.account() }
        let account = try await SocialCommands.person(request, name)
        let ref = AccountRef(id: account.id, name: account.name)
        guard try await mayViewFortunes(request.services.store, viewer: request.caller.account?.id, of: ref.id) else {
            throw BotError(friendsOnly(account.name))
        }
        return ref
    }

    /// The map's markers: one per place cookies were opened at (a place named alike within about
    /// a kilometre is the same), in the order first visited.
    static func mapMarkers(_ fortunes: [Stored<FortuneRecord>]) -> [WorldMap.Marker] {
        var places: [(key: String, lat: Double, lon: Double, name: String, days: [String])] = []
        for f in fortunes {
            guard let lat = f.lat, let lon = f.lon else { continue }
            let name = f.place ?? String(format: "%.2f,%.2f", lat, lon)
            let key = String(format: "%.2f,%.2f,", lat, lon) + name
            if let i = places.firstIndex(where: { $0.key == key }) {
                places[i].days.append(f.day)
            } else {
                places.append((key, lat, lon, name, [f.day]))
            }
        }
        return places.map { place in
            let label =
                place.days.count == 1
                ? "\(place.days[0]) \(place.name)"
                : "\(place.name) · \(place.days.count) cookies, \(place.days[0]) – \(place.days.last!)"
            return WorldMap.Marker(lat: place.lat, lon: place.lon, label: label)
        }
    }

    /// `who`'s fortune map (nil when no cookie has a place): drawn once per content and kept,
    /// so `!fortune map` and the web page show the same picture.
    static func mapPicture(_ store: Store, media: MediaLibrary, of who: AccountRef, markers: [WorldMap.Marker])
        async throws -> ImageRecord?
    {
        guard !markers.isEmpty else { return nil }
        let title = "Where \(who.name) opened fortune cookies"
        return try await cachedPicture(store, media: media, key: worldMapKey("fortune-map", who.id, title, markers)) {
            try await media.worldMap(title: title, markers: markers, ownerID: who.id)
        }
    }

    /// A render-cache key for a world map of these markers (v3: zoomed to them, spread apart).
    static func worldMapKey(_ kind: String, _ owner: Int64, _ title: String, _ markers: [WorldMap.Marker]) -> String {
        let points = markers.map { "\($0.lat),\($0.lon),\($0.label)" }
        return Sodium.hashSecret(([kind + "/v3", String(owner), title] + points).joined(separator: "\u{0}"))
    }

    /// A picture drawn from data (a map, a tree) once per `key`: a repeat is the stored one.
    /// Its owner (whose data it shows) takes it along when their account goes.
    static func cachedPicture(
        _ store: Store, media: MediaLibrary, key: String, draw: () async throws -> ImageRecord
    ) async throws -> ImageRecord {
        if let cached = try await store.cachedRender(key: key) { return cached }
        let drawn = try await draw()
        let kept = try await store.addRender(drawn, key: key)
        if kept.id != drawn.id { media.delete(ids: [drawn.id]) }  // someone drew it at the same moment
        return kept
    }

    static func map(_ request: BotRequest) async throws -> BotResponse {
        guard request.words.count <= 2 else { throw request.usageError() }
        let who = try await subject(request, request.words.count == 2 ? request.words[1] : nil)
        let media = try PictureCommands.media(request)
        let markers = mapMarkers(try await request.services.store.allFortunes(of: who.id))
        guard let image = try await mapPicture(request.services.store, media: media, of: who, markers: markers) else {
            return BotResponse([
                "\(who.name) has no cookies with a place yet — open one with !fortune @LAT,LON or @City (or !set "
                    + "location on)."
            ])
        }
        // `/fortunes` is the reader's own map: linked only to the caller, privately.
        let mine = who.id == request.caller.account?.id && request.caller.channel == nil
        let own = mine ? request.pageLink("/fortunes") : ""
        let answer = BotResponse([
            "\(request.style.bold("\(Words.possessive(who.name)) fortune map"))"
                + " (\(Words.counted(markers.count, "place"))): \(media.url(image))\(own)"
        ])
        return try await ListPrivacy.kept(answer, request, owner: who.id)
    }

    static func stats(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        let store = request.services.store
        let all = try await store.allFortunes(of: me.id)
        if all.isEmpty { return BotResponse(["No cookies yet — open one with !fortune"]) }
        let current = OncePerDay.currentStreak(
            last: all.last?.localDay, streak: all.last?.streak ?? 0, now: now(request), in: days(request))
        let longest = all.map(\.streak).max() ?? 0
        let places = Set(all.compactMap { f in f.lat.map { String(format: "%.2f,%.2f", $0, f.lon!) } })
        var counts: [String: Int] = [:]
        for f in all { for n in f.numbers.split(separator: " ") { counts[String(n), default: 0] += 1 } }
        let favourite = counts.max { a, b in a.value != b.value ? a.value < b.value : Int(a.key)! > Int(b.key)! }
        var distance = ""
        let located = all.filter { $0.lat != nil }
        if let first = located.first, let last = located.last, located.count > 1 {
            let km = haversineKilometres((first.lat!, first.lon!), (last.lat!, last.lon!))
            distance = " · \(Int(km.rounded())) km between your first and latest places"
        }
        return BotResponse([
            "\(request.style.bold("Your cookies")): \(all.count) opened · streak \(current) "
                + "day\(current == 1 ? "" : "s") (longest \(longest)) · \(places.count) "
                + "place\(places.count == 1 ? "" : "s")\(distance)",
            "Most frequent lucky number: \(favourite.map { "\($0.key) (\($0.value)×)" } ?? "–") · points: "
                + "\(try await store.points(of: me.id))",
        ])
    }

    // MARK: lists and points

    static let fortunes = BotCommand(
        "fortunes", group: group, usage: "[USER] [PAGE]",
        summary: "the cookies you (or USER) opened: date, place, first words",
        example: "!fortunes alice", arity: 0...2
    ) { request in
        var words = request.words
        var pageWord: String?
        if let last = words.last, Int(last) != nil { pageWord = words.removeLast() }
        guard words.count <= 1 else { throw request.usageError() }
        let who = try await subject(request, words.first)
        let page = try Paging.page(request, pageWord)
        let (rows, total) = try await request.services.store.fortunes(of: who.id, page: page)
        if total == 0 { return BotResponse(["\(who.name) has opened no cookies yet."]) }
        let url = try await pageURL(request, owner: who.id, nameKey: IRCNames.fold(who.name))
        let web = url.map { " \($0)" } ?? ""
        var lines = ["\(request.style.bold("\(Words.possessive(who.name)) cookies")) (\(total)):\(web)"]
        lines += rows.map { f in
            let shown = text(f, for: request).split(separator: " ")
            let words = shown.prefix(6).joined(separator: " ")
            let place = f.place ?? (f.lat != nil ? String(format: "%.2f,%.2f", f.lat!, f.lon!) : "—")
            return "#\(f.id)  \(f.day)  \(place)  “\(words)\(shown.count > 6 ? "…" : "")”"
        }
        lines += Paging.footer(
            request, page: page, total: total, size: StoreLimits.fortunePageSize, command: "!fortunes \(who.name)")
        return try await ListPrivacy.kept(BotResponse(lines), request, owner: who.id)
    }

    static let points = BotCommand(
        "points", group: group, summary: "your points: cookies, streaks and first visits of the day",
        example: "!points",
        arity: 0...0, requiresLogin: true
    ) { request in
        let me = try request.account()
        let total = try await request.services.store.points(of: me.id)
        return BotResponse([
            "You have \(request.style.bold("\(total) points")). A cookie gives \(pointsPerCookie), a streak "
                + "\(streakBonusPerDay) more per day (up to \(maxStreakBonus)), your first visit of a day "
                + "\(loginBonus)."
        ])
    }

    static let top = BotCommand(
        "top", group: group, usage: "points [friends]",
        summary: "the points leaderboard (everyone, or you and your friends)",
        example: "!top points friends", arity: 1...2
    ) { request in
        guard request.words[0].lowercased() == "points" else { throw request.usageError("only !top points so far") }
        let friendsOnly = request.words.count == 2
        if friendsOnly && request.words[1].lowercased() != "friends" { throw request.usageError() }
        let me = friendsOnly ? try request.account() : request.caller.account
        let rows = try await leaderboard(request.services.store, friendsOf: friendsOnly ? me?.id : nil)
        if rows.isEmpty { return BotResponse(["Nobody has points yet — !fortune to start."]) }
        let title = friendsOnly ? "Top points among your friends" : "Top points"
        // The friends' page is each reader's own (401 signed out): linked only privately.
        let linked = !friendsOnly || request.caller.channel == nil
        let path = friendsOnly ? "/leaderboard?friends=1" : "/leaderboard"
        let web = linked ? request.services.pageURL(path).map { " \($0)" } : nil
        return BotResponse(
            ["\(request.style.bold(title)):\(web ?? "")"]
                + rows.enumerated().map { "\($0.offset + 1). \($0.element.name) — \($0.element.points)" })
    }

    /// The points leaderboard (everyone, or `friendsOf` and their mutual friends): `!top points`
    /// and the web's `/leaderboard`.
    static func leaderboard(_ store: Store, friendsOf: Int64?) async throws -> [(name: String, points: Int)] {
        try await store.topPoints(limit: leaderboardSize, friendsOf: friendsOf)
    }

    static let all: [BotCommand] = [fortune, fortunes, points, top] + SayingCommands.all

    static func profileLine(_ context: ProfileContext) async throws -> String? {
        let tally = context.tally
        return "fortunes: \(tally.fortunes) · points: \(tally.points)"
    }
}
