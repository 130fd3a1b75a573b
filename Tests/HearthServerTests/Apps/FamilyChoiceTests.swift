import Foundation
import HearthTesting
import Testing

/// Someone in several families (after leaving home, their parents' and their own) reads and
/// posts to each: by naming it (`#family-N`), by choosing it (`!tree use`), or in its channel.
@Suite struct FamilyChoiceTests {
    @Test func afterLeavingHomeTheParentsFamilyIsStillReadAndPostedTo() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let cat = try await TestClient.user(server, "cat")
            let eve = try await TestClient.user(server, "eve")
            try await ann.send("!tree new The Rivers")
            try await ann.expect("Its private channel is #family-1.")
            try await ann.send("!tree invite as child")
            let code = try FamilyTests.code(in: try await ann.expect("Invite code for The Rivers as your child: "))
            try await cat.send("!tree join \(code)")
            try await cat.expect("Welcome to The Rivers")
            try await cat.send("!tree independent Cat's Place")
            try await cat.expect("Cat's Place is your own household")

            // The new household is the current family, as before (and cat's line goes to its channel).
            try await cat.send("!post hello home")
            try await cat.expect("Posted #1 to Cat's Place's feed.")
            try await cat.send("!tree families")
            try await cat.expect("→ Cat's Place #family-2")
            try await cat.expect("  The Rivers #family-1")

            // Naming the parents' family by its channel.
            try await cat.send("!post #family-1 hi mum")
            try await cat.expect("Posted #2 to The Rivers' feed.")
            try await ann.expect("cat posted to The Rivers: “hi mum”")
            try await cat.send("!famfeed #family-1")
            try await cat.expect("#2 cat: hi mum")
            try await cat.send("!event #family-1 2026-12-24 dinner")
            try await cat.expect("Posted #3 to The Rivers' feed.")

            // Choosing it (privately): the family commands act on it until chosen otherwise.
            let laptop = try await TestClient.irc(server, nick: "cat_", extra: ["PASS cat:s3cret-pass"])
            try await laptop.expect("JOIN #family-1")
            try await laptop.send("PRIVMSG hearth :!tree use The Rivers")
            try await laptop.expect("Family commands now act on The Rivers.")
            try await laptop.send("PRIVMSG hearth :!famfeed")
            try await laptop.expect("The Rivers' feed")
            try await laptop.expect("#3 cat: 📅 2026-12-24 dinner")
            try await laptop.send("PRIVMSG hearth :!post back again")
            try await laptop.expect("Posted #4 to The Rivers' feed.")

            // In a family's channel, the command acts on that family (a plain client's lines go
            // to its channel): the channel comes before the choice.
            try await cat.expect("You are now talking in #family-1.")  // the laptop's joins reached cat
            try await cat.send("!post from the channel")
            try await cat.expect("Posted #5 to The Rivers' feed.")
            try await laptop.send("PRIVMSG #family-2 :!famfeed")
            try await laptop.expect("Cat's Place's feed")
            try await laptop.send("PRIVMSG hearth :!tree use #family-2")
            try await laptop.expect("Family commands now act on Cat's Place.")

            // Someone outside a family can neither name nor choose it.
            try await eve.send("!post #family-1 let me in")
            try await eve.expect("you are not in #family-1")
            try await eve.send("!famfeed #family-1")
            try await eve.expect("you are not in #family-1")
            try await eve.send("!tree use The Rivers")
            try await eve.expect("you are not in a family called The Rivers")
            try await ann.send("!famfeed")
            try await ann.expectNoLine(containing: "let me in", before: "!like post ID")
        }
    }
}

/// A family page's link goes only where all who read it may open it: privately or in the
/// family's own channel, never in another channel (a family command said there is answered
/// privately: `FamilyPrivacyTests`).
@Suite struct FamilyLinkTests {
    @Test func theFamilyPageIsLinkedOnlyWhereItsReadersMayOpenIt() async throws {
        try await withServer { server in
            let ann = try await TestClient.irc(server, nick: "ann", extra: [])
            try await ann.send("PRIVMSG hearth :!register ann s3cret-pass")
            try await ann.expect("Your account is ready")
            try await ann.send("PRIVMSG hearth :!tree new Rivers")
            try await ann.expect("JOIN #family-1")
            try await ann.send("JOIN #lobby")
            try await ann.expect(" 366 ")
            try await ann.send("PRIVMSG #lobby :!tree")
            try await ann.expect("PRIVMSG ann :Rivers · page: http")
            try await ann.send("PRIVMSG hearth :!post hello")
            try await ann.expect("Posted #1")
            try await ann.send("PRIVMSG #lobby :!famfeed")
            try await ann.expect("PRIVMSG ann :Rivers' feed: http")
            try await ann.send("PRIVMSG #family-1 :!tree")
            try await ann.expect("PRIVMSG #family-1 :Rivers · page: http")
            try await ann.send("PRIVMSG hearth :!tree")
            try await ann.expect("Rivers · page: http")
        }
    }
}
