import HearthKit
import HearthStore

/// The apps Hearth ships with, in the order `!help` lists them; the executable hands them
/// to the server.
public enum BuiltInApps {
    public static func builtIn(_ config: AppsConfig = AppsConfig()) -> [BotApp] {
        [
            BotApp(name: "accounts", commands: AccountCommands.all),
            BotApp(name: "social", commands: SocialCommands.all),
            BotApp(name: "channels", commands: ChannelCommands.all + HistoryCommands.all),
            BotApp(
                name: "memes", commands: PictureCommands.all + MemeCommands.all + CommentCommands.all,
                profileLine: { try await MemeCommands.profileLine($0, media: $0.media) },
                pages: [MemePages.meme, MemePages.gallery, MemePages.hot, MemeMaker.page],
                actions: MemePages.actions + [MemeMaker.post], pictures: [MemeMaker.preview]),
            BotApp(
                name: "fortunes", commands: FortuneCommands.all,
                profileLine: { try await FortuneCommands.profileLine($0) },
                onLogin: { try await FortuneCommands.onLogin($0, $1) },
                services: [
                    FortuneCatalogue.load(
                        directory: config.fortunesDirectory, offensive: config.fortunesOffensive,
                        builtin: config.builtinFortunes)
                ],
                pages: [FortunePages.person, FortunePages.map, FortunePages.leaderboard],
                actions: FortunePages.actions + SayingPages.actions),
            BotApp(
                name: "recipes", commands: RecipeCommands.all + MealPlanCommands.all,
                profileLine: { try await RecipeCommands.profileLine($0) },
                onLogin: { try await RecipeCommands.onLogin($0, $1) },
                continuation: { await RecipeCommands.continueDraft(bot: $0, caller: $1, presence: $2, line: $3) },
                services: [PageFetcher(allowLocal: config.fetchLocalAddresses)]
                    + (config.edamam.map { [EdamamClient(config: $0)] } ?? []),
                pages: [
                    RecipePages.recipe, RecipePages.trending, RecipePages.search, RecipePages.saved,
                    RecipeEditorPages.new, RecipeEditorPages.edit, MealPlanPages.shop,
                ], actions: RecipePages.actions + RecipeEditorPages.actions + MealPlanPages.actions),
            BotApp(
                name: "family",
                commands: FamilyPrivacy.keptInFamily(
                    FamilyCommands.all + FamilyPeopleCommands.all + LocationCommands.all
                        + FamilyFeedCommands.all + FamilyFileCommands.all),
                onLogin: { try await FamilyCommands.onLogin($0, $1) },
                onAccountDeleted: { try await FamilyCommands.onAccountDeleted($0, $1, $2) },
                onTick: { try await FamilyDays.announce($0) },
                guardedChannels: { try await FamilyCommands.guardedChannels($0) },
                reservedChannels: FamilyCommands.reservedChannels, services: [FamilyDays.CheckedDays()],
                pages: [FamilyPages.family, FamilyPages.photos], actions: FamilyForms.all,
                pictures: [FamilyPages.gedcom]),
            BotApp(
                name: "home", commands: [], services: [HotLists(lifetime: config.hotListsLifetime)],
                pages: [HomePage.page]),
            BotApp(name: "help", commands: HelpCommands.all),
        ]
    }
}

extension BotServices {
    /// The sayings fortune cookies are made of.
    var fortunes: FortuneCatalogue? { service(FortuneCatalogue.self) }
    /// Edamam recipe search, when the operator configured keys.
    var edamam: EdamamClient? { service(EdamamClient.self) }
    /// Fetches pages users name (recipe imports), under the outbound guard.
    var pageFetcher: PageFetcher? { service(PageFetcher.self) }
}
