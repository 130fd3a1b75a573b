import HearthKit

/// Time passing for the apps (`BotApp.onTick`): asked when the server starts, then every
/// `Bot.tickInterval`, their effects applied like a web form's (no connection) and told to the
/// other nodes. An app keeps in the store what it did already, so a restart or another node
/// does not do it again.
extension Core {
    func runAppTicks() async {
        while !Task.isCancelled {
            applyFromWeb(await bot.tick())
            try? await Task.sleep(for: Bot.tickInterval)
        }
    }
}
