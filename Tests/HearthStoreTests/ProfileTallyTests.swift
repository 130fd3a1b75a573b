import Foundation
import HearthStore
import Testing

/// What a profile counts (follows, memes, cookies, points, recipes) and what a new meme tells
/// followers, on both engines.
@Suite struct ProfileTallyTests {
    @Test(arguments: Engine.allCases)
    func countsFollowWhatWasMade(engine: Engine) async throws {
        try await engine.withStore { store in
            let author = try await AccountStoreTests.make(store, "author")
            let fan = try await AccountStoreTests.make(store, "fan")
            _ = try await store.follow(fan.id, author.id, now: Date())
            #expect(try await store.profileTally(of: author.id) == ProfileTally(followers: 1))
            #expect(try await store.profileTally(of: fan.id) == ProfileTally(following: 1))
            let picture = String(repeating: "b", count: 32)
            try await store.addImage(
                ImageRecord(
                    id: picture, ownerId: author.id, kind: "meme", format: "jpeg", width: 8, height: 8, bytes: 10))
            var made: [Int64] = []
            for caption in ["one", "two"] {
                let meme = try await store.addMeme(
                    MemeRecord(accountId: author.id, imageId: picture, source: "x", caption: caption),
                    feedText: "made meme #ID")
                #expect(meme.caption == caption && meme.accountId == author.id)
                made.append(meme.id)
            }
            #expect(try await store.profileTally(of: author.id).memes == 2)
            #expect(try await store.profileTally(of: fan.id).memes == 0)
            // The feed line names the meme's own id, written with the meme.
            let feed = try await store.feed(for: fan.id, before: nil).items.map(\.text)
            #expect(feed == made.reversed().map { "made meme #\($0)" })

            let cookie = FortuneRecord(
                accountId: author.id, day: "2026-11-25", sayingKey: "k", round: 1, text: "t", numbers: "1 2 3 4 5 6",
                lat: nil, lon: nil, place: nil, points: 10, openedAt: Date())
            _ = try await store.openFortune(cookie, after: nil)
            _ = try await store.addPoints(
                accountID: author.id, kind: "streak", day: .utc("2026-11-25"), points: 5, now: Date(), after: nil)
            let recipe = try await store.addRecipe(
                RecipeRecord(
                    accountId: author.id, title: "Soup", ingredients: "water", steps: "boil", photoImageId: nil,
                    tags: ""), fromDraft: false, feedText: "posted #ID")
            #expect(
                try await store.profileTally(of: author.id)
                    == ProfileTally(followers: 1, memes: 2, fortunes: 1, points: 15, recipes: 1))
            #expect(try await store.profileTally(of: fan.id) == ProfileTally(following: 1))
            // Taking things back takes them off the counts.
            #expect(try await store.deleteRecipe(id: recipe.id, by: author.id))
            #expect(try await store.deleteMeme(id: made[0], by: author.id))
            #expect(try await store.unfollow(fan.id, author.id))
            #expect(
                try await store.profileTally(of: author.id) == ProfileTally(memes: 1, fortunes: 1, points: 15))
            #expect(try await store.profileTally(of: fan.id) == ProfileTally())
        }
    }
}
