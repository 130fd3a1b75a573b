import Foundation
import HearthStore
import Testing

/// Follows, blocks, people lists, settings and the feed, the same on every engine.
@Suite struct SocialStoreTests {
    static func ids(_ store: any EngineStore, _ names: [String]) async throws -> [Int64] {
        var ids: [Int64] = []
        for name in names { ids.append(try await AccountStoreTests.make(store, name).id) }
        return ids
    }

    @Test(arguments: Engine.allCases)
    func followsBlocksAndTheFeed(engine: Engine) async throws {
        try await engine.withStore { store in
            let ids = try await Self.ids(store, ["ann", "bob", "cat"])
            let (ann, bob, cat) = (ids[0], ids[1], ids[2])
            #expect(try await store.follow(ann, bob) == .followed)
            #expect(try await store.follow(ann, bob) == .alreadyFollowing)
            #expect(try await store.follow(bob, ann) == .followed)
            #expect(try await store.follow(cat, bob) == .followed)
            #expect(try await store.follows(ann, bob))
            #expect(!(try await store.follows(bob, cat)))
            let counts = try await store.profileTally(of: bob)
            #expect(counts.followers == 2 && counts.following == 1)
            #expect(try await store.people(.friends, of: ann, after: nil).names == ["bob"])
            #expect(try await store.people(.followers, of: bob, after: nil).names == ["ann", "cat"])

            // cat follows bob: cat's feed shows that bob followed ann, and nothing of ann's.
            let feed = try await store.feed(for: cat, before: nil)
            #expect(feed.items.map(\.actor) == ["bob"] && feed.items[0].subjectName == "ann" && !feed.more)
            let annFeed = try await store.feed(for: bob, before: nil)
            #expect(annFeed.items.map(\.actor) == ["ann"] && annFeed.items[0].subjectName == "bob")

            // A block removes follows both ways and stops new ones.
            #expect(try await store.block(bob, cat))
            #expect(!(try await store.block(bob, cat)))
            #expect(try await store.follow(cat, bob) == .blocked)
            #expect(try await store.blockedIDs(by: bob) == [cat])
            #expect(try await store.blockerIDs(of: cat) == [bob])
            #expect(try await store.isBlocked(cat, by: bob))
            #expect(try await store.people(.blocked, of: bob, after: nil).names == ["cat"])
            #expect(try await store.unblock(bob, cat))
            #expect(!(try await store.unblock(bob, cat)))
            #expect(try await store.unfollow(ann, bob))
            #expect(!(try await store.unfollow(ann, bob)))
            #expect(try await store.followingIDs(of: ann).isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func peoplePagesAndPrefixesSettingsAndBios(engine: Engine) async throws {
        try await engine.withStore { store in
            let names = (0..<(StoreLimits.peoplePageSize + 5)).map { "p\(String(format: "%02d", $0))" } + ["q1"]
            _ = try await Self.ids(store, names)
            let first = try await store.findPeople(prefix: "P", after: nil)
            #expect(first.names.count == StoreLimits.peoplePageSize && first.names.first == "p00")
            let second = try await store.findPeople(prefix: "p", after: first.next)
            #expect(second.names.count == 5 && second.next == nil && second.names.last == "p24")
            #expect(try await store.findPeople(prefix: "q", after: nil).names == ["q1"])
            #expect(try await store.findPeople(prefix: "%", after: nil).names.isEmpty)  // no wildcards

            let id = try await store.account(nameKey: "q1")!.id
            try await store.setSetting(id, key: "privacy", value: "public")
            try await store.setSetting(id, key: "privacy", value: "friends")
            try await store.setSetting(id, key: "color", value: "on")
            #expect(try await store.settings(id) == ["privacy": "friends", "color": "on"])
            try await store.setBio(id, "hello")
            #expect(try await store.account(id: id)?.bio == "hello")
        }
    }

    @Test(arguments: Engine.allCases)
    func offlineMessagesKeepTheirOrderAndTheInboxLimit(engine: Engine) async throws {
        try await engine.withStore { store in
            let ids = try await Self.ids(store, ["ann", "bob"])
            #expect(
                try await store.keepOfflineMessage(
                    recipientKey: "nobody", senderID: ids[0], senderName: "ann", text: "x")
                    == .noSuchAccount)
            // Up to five below the limit one by one, then fifteen senders at once: exactly the
            // limit is kept, the rest are told the inbox is full. (All at once, each waiting for
            // the row lock of all before it, outlasted a statement's 5 s on a loaded machine.)
            let before = StoreLimits.maxOfflineMessages - 5
            for n in 0..<before {
                #expect(
                    try await store.keepOfflineMessage(
                        recipientKey: "bob", senderID: ids[0], senderName: "ann", text: "m\(n)") == .stored)
            }
            let results = try await withThrowingTaskGroup(of: OfflineResult.self) { group in
                for n in before..<(StoreLimits.maxOfflineMessages + 10) {
                    group.addTask {
                        try await store.keepOfflineMessage(
                            recipientKey: "bob", senderID: ids[0], senderName: "ann", text: "m\(n)")
                    }
                }
                return try await group.reduce(into: [OfflineResult]()) { $0.append($1) }
            }
            #expect(results.filter { $0 == .stored }.count == 5)
            #expect(results.filter { $0 == .inboxFull }.count == 10)
            let taken = try await store.takeOfflineMessages(for: ids[1])
            #expect(taken.count == StoreLimits.maxOfflineMessages && taken.allSatisfy { $0.senderName == "ann" })
            #expect(try await store.takeOfflineMessages(for: ids[1]).isEmpty)
            _ = try await store.block(ids[1], ids[0])
            #expect(
                try await store.keepOfflineMessage(recipientKey: "bob", senderID: ids[0], senderName: "ann", text: "x")
                    == .blocked)
        }
    }

    @Test(arguments: Engine.allCases)
    func registeredChannelsAndTheirOwnersLimit(engine: Engine) async throws {
        try await engine.withStore { store in
            let ids = try await Self.ids(store, ["ann", "bob"])
            let room = RegisteredChannel(nameKey: "#room", name: "#Room", ownerId: ids[0])
            #expect(try await store.register(room, maxOwned: 2))
            #expect(!(try await store.register(RegisteredChannel(nameKey: "#room", name: "#room", ownerId: ids[1]))))
            #expect(
                try await store.register(RegisteredChannel(nameKey: "#two", name: "#two", ownerId: ids[0]), maxOwned: 2)
            )
            await #expect(throws: OwnsTooMany.self) {
                _ = try await store.register(
                    RegisteredChannel(nameKey: "#three", name: "#three", ownerId: ids[0]), maxOwned: 2)
            }
            var changed = room
            changed.topic = "hello"
            changed.flags = "ntk"
            changed.channelKey = "sesame"
            changed.userLimit = 5
            try await store.save(changed)
            let saved = try await store.registeredChannel(nameKey: "#room")
            #expect(saved?.topic == "hello" && saved?.channelKey == "sesame" && saved?.userLimit == 5)
            try await store.transferChannel(nameKey: "#room", to: ids[1])
            #expect(try await store.registeredChannel(nameKey: "#room")?.ownerId == ids[1])
            try await store.dropChannel(nameKey: "#room")
            #expect(try await store.registeredChannels().map(\.nameKey) == ["#two"])
        }
    }
}
