import Foundation
import GRDB
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore
import HearthTesting
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

@testable import HearthApps
@testable import HearthMedia
@testable import HearthServer

/// Bot lists: pages of recipes, pictures, memes, fortunes.
extension LimitCrossingTests {
    /// recipePageSize, the highest page number, feedPageSize and the hot list's candidates.
    @Test func recipeListsFeedAndHotCandidatesAtTheirLimitsAndOnePast() async throws {
        try await withServer { server in
            let cook = try await TestClient.user(server, "cook")
            let reader = try await TestClient.user(server, "reader")
            let store = server.server.store
            let cookID = try await Self.accountID(server, "cook")
            _ = try await store.follow(try await Self.accountID(server, "reader"), cookID)
            var made = 0
            func addRecipes(upTo total: Int) async throws {
                while made < total {
                    made += 1
                    _ = try await store.addRecipe(
                        RecipeRecord(
                            accountId: cookID, title: "R\(made)", ingredients: "x", steps: "y", photoImageId: nil,
                            tags: ""),
                        fromDraft: false, feedText: "posted recipe #ID “R\(made)”")
                }
            }
            try await addRecipes(upTo: StoreLimits.recipePageSize)
            try await Self.crossPageSize(
                reader, "!recipes new", next: "!recipes new 2", item: "  by cook  ", size: StoreLimits.recipePageSize,
                last: "#1  R1  "
            ) { try await addRecipes(upTo: StoreLimits.recipePageSize + 1) }
            var page: [String] = []

            try await reader.send("!recipes new \(Paging.maxPage)")
            try await reader.expect("There is no page \(Paging.maxPage).")
            try await reader.send("!recipes new \(Paging.maxPage + 1)")
            try await reader.expect("\(Paging.maxPage + 1) is not a page number")

            // The feed: a full page, then the rest after its marker.
            try await addRecipes(upTo: StoreLimits.feedPageSize)
            page = try await Self.replies(reader, "!feed")
            #expect(Self.count(page, containing: "cook posted recipe") == StoreLimits.feedPageSize)
            #expect(Self.count(page, containing: "more: !feed >") == 0)  // exactly a page: nothing older
            try await addRecipes(upTo: StoreLimits.feedPageSize + 1)
            page = try await Self.replies(reader, "!feed")
            #expect(Self.count(page, containing: "cook posted recipe") == StoreLimits.feedPageSize)
            let marker = try #require(page.first { $0.contains("more: !feed >") })
            let next = String(try #require(marker.split(separator: " ").last { $0.hasPrefix(">") }))
            page = try await Self.replies(reader, "!feed \(next)")
            #expect(
                Self.count(page, containing: "cook posted recipe") == 1 && Self.count(page, containing: "“R1”") == 1)

            // Hot and for-you lists rank the newest hotCandidates recipes; older ones are left out.
            let pages = (StoreLimits.hotCandidates + StoreLimits.recipePageSize - 1) / StoreLimits.recipePageSize
            try await addRecipes(upTo: StoreLimits.hotCandidates)
            page = try await Self.replies(cook, "!recipes hot")
            #expect(Self.count(page, containing: "page 1 of \(pages) ") == 1, "\(page.suffix(2))")
            try await addRecipes(upTo: StoreLimits.hotCandidates + 1)
            page = try await Self.replies(cook, "!recipes hot")
            #expect(Self.count(page, containing: "page 1 of \(pages) ") == 1, "\(page.suffix(2))")
            page = try await Self.replies(cook, "!recipes new")
            #expect(Self.count(page, containing: "page 1 of \(pages + 1) ") == 1, "\(page.suffix(2))")
        }
    }

    /// imagePageSize, memePageSize, GridLayout.maxTiles, and the hot memes' candidates.
    @Test func pictureAndMemeListsAtTheirLimitsAndOnePast() async throws {
        try await withServer { server in
            let mia = try await TestClient.user(server, "mia")
            let store = server.server.store
            let me = try await Self.accountID(server, "mia")
            var uploads = 0
            func addUploads(upTo total: Int) async throws {
                while uploads < total {
                    uploads += 1
                    try await store.addImage(
                        ImageRecord(
                            id: MediaLibrary.newID(), ownerId: me, kind: "upload", format: "png", width: 8,
                            height: uploads, bytes: 100))
                }
            }
            try await addUploads(upTo: StoreLimits.imagePageSize)
            try await Self.crossPageSize(
                mia, "!images", next: "!images 2", item: " png  ", size: StoreLimits.imagePageSize
            ) {
                try await addUploads(upTo: StoreLimits.imagePageSize + 1)
            }
            var page: [String] = []

            var memes = 0
            func addMemes(upTo total: Int) async throws {
                let first = memes + 1
                guard first <= total else { return }
                memes = total
                for n in first...total {
                    let image = ImageRecord(
                        id: MediaLibrary.newID(), ownerId: nil, kind: "meme", format: "jpeg", width: 8, height: 8,
                        bytes: 100)
                    try await store.addImage(image)
                    _ = try await store.addMeme(
                        MemeRecord(accountId: me, imageId: image.id, source: "sunset", caption: "cap-\(n)"),
                        feedText: "made meme #ID")
                }
            }
            try await addMemes(upTo: StoreLimits.memePageSize)
            try await Self.crossPageSize(
                mia, "!memes", next: "!memes mia 2", item: "“cap-", size: StoreLimits.memePageSize,
                last: "“cap-1”"
            ) {
                try await addMemes(upTo: StoreLimits.memePageSize + 1)
            }

            try await addMemes(upTo: GridLayout.maxTiles)
            try await mia.send("!memes grid")
            try await mia.expect("mia's memes (\(GridLayout.maxTiles) of \(GridLayout.maxTiles)): http")
            try await addMemes(upTo: GridLayout.maxTiles + 1)
            try await mia.send("!memes grid")
            try await mia.expect("mia's memes (\(GridLayout.maxTiles) of \(GridLayout.maxTiles + 1)): http")

            let pages = (StoreLimits.hotCandidates + StoreLimits.memePageSize - 1) / StoreLimits.memePageSize
            try await addMemes(upTo: StoreLimits.hotCandidates)
            page = try await Self.replies(mia, "!hot")
            #expect(Self.count(page, containing: "page 1 of \(pages) ") == 1, "\(page.suffix(2))")
            try await addMemes(upTo: StoreLimits.hotCandidates + 1)
            page = try await Self.replies(mia, "!hot")
            #expect(Self.count(page, containing: "page 1 of \(pages) ") == 1, "\(page.suffix(2))")
        }
    }

    /// Place names (cut to PlaceInput.maxNameLength), fortunePageSize, and leaderboardSize.
    @Test func fortunePlacesPagesAndLeaderboardAtTheirLimitsAndOnePast() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await FortuneTests.start(clock)) { server in
            let sol = try await TestClient.user(server, "sol")
            let place = String(repeating: "p", count: PlaceInput.maxNameLength)
            try await sol.send("!fortune @48.85,2.35 \(place)")
            #expect(try await sol.expect("opened in \(place)").contains("opened in \(place)"))
            clock.set("2026-07-02T09:00:00Z")
            try await sol.send("!fortune @48.85,2.35 \(place)q")
            let cut = try await sol.expect("opened in \(place)")
            #expect(!cut.contains(place + "q"), "\(cut)")

            let store = server.server.store
            let me = try await Self.accountID(server, "sol")
            var day = 2
            func addFortunes(upTo total: Int) async throws {
                while day < total {
                    day += 1
                    _ = try await store.openFortune(
                        FortuneRecord(
                            accountId: me, day: String(format: "2026-06-%02d", day), sayingKey: "k\(day)", round: 1,
                            text: "saying \(day)",
                            numbers: "1 2 3 4 5 6", lat: nil, lon: nil, place: nil, points: 1, openedAt: Date()),
                        after: try await store.lastFortune(accountID: me)?.id)
                }
            }
            try await addFortunes(upTo: StoreLimits.fortunePageSize)
            try await Self.crossPageSize(
                sol, "!fortunes", next: "!fortunes sol 2", item: "  “", size: StoreLimits.fortunePageSize
            ) {
                try await addFortunes(upTo: StoreLimits.fortunePageSize + 1)
            }
            var page: [String] = []

            // The leaderboard shows leaderboardSize people; the next one down is left off.
            let hash = try #require(PasswordHash.hash("s3cret-pass", cost: TestServer.fastCost))
            for rank in 1...(FortuneCommands.leaderboardSize + 1) {
                let name = String(format: "lb%02d", rank)
                let account = try await store.createAccount(
                    name: name, nameKey: name, passwordHash: hash, email: nil, phone: nil, recoveryHashes: [])
                _ = try await store.addPoints(
                    accountID: account.id, kind: "test", day: .utc("2026-07-02"), points: 10_000 - rank, now: Date(),
                    after: nil)
                page = try await Self.replies(sol, "!top points")
                #expect(Self.count(page, containing: ". lb") == min(rank, FortuneCommands.leaderboardSize), "\(page)")
            }
            #expect(Self.count(page, containing: String(format: ". lb%02d", FortuneCommands.leaderboardSize + 1)) == 0)
        }
    }
}
