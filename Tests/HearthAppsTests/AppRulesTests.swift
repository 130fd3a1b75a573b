import HearthStore
import HearthTesting
import Testing

/// App rules checked in process, through the bot's command table on a temporary store: no
/// server and no sockets (the TCP stories are in HearthServerTests).
@Suite struct AppRulesTests {
    @Test func registrationRulesAndLogin() async throws {
        try await withBot { bot in
            let ann = try await bot.user("ann")
            #expect(await ann.ask("!whoami").contains("You are ann"))

            // A name taken, a name reserved, a password too short: refused, nothing made.
            let other = bot.person("someone")
            #expect(await other.ask("!register ann an0ther-pass").contains("the name ann is taken"))
            #expect(await other.ask("!register hearth an0ther-pass").contains("reserved"))
            #expect(await other.ask("!register short pw").contains("passwords need at least"))
            #expect(other.account == nil)
            let names = try await bot.store.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM account") }
            #expect(names == ["ann"])

            // A wrong password does not say whether the name exists.
            let wrong = await other.ask("!login ann not-her-pass")
            let unknown = await other.ask("!login nobody not-her-pass")
            #expect(wrong.contains("wrong name or password") && unknown.contains("wrong name or password"))
            #expect(await other.ask("!login ann s3cret-pass").contains("You are logged in as ann."))
            #expect(other.account?.name == "ann")
        }
    }

    @Test func aRecipeDraftTakesTheNextLinesUntilItIsReady() async throws {
        try await withBot { bot in
            let ama = try await bot.user("ama")
            #expect(await ama.ask("!recipe new").contains("What is the recipe called?"))
            #expect(await ama.ask("Lentil stew").contains("Ingredients, one per line"))
            await ama.say("200 g red lentils")
            #expect(await ama.ask("!whoami").contains("You are ama"))  // commands still work meanwhile
            await ama.say("1 onion")
            await ama.say(".")
            await ama.say("Simmer the lentils.")
            await ama.say(".")
            await ama.say("-")
            #expect(await ama.ask("soup").contains("is ready"))
            let posted = await ama.ask("!recipe post")
            #expect(posted.contains("is posted"), "\(posted)")
            // A malformed search is answered, never an SQL error.
            let search = await ama.ask("!search \"lentil OR")
            #expect(!search.contains("went wrong"), "\(search)")
            #expect(await ama.ask("!search lentil").contains("Lentil stew"))
        }
    }

    @Test func familyRelationsAreCheckedBeforeAnythingIsStored() async throws {
        try await withBot { bot in
            let ann = try await bot.user("ann")
            #expect(await ann.ask("!tree new The Rivers").contains("You founded The Rivers."))
            let invite = await ann.ask("!tree invite as cousin")
            #expect(invite.contains("invite as parent, child, partner or sibling"), "\(invite)")
            let answer = await ann.ask("!tree invite as child")
            let code = try #require(
                answer.split(separator: " ").first { $0.count == 14 && $0.filter { $0 == "-" }.count == 2 })
            let cat = try await bot.user("cat")
            #expect(await cat.ask("!tree join \(code)").contains("Welcome to The Rivers as ann's child!"))
            #expect(await cat.ask("!tree link cat sibling").contains("you can't be your own sibling"))
            #expect(await cat.ask("!tree link ann child").contains("that would make someone their own ancestor"))
            let links = try await bot.store.familyLinks(1)
            #expect(links.count == 1 && links[0].kind == .parent)
        }
    }
}
