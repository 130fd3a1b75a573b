import Foundation
import HearthStore
import Testing

/// Profile fields (draft/metadata-2 keys of an account), the same on every engine.
@Suite struct ProfileFieldStoreTests {
    @Test(arguments: Engine.allCases)
    func fieldsAreSetReplacedRemovedAndCapped(engine: Engine) async throws {
        try await engine.withStore { store in
            let ids = try await SocialStoreTests.ids(store, ["ann", "bob"])
            let (ann, bob) = (ids[0], ids[1])
            #expect(try await store.profileFields(ann).isEmpty)
            #expect(try await store.setProfileField(ann, key: "display-name", value: "Ann A."))
            #expect(try await store.setProfileField(ann, key: "display-name", value: "Ann B."))
            #expect(try await store.setProfileField(ann, key: "pronouns", value: "she/her"))
            #expect(try await store.profileFields(ann) == ["display-name": "Ann B.", "pronouns": "she/her"])
            #expect(try await store.profileFields(bob).isEmpty)
            #expect(try await store.setProfileField(ann, key: "pronouns", value: nil))
            #expect(try await store.profileFields(ann) == ["display-name": "Ann B."])

            // At the limit: a new key is refused, changing one that is there is not.
            for i in 1..<ProfileFields.maxFields {
                #expect(try await store.setProfileField(ann, key: "k\(i)", value: "v"))
            }
            #expect(try await store.profileFields(ann).count == ProfileFields.maxFields)
            #expect(!(try await store.setProfileField(ann, key: "one-more", value: "v")))
            #expect(try await store.setProfileField(ann, key: "k1", value: "changed"))
            let fields = try await store.profileFields(ann)
            #expect(fields.count == ProfileFields.maxFields && fields["one-more"] == nil && fields["k1"] == "changed")
        }
    }

    @Test func keysAndValuesFollowTheMetadataRules() {
        #expect(ProfileFields.isValidKey("display-name") && ProfileFields.isValidKey("example.org/x_1"))
        #expect(
            !ProfileFields.isValidKey("") && !ProfileFields.isValidKey("Display") && !ProfileFields.isValidKey("a b"))
        #expect(ProfileFields.isValidKey(String(repeating: "k", count: ProfileFields.maxKeyLength)))
        #expect(!ProfileFields.isValidKey(String(repeating: "k", count: ProfileFields.maxKeyLength + 1)))
        #expect(ProfileFields.valueProblem(String(repeating: "v", count: ProfileFields.maxValueBytes)) == nil)
        #expect(ProfileFields.valueProblem(String(repeating: "v", count: ProfileFields.maxValueBytes + 1)) != nil)
        #expect(ProfileFields.valueProblem("tab\there") != nil)
    }
}
