import Foundation
import HearthStore
import Testing

/// Templates as kept: a pack's details come back, and there is one global template per name.
@Suite struct TemplateStoreTests {
    static func picture(_ store: any EngineStore, _ id: String) async throws {
        try await store.addImage(
            ImageRecord(id: id, ownerId: nil, kind: "upload", format: "png", width: 10, height: 10, bytes: 1))
    }

    @Test(arguments: Engine.allCases)
    func aPacksDetailsComeBack(engine: Engine) async throws {
        try await engine.withStore { store in
            try await Self.picture(store, "p1")
            _ = try await store.addTemplate(
                TemplateRecord(
                    ownerId: nil, name: "Drake", imageId: "p1", boxes: "[]", title: "Drakeposting",
                    keywords: ["no", "yes"], source: "https://example.org/drake", example: ["old", "new"]))
            let kept = try #require(try await store.templates(for: nil).first)
            #expect(kept.nameKey == "drake" && kept.title == "Drakeposting")
            #expect(kept.keywords == ["no", "yes"] && kept.example == ["old", "new"])
            #expect(kept.source == "https://example.org/drake")
        }
    }

    @Test(arguments: Engine.allCases)
    func aSecondGlobalTemplateWithTheSameNameIsRefused(engine: Engine) async throws {
        try await engine.withStore { store in
            try await Self.picture(store, "p1")
            let ann = try await AccountStoreTests.make(store, "ann").id
            _ = try await store.addTemplate(TemplateRecord(ownerId: nil, name: "office", imageId: "p1", boxes: "[]"))
            await #expect(throws: StoreError.nameTaken) {
                _ = try await store.addTemplate(
                    TemplateRecord(ownerId: nil, name: "Office", imageId: "p1", boxes: "[]"))
            }
            // A user's own template of that name is still theirs to make.
            _ = try await store.addTemplate(TemplateRecord(ownerId: ann, name: "office", imageId: "p1", boxes: "[]"))
            #expect(try await store.templates(for: ann).count == 2)
        }
    }
}
