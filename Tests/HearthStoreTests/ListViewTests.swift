import HearthStore
import Testing

/// Who may see an account's lists: the rule alone, and as each engine reads its facts.
@Suite struct ListViewTests {
    @Test func theOwnerPublicAccountsAndMutualFriendsSeeListsNeverAcrossABlock() {
        func may(_ viewer: Int64?, blocks: Bool = false, isPublic: Bool = false, mutual: Bool = false) -> Bool {
            let facts = ListViewFacts(eitherBlocks: blocks, ownerIsPublic: isPublic, mutualFollow: mutual)
            return ListViewRules.mayView(owner: 1, viewer: viewer, facts)
        }
        #expect(may(1, blocks: true))
        #expect(!may(nil) && may(nil, isPublic: true))
        #expect(!may(2) && may(2, mutual: true) && may(2, isPublic: true))
        #expect(!may(2, blocks: true, isPublic: true, mutual: true))
    }

    @Test(arguments: Engine.allCases)
    func eachEngineReadsTheFactsTheRuleNeeds(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            let bob = try await AccountStoreTests.make(store, "bob").id
            let cat = try await AccountStoreTests.make(store, "cat").id
            #expect(try await store.mayViewLists(of: ann, viewer: ann))
            #expect(try await !store.mayViewLists(of: ann, viewer: nil))
            #expect(try await !store.mayViewLists(of: ann, viewer: bob))
            _ = try await store.follow(ann, bob)
            #expect(try await !store.mayViewLists(of: ann, viewer: bob))
            _ = try await store.follow(bob, ann)
            #expect(try await store.mayViewLists(of: ann, viewer: bob))
            try await store.setSetting(ann, key: "privacy", value: "public")
            #expect(try await store.mayViewLists(of: ann, viewer: nil))
            #expect(try await store.mayViewLists(of: ann, viewer: cat))
            _ = try await store.block(cat, ann)
            #expect(try await !store.mayViewLists(of: ann, viewer: cat))
        }
    }
}
