import Foundation
import HearthStore
import Testing

/// Deleting an account removes what is only its own and nothing of anyone else's.
@Suite struct AccountDeletionStoreTests {
    static func invite(_ store: any EngineStore, _ family: Int64, by inviter: Int64, code: String) async throws {
        _ = try await store.addFamilyInvite(
            FamilyInvite(codeHash: code, familyId: family, inviterId: inviter, relation: nil, expiresAt: Date() + 600))
    }

    @Test(arguments: Engine.allCases)
    func aFoundersFamilyPassesToTheLongestStandingMember(engine: Engine) async throws {
        try await engine.withStore { store in
            let cat = try await AccountStoreTests.make(store, "cat")
            let dan = try await AccountStoreTests.make(store, "dan")
            let eve = try await AccountStoreTests.make(store, "eve")
            let start = Date()
            let family = try await store.foundFamily(name: "Rivers", founderID: cat.id, now: start)
            try await Self.invite(store, family.id, by: cat.id, code: "c1")
            try await Self.invite(store, family.id, by: cat.id, code: "c2")
            _ = try await store.joinFamily(codeHashes: ["c1"], accountID: eve.id, now: start + 20)
            _ = try await store.joinFamily(codeHashes: ["c2"], accountID: dan.id, now: start + 10)
            try await store.link(family.id, from: dan.id, to: eve.id, kind: .sibling)
            try await store.link(family.id, from: cat.id, to: eve.id, kind: .parent)
            let evePost = try await store.addFamilyPost(
                FamilyPost(
                    familyId: family.id, accountId: eve.id, kind: "text", text: "garden", imageId: nil,
                    eventDate: nil, createdAt: start))
            let catPost = try await store.addFamilyPost(
                FamilyPost(
                    familyId: family.id, accountId: cat.id, kind: "text", text: "mine", imageId: nil,
                    eventDate: nil, createdAt: start))
            _ = try await store.likePost(evePost.id, accountID: cat.id, on: true)
            _ = try await store.likePost(evePost.id, accountID: dan.id, on: true)
            _ = try await store.addComment(kind: "post", targetID: evePost.id, accountID: cat.id, text: "lovely")
            let danOnCat = try #require(
                try await store.addComment(kind: "post", targetID: catPost.id, accountID: dan.id, text: "yes"))
            try await Self.invite(store, family.id, by: cat.id, code: "open")

            let deletion = try await store.deleteAccount(id: cat.id)
            #expect(
                deletion.families == [FamilyDeparture(familyId: family.id, name: "Rivers", newFounderId: dan.id)])
            // The family stays, dan (in before eve) founds it now, and eve's post is untouched
            // but for what cat gave it.
            #expect(try await store.family(id: family.id)?.founderId == dan.id)
            #expect(try await store.familyRole(family.id, accountID: dan.id) == .founder)
            #expect(try await store.familyMemberIDs(family.id) == [dan.id, eve.id])
            // Cat stays eve's parent in the tree, as a person who is not a user: the tie is eve's too.
            let catNow = try #require(try await store.familyPeople(family.id).first { $0.name == "cat" })
            #expect(catNow.accountId == nil)
            #expect(
                Set(try await store.familyLinks(family.id)) == [
                    FamilyLink(from: dan.id, to: eve.id, kind: .sibling),
                    FamilyLink(from: catNow.treeID, to: eve.id, kind: .parent),
                ])
            let (posts, total) = try await store.familyPosts(family.id, page: 1)
            #expect(total == 1 && posts.map(\.0.id) == [evePost.id])
            #expect(posts.first?.0.likes == 1 && posts.first?.0.comments == 0)
            // Cat's post went, and with it what others said under it; cat's invites too.
            #expect(try await store.familyPost(id: catPost.id) == nil)
            #expect(try await store.deleteComment(id: danOnCat, by: dan.id) == nil)
            #expect(try await store.familyInvites(family.id).isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func aFamilyNobodyIsLeftInIsRemovedAndItsNumberNotReused(engine: Engine) async throws {
        try await engine.withStore { store in
            let cat = try await AccountStoreTests.make(store, "cat")
            let eve = try await AccountStoreTests.make(store, "eve")
            let home = try await store.foundFamily(name: "Cat's Place", founderID: cat.id)
            let child = try await store.foundFamily(name: "Eve's", founderID: eve.id, parentFamilyID: home.id)
            let cabin = try await store.foundFamily(name: "Cat's Cabin", founderID: cat.id)
            let deletion = try await store.deleteAccount(id: cat.id)
            #expect(
                deletion.families == [
                    FamilyDeparture(familyId: home.id, name: "Cat's Place", removed: true),
                    FamilyDeparture(familyId: cabin.id, name: "Cat's Cabin", removed: true),
                ])
            #expect(try await store.family(id: home.id) == nil)
            #expect(try await store.familyMemberIDs(cabin.id).isEmpty)
            #expect(try await store.family(id: child.id)?.parentFamilyId == nil)
            // A removed family's channel (#family-N) never belongs to another family.
            let next = try await store.foundFamily(name: "New", founderID: eve.id)
            #expect(next.id > cabin.id)
        }
    }

    /// History is written in batches: a line said just before its sender deleted the account
    /// is kept without the account, and the lines written with it are not lost.
    @Test(arguments: Engine.allCases)
    func linesBatchedBeforeADeletionAreKept(engine: Engine) async throws {
        try await engine.withStore { store in
            let cat = try await AccountStoreTests.make(store, "cat")
            let eve = try await AccountStoreTests.make(store, "eve")
            _ = try await store.deleteAccount(id: cat.id)
            let lines = [(cat.id, "bye all"), (eve.id, "bye cat")].map {
                HistoryRecord(
                    target: "#room", msgid: $0.1, source: "x!x@x", accountID: $0.0, command: "PRIVMSG", text: $0.1,
                    createdAt: Date())
            }
            try await store.appendHistory(lines)
            let kept = try await store.latestHistory(targets: ["#room"], limit: 10)
            #expect(kept.map(\.text) == ["bye all", "bye cat"])
            #expect(kept.map(\.accountID) == [nil, eve.id])
        }
    }
}
