import Foundation
import HearthKit
import HearthMediaLibrary
import HearthStore
import Synchronization

/// The hot memes (as a visitor sees them) and the trending recipes, ranked: the same for every
/// reader, so the pages that show them (home, `/hot`, `/recipes`) read them at most once per
/// `lifetime`, and again as soon as any bot command has run (a meme, like, vote, comment, block,
/// privacy change: every web form is a command too). Pages stay rendered per request around
/// them, and what is a reader's own is still read for them each time: a signed-in reader's hot
/// memes (friends-only ones, blocks) and the authors they block or are blocked by.
public final class HotLists: Sendable {
    /// How long the lists are kept while no command runs; a change no command of this server
    /// made (another node of a network, a script on the database) shows within it.
    public static let lifetime: Duration = .seconds(1)
    let lifetime: Duration

    init(lifetime: Duration = HotLists.lifetime) { self.lifetime = lifetime }

    struct Lists: Sendable {
        /// Hot memes for visitors, hottest first (`MemeCommands.hotMemes` with no viewer).
        let memes: [MemeRow]
        /// Every trending candidate, hottest first (`RecipeCommands.trending` before blocks).
        let recipes: [RecipeRow]
    }

    private struct Kept {
        var lists: Lists
        let commands: Int
        let at: ContinuousClock.Instant
        /// Recipe photos' paths by image id, filled as cards are shown.
        var photos: [String: String?] = [:]
    }

    private let kept = Mutex<Kept?>(nil)

    /// The lists, read again when older than `lifetime` or when a command ran since.
    func lists(_ services: BotServices, now: Date) async throws -> Lists {
        let commands = services.commandCount
        if let lists = kept.withLock({ fresh($0, commands: commands)?.lists }) { return lists }
        let store = services.store
        let lists = Lists(
            memes: try await MemeCommands.hotMemes(store, viewer: nil, now: now),
            recipes: RecipeCommands.ranked(try await store.recentRecipes(), now: now))
        kept.withLock { $0 = Kept(lists: lists, commands: commands, at: .now) }
        return lists
    }

    /// A recipe photo's path (nil: no such image), read once while the lists are kept.
    func photo(_ imageID: String, _ services: BotServices) async throws -> String? {
        let commands = services.commandCount
        if let known = kept.withLock({ fresh($0, commands: commands)?.photos[imageID] }) { return known }
        let path = try await services.store.image(id: imageID).map { MediaLibrary.path(id: $0.id, format: $0.format) }
        kept.withLock { kept in
            if kept?.commands == commands { kept?.photos[imageID] = path }
        }
        return path
    }

    /// Hot memes for `viewer`: the shared list for visitors, read for a signed-in reader each time.
    static func hotMemes(_ services: BotServices, viewer: Int64?, now: Date) async throws -> [MemeRow] {
        if viewer == nil, let shared = services.hotLists { return try await shared.lists(services, now: now).memes }
        return try await MemeCommands.hotMemes(services.store, viewer: viewer, now: now)
    }

    /// Trending recipes without the authors hidden from `viewer` (`RecipeCommands.trending`).
    static func trending(_ services: BotServices, viewer: Int64?, now: Date) async throws -> [RecipeRow] {
        guard let shared = services.hotLists else {
            return try await RecipeCommands.trending(services.store, viewer: viewer, now: now)
        }
        let hidden = try await RecipeCommands.hiddenAuthors(services.store, viewer: viewer)
        return try await shared.lists(services, now: now).recipes.filter { !hidden.contains($0.recipe.accountId) }
    }

    private func fresh(_ kept: Kept?, commands: Int) -> Kept? {
        guard let kept, kept.commands == commands, ContinuousClock.now - kept.at < lifetime else { return nil }
        return kept
    }
}

extension BotServices {
    /// The shared hot lists (nil when the home app is not loaded: pages then read them each time).
    var hotLists: HotLists? { service(HotLists.self) }
}
