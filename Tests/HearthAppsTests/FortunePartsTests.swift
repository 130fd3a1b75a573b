import Foundation
import HearthKit
import Testing

@testable import HearthApps

@Suite struct FortunePartsTests {
    @Test func strfileSourceIsSplitOnPercentLines() {
        let text = "First one.\n%\nSecond,\non two lines.\n%\n\n%\r\nThird.\r\n%\n"
        #expect(FortuneCatalogue.parse(text) == ["First one.", "Second,\non two lines.", "Third."])
        let long = String(repeating: "x", count: FortuneCatalogue.maxSayingLength + 1)
        #expect(FortuneCatalogue.parse("ok\n%\n\(long)\n%\n") == ["ok"])
        // Duplicates collapse; keys are stable.
        let a = FortuneCatalogue(["one", "two", "one"])
        #expect(a.sayings.count == 2)
        #expect(a.sayings.map(\.key) == FortuneCatalogue(["one", "two"]).sayings.map(\.key))
    }

    @Test func builtInCatalogueHasEnoughSayings() {
        let texts = FortuneCatalogue.builtinTexts()
        #expect(texts.count >= 200)
        #expect(Set(texts).count == texts.count)
    }

    @Test func daysFollowTheTimeZoneAndDST() throws {
        let paris = LocalDays(identifier: "Europe/Paris")
        let instant = try Date("2026-10-24T22:30:00Z", strategy: .iso8601)  // 00:30 on the 25th in Paris
        #expect(paris.day(instant) == "2026-10-25")
        #expect(LocalDays(identifier: "America/Los_Angeles").day(instant) == "2026-10-24")
        // The 25th of October 2026 has 25 hours in Paris (clocks go back).
        let midnight = paris.nextMidnight(after: instant)
        #expect(midnight == (try Date("2026-10-25T23:00:00Z", strategy: .iso8601)))
        #expect(LocalDays.countdown(from: instant, to: midnight) == "24h 30m")
        #expect(LocalDays.countdown(from: instant, to: instant.addingTimeInterval(59)) == "1m")
        #expect(LocalDays.countdown(from: instant, to: instant) == "under a minute")
        #expect(LocalDays(identifier: "Nowhere/Atlantis").name == "UTC")
    }
}

/// Places typed in commands (issue 40): names, namesakes and "did you mean".
@Suite struct PlaceInputTests {
    @Test func aTownByNameWithANoteWhenOthersShareIt() throws {
        let lyon = try PlaceInput.parse("@lyon")
        #expect(lyon.name == "Lyon" && lyon.note == nil && abs(lyon.lat - 45.75) < 0.1)
        let paris = try PlaceInput.parse("@Paris")
        #expect(paris.name == "Paris")
        #expect(paris.note?.contains("the one in France") == true)
        #expect(paris.note?.contains("say e.g. @Paris, US") == true)
        let texas = try PlaceInput.parse("@Paris, US")
        #expect(texas.name == "Paris, US" && texas.lat < 40)
        // Coordinates as before.
        let spot = try PlaceInput.parse("@48.85,2.35 the café")
        #expect(spot.name == "the café" && spot.lat == 48.85)
    }

    @Test func nearMissesAreSuggested() {
        func refusal(_ text: String) -> String {
            do {
                _ = try PlaceInput.parse(text)
                return "accepted"
            } catch { return (error as? BotError)?.message ?? "\(error)" }
        }
        #expect(refusal("@Lyonn").contains("did you mean Lyon"))
        #expect(refusal("@Marseile").contains("did you mean Marseille"))
        #expect(refusal("@Zzyzxq").contains("I don't know a place called Zzyzxq. You may give coordinates"))
        #expect(refusal("@Lyon, JP").contains("I know no Lyon in JP — there is Lyon, FR"))
        #expect(refusal("@Paris, Narnia").contains("I don't know the country Narnia"))
        #expect(refusal("@12,abc").contains("is not a place"))
    }
}

/// Hearth's own sayings come in categories, one file each (issue 40).
@Suite struct FortuneCategoryPartsTests {
    @Test func theBuiltInCatalogueIsSplitIntoCategories() {
        let catalogue = FortuneCatalogue.load(directory: nil)
        #expect(catalogue.categories.contains("science") && catalogue.categories.contains("wisdom"))
        #expect(catalogue.categories.count >= 8)
        for category in catalogue.categories { #expect(catalogue.count(in: category) >= 20, "\(category)") }
        #expect(catalogue.sayings(in: ["science"]).allSatisfy { $0.category == "science" })
        #expect(catalogue.sayings(in: nil).count == catalogue.sayings.count)
    }

    @Test func fileNamesBecomeCategoryNames() {
        #expect(FortuneCatalogue.categoryName("Science.txt") == "science")
        #expect(FortuneCatalogue.categoryName("art-o") == "art")
        #expect(FortuneCatalogue.categoryName("star wars") == "star-wars")
        #expect(FortuneCatalogue.categoryName("bad/name") == nil)
        let long = String(repeating: "a", count: FortuneCatalogue.maxCategoryLength)
        #expect(FortuneCatalogue.categoryName(long) == long && FortuneCatalogue.categoryName(long + "a") == nil)
    }

    @Test func theSettingNamesKnownCategoriesOnly() throws {
        let catalogue = FortuneCatalogue(sources: [
            .init(category: "science", texts: ["a"]), .init(category: "wisdom", texts: ["b"]),
        ])
        #expect(try FortuneCategories.validate("Science, wisdom", in: catalogue).get() == "science,wisdom")
        #expect(try FortuneCategories.validate("ALL", in: catalogue).get() == "all")
        let many = Array(repeating: "science", count: FortuneCategories.maxChosen + 1).joined(separator: ",")
        #expect((try? FortuneCategories.validate(many, in: catalogue).get()) == nil)
        let ten = Array(repeating: "science", count: FortuneCategories.maxChosen).joined(separator: ",")
        #expect(try FortuneCategories.validate(ten, in: catalogue).get() == "science")
        #expect((try? FortuneCategories.validate("sience", in: catalogue).get()) == nil)
        // A category the operator took away since is skipped; none left means all.
        #expect(FortuneCategories.chosen("science,gone", in: catalogue) == ["science"])
        #expect(FortuneCategories.chosen("gone", in: catalogue) == nil)
    }
}
