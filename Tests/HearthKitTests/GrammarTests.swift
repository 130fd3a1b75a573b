import Foundation
import HearthCrypto
import Testing

@testable import HearthKit

@Suite struct GrammarTests {
    @Test func parsesNameWordsAndRest() throws {
        let input = try #require(CommandLineInput.parse("!Meme drake \"top text\" | bottom", requireBang: true))
        #expect(input.name == "meme")
        #expect(input.words == ["drake", "top text", "|", "bottom"])
        #expect(input.rest == "drake \"top text\" | bottom")
        #expect(input.text(after: 1) == "\"top text\" | bottom")
    }

    /// A web form's text: the command on the first line, the rest its block, kept line for line.
    @Test func linesAfterTheFirstAreTheBlock() throws {
        let input = try #require(CommandLineInput.parse("!recipe new\nSoup\n\n2 leeks\n.", requireBang: true))
        #expect(input.name == "recipe" && input.words == ["new"] && input.rest == "new")
        #expect(input.block == ["Soup", "", "2 leeks", "."])
        #expect(CommandLineInput.parse("!recipe new", requireBang: true)?.block == [])
        #expect(CommandLineInput.parse("hello\n!recipe new", requireBang: true) == nil)
    }

    @Test func bangIsOptionalInPrivate() {
        #expect(CommandLineInput.parse("help me", requireBang: true) == nil)
        #expect(CommandLineInput.parse("help me", requireBang: false)?.name == "help")
        #expect(CommandLineInput.parse("!", requireBang: true) == nil)
        #expect(CommandLineInput.parse("!!!", requireBang: true) == nil)
        #expect(CommandLineInput.parse("  !whoami  ", requireBang: true)?.words == [])
    }

    @Test func quotesAndEscapes() {
        #expect(CommandLineInput.splitWords(#"a "b c" "d \"e\"" """#) == ["a", "b c", #"d "e""#, ""])
        #expect(CommandLineInput.splitWords("unbalanced \"quote here") == ["unbalanced", "quote here"])
    }

    @Test func didYouMean() {
        let names = ["help", "login", "logout", "register", "recover", "rename"]
        #expect(Suggest.closest(to: "halp", in: names) == ["help"])
        #expect(Suggest.closest(to: "loign", in: names).first == "login")
        #expect(Suggest.closest(to: "reg", in: names) == ["register"])
        #expect(Suggest.closest(to: "zzzzzz", in: names).isEmpty)
        #expect(Suggest.distance("kitten", "sitting") == 3)
        #expect(Suggest.distance("ab", "ba") == 1)
    }
}

@Suite struct NickServAliasTests {
    @Test func nickServLinesBecomeAccountCommands() {
        #expect(NickServAlias.translate("IDENTIFY pw", nick: "amy") == "login amy pw")
        #expect(NickServAlias.translate("identify bob pw", nick: "amy") == "login bob pw")
        #expect(NickServAlias.translate("REGISTER pw a@b.c", nick: "amy") == "register amy pw a@b.c")
        #expect(NickServAlias.translate("help", nick: "amy") == "help")
    }
}

@Suite struct TimeTextTests {
    @Test func spans() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(TimeText.ago(from: now.addingTimeInterval(-5), to: now) == "just now")
        #expect(TimeText.ago(from: now.addingTimeInterval(-12 * 60), to: now) == "12 min ago")
        #expect(TimeText.ago(from: now.addingTimeInterval(-3 * 3600), to: now) == "3 h ago")
        #expect(TimeText.ago(from: now.addingTimeInterval(-30 * 3600), to: now) == "yesterday")
        #expect(TimeText.ago(from: now.addingTimeInterval(-5 * 86_400), to: now) == "5 days ago")
        #expect(TimeText.ago(from: now.addingTimeInterval(60), to: now) == "just now")
    }
}

@Suite struct SettingTests {
    @Test func valuesAreCheckedAndNormalised() throws {
        let tz = try #require(Setting.named("TZ"))
        #expect((try? tz.validate("Europe/Paris").get()) == "Europe/Paris")
        #expect((try? tz.validate("Nowhere/Land").get()) == nil)
        let color = try #require(Setting.named("color"))
        #expect((try? color.validate("ON").get()) == "on")
        #expect(UserSettings(stored: [:]).notify)
        #expect(!UserSettings(stored: ["notify": "off"]).notify)
        #expect(Style(kind: .irc).bold("x") == "\u{2}x\u{2}")
        #expect(Style.plain.bold("x") == "x")
    }
}
