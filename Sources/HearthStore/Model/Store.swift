/// Everything Hearth stores, as the bot and the server see it: one interface per area, the
/// same on every engine. `SQLiteStore` (the default, in the data directory) implements it; the
/// engine is chosen once at start and nobody else learns which one runs.
public protocol Store: AccountStore, SocialStore, ChannelRegistry, HistoryStore, HistorySearchStore,
    OfflineMessageStore, ImageStore, MemeStore, CommentStore, FortuneStore, RecipeStore, FamilyStore,
    RegistrationInviteStore, PushSubscriptionStore, ServerBanStore, AlwaysOnStore, CertificateStore, ChannelRenameStore,
    ChatTicketStore, SayingStore, MealPlanStore
{
    /// The engine and where its data is, for logs ("SQLite in ./data/hearth.sqlite").
    var location: String { get }

    /// Where picture bytes are shared between processes, when the engine keeps them (nil:
    /// the files in the data directory are the only copy).
    var sharedPictures: (any PictureStore)? { get }

    /// The network several processes can form on this database (nil: this engine is one
    /// process's alone, as SQLite is).
    var network: (any NetworkStore)? { get }

    /// How long statements take, for whoever listens (the server's metrics).
    var queryTimes: QueryTimes { get }

    /// Lets go of the database (connections, files) once nothing uses the store any more.
    func close() async
}
