import Foundation
import HearthKit
import HearthProtocol
import HearthStore
import Synchronization

/// A family's days: birthdays and wedding anniversaries announced in its channel on the day,
/// and "on this day" (`!family today`, the family's page): births, marriages, deaths and posts
/// of this date in earlier years. A family's day is its founder's (`!set tz`; UTC when unset),
/// so everyone in it hears of a birthday once, at the same moment.
enum FamilyDays {
    /// Lines "on this day" shows at most (the oldest first).
    static let maxOnThisDay = 30

    /// The family's time zone: its founder's.
    static func zone(_ store: Store, _ family: Stored<FamilyRecord>) async throws -> LocalDays {
        LocalDays(identifier: UserSettings(stored: try await store.settings(family.founderId))["tz"])
    }

    /// A full date's month and day (`1931-05-02` → `05-02`) and year; nil for a year or a month.
    static func monthDay(_ date: String?) -> (monthDay: String, year: Int)? {
        guard let date, date.count == 10, let year = Int(date.prefix(4)) else { return nil }
        return (String(date.suffix(5)), year)
    }

    /// "27 November" for `11-27`.
    static func spoken(_ monthDay: String) -> String {
        let parts = monthDay.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 2, (1...12).contains(parts[0]) else { return monthDay }
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(parts[1]) \(months[parts[0] - 1])"
    }

    /// "Rose and Tom": a couple in the tree's order (a link keeps its ends by number).
    static func couple(_ tree: FamilyTree, _ link: FamilyLink) -> String {
        let order = tree.nodes.map(\.id)
        let (a, b) =
            (order.firstIndex(of: link.from) ?? 0) <= (order.firstIndex(of: link.to) ?? 0)
            ? (link.from, link.to) : (link.to, link.from)
        return "\(tree.name(a)) and \(tree.name(b))"
    }

    /// Today's greetings: birthdays of the living, and anniversaries of partners both living.
    static func greetings(_ tree: FamilyTree, monthDay today: String, year: Int) -> [String] {
        var lines: [String] = []
        for id in tree.nodes.map(\.id) {
            guard let facts = tree.facts(id), facts.died == nil, let born = monthDay(facts.born),
                born.monthDay == today, born.year < year
            else { continue }
            lines.append("🎂 Today is \(Words.possessive(tree.name(id))) birthday: \(year - born.year)!")
        }
        for link in tree.links where link.kind == .partner {
            guard let married = monthDay(link.date), married.monthDay == today, married.year < year,
                tree.facts(link.from)?.died == nil, tree.facts(link.to)?.died == nil
            else { continue }
            let years = year - married.year
            lines.append(
                "💍 \(couple(tree, link)) married \(Words.counted(years, "year")) ago "
                    + "today (\(married.year)).")
        }
        return lines
    }

    /// What happened on `monthDay` in years before `year`, oldest first: births, marriages,
    /// deaths, and the family's posts.
    static func onThisDay(_ store: Store, _ family: Stored<FamilyRecord>, monthDay today: String, year: Int)
        async throws -> [String]
    {
        let tree = try await FamilyTree.read(store, family)
        var dated: [(year: Int, text: String)] = []
        for id in tree.nodes.map(\.id) {
            guard let facts = tree.facts(id) else { continue }
            if let born = monthDay(facts.born), born.monthDay == today, born.year < year {
                dated.append((born.year, "\(tree.name(id)) was born" + (facts.bornPlace.map { " in \($0)" } ?? "")))
            }
            if let died = monthDay(facts.died), died.monthDay == today, died.year < year {
                dated.append((died.year, "\(tree.name(id)) died" + (facts.diedPlace.map { " in \($0)" } ?? "")))
            }
        }
        for link in tree.links where link.kind == .partner {
            if let married = monthDay(link.date), married.monthDay == today, married.year < year {
                dated.append(
                    (
                        married.year,
                        "\(couple(tree, link)) married"
                            + (link.place.map { " in \($0)" } ?? "")
                    ))
            }
        }
        let posts = try await store.familyPostsOnThisDay(family.id, monthDay: today, year: year, limit: maxOnThisDay)
        for (post, author) in posts {
            if post.kind == "event", let date = monthDay(post.eventDate) {
                dated.append((date.year, "📅 \(post.text) (\(author), post #\(post.id))"))
            } else {
                let written =
                    Calendar(identifier: .gregorian).dateComponents(
                        in: TimeZone(identifier: "UTC")!, from: post.createdAt
                    ).year ?? year
                let text = post.text.isEmpty ? "a picture" : "“\(post.text.prefix(80))”"
                dated.append((written, "\(author) posted \(text) (#\(post.id))"))
            }
        }
        // By year, and in the order above within one (a sort that keeps it).
        let ordered = dated.enumerated().sorted { ($0.element.year, $0.offset) < ($1.element.year, $1.offset) }
        return ordered.prefix(maxOnThisDay).map {
            "\($0.element.year) (\(Words.counted(year - $0.element.year, "year")) ago): \($0.element.text)"
        }
    }

    /// `!family today`.
    static func today(_ request: BotRequest) async throws -> BotResponse {
        let (_, family) = try await FamilyFileCommands.target(request)
        let store = request.services.store
        let day = try await zone(store, family).day(request.services.clock.now())
        let (monthDay, year) = (String(day.suffix(5)), Int(day.prefix(4)) ?? 0)
        let lines = try await onThisDay(store, family, monthDay: monthDay, year: year)
        let heading = "On this day, \(spoken(monthDay)), in \(family.name)"
        if lines.isEmpty {
            return BotResponse(["\(heading): nothing yet in earlier years." + FamilyCommands.pageLink(request, family)])
        }
        return BotResponse(["\(request.style.bold(heading)):"] + lines.map { "· " + $0 })
    }

    // MARK: announcing

    /// Announces today's greetings in each family's channel, once per family and day (the
    /// store keeps which days were announced). `only`: these families (a login's), else all.
    static func announce(_ services: BotServices, only: [Stored<FamilyRecord>]? = nil) async throws
        -> [SessionEffect]
    {
        let store = services.store
        let now = services.clock.now()
        let checked = services.service(CheckedDays.self)
        var effects: [SessionEffect] = []
        let families: [Stored<FamilyRecord>]
        if let only { families = only } else { families = try await store.allFamilies() }
        for family in families {
            let day = try await zone(store, family).day(now)
            // A family found with nothing to say is asked again the next day (or at a login).
            if only == nil, checked?.done(family.id, day) == true { continue }
            let tree = try await FamilyTree.read(store, family)
            let lines = greetings(tree, monthDay: String(day.suffix(5)), year: Int(day.prefix(4)) ?? 0)
            if !lines.isEmpty, try await store.claimFamilyDay(family.id, day: day, now: now) {
                let key = IRCNames.fold(FamilyCommands.channelName(family.id))
                effects += lines.map { .channelMessage(nameKey: key, text: $0) }
            }
            checked?.mark(family.id, day)
        }
        return effects
    }

    /// The families this process found nothing more to announce in today, so a tick does not
    /// read every family's tree every minute.
    final class CheckedDays: Sendable {
        private let days = Mutex<[Int64: String]>([:])
        func done(_ family: Int64, _ day: String) -> Bool { days.withLock { $0[family] == day } }
        func mark(_ family: Int64, _ day: String) { days.withLock { $0[family] = day } }
    }
}
