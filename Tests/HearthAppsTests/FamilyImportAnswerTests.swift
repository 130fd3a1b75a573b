import Foundation
import HearthKit
import HearthStore
import HearthTesting
import Testing

@testable import HearthApps

/// What an import answers, from one store call: a tie refused for a cycle is counted, and a file
/// that would take the family past `FamilyPersonRules.maxPeople` is refused with the numbers.
@Suite struct FamilyImportAnswerTests {
    static func file(_ people: [String], families: [(parent: Int, child: Int)] = []) -> String {
        let header = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n"
        let indi = people.enumerated().map { "0 @I\($0.offset)@ INDI\n1 NAME \($0.element)\n" }.joined()
        let fams = families.enumerated().map { n, family in
            "0 @F\(n)@ FAM\n1 HUSB @I\(family.parent)@\n1 CHIL @I\(family.child)@\n"
        }
        return header + indi + fams.joined() + "0 TRLR\n"
    }

    @Test func refusedTiesAreCountedAndTheLimitNamesTheNumbers() async throws {
        try await withBot { bot in
            let ann = try await bot.user("ann")
            #expect(await ann.ask("!tree new Oaks").contains("You founded Oaks."))
            let me = try #require(ann.account)
            let family = try #require(try await bot.store.families(of: me.id).first)
            // Ada is Bo's parent, then Bo would be Ada's: the second tie is refused.
            let cycle = try FamilyGEDCOM.plan(Array(Self.file(["Ada", "Bo"], families: [(0, 1), (1, 0)]).utf8))
            #expect(
                try await FamilyFileCommands.apply(cycle, bot.store, family, by: me.id, now: Date())
                    == "Imported into Oaks: 2 people added, 0 already in the tree, 1 tie added; "
                    + "1 refused (someone would be their own ancestor).")
            #expect(try await bot.store.familyLinks(family.id).count == 1)

            let filler = (0..<FamilyPersonRules.maxPeople - 4).map {
                FamilyImport.Person(xref: "\($0)", name: "P\($0)")
            }
            _ = try await bot.store.importFamily(family.id, people: filler, ties: [], by: me.id, now: Date())
            let three = try FamilyGEDCOM.plan(Array(Self.file(["Ada", "Cy", "Di", "Ed"]).utf8))
            let refused = await #expect(throws: BotError.self) {
                try await FamilyFileCommands.apply(three, bot.store, family, by: me.id, now: Date())
            }
            #expect(
                refused?.message
                    == "not imported: Oaks holds \(FamilyPersonRules.maxPeople - 2) people and the file adds 3; "
                    + "a family holds at most \(FamilyPersonRules.maxPeople)")
            #expect(try await bot.store.familyPeople(family.id).count == FamilyPersonRules.maxPeople - 2)
        }
    }
}
