import ArgumentParser
import Foundation
import HearthStore

/// A GEDCOM-sized import (issue 41's 500 people) written two ways on the same store, side by
/// side: one by one, as the import did before (`addFamilyPerson` per person, `link` per tie,
/// each its own transaction), and in one call (`importFamily`). Each round uses new families.
/// One JSON line: medians of the rounds, and how many times faster one call is.
struct FamilyImportLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family-import", abstract: "A family tree imported one row at a time and in one call.")
    @OptionGroup var store: BenchStore
    @Option(help: "SQLite's data directory (made if missing).") var dataDir = "/tmp/hearth-family-import-bench"
    @Option(help: "People in the file.") var people = 500
    @Option(help: "Rounds (each writes both ways; medians are reported).") var rounds = 3

    func run() async throws {
        let store = try await self.store.open(dataDirectory: dataDir)
        let run = String(UInt64(Date().timeIntervalSince1970 * 1000), radix: 36)
        let (file, ties) = Self.file(people)
        var (single, batched): ([Double], [Double]) = ([], [])
        for round in 0..<rounds {
            let founder = try await store.createAccount(
                name: "fi\(run)r\(round)", nameKey: "fi\(run)r\(round)", passwordHash: "x", email: nil, phone: nil,
                recoveryHashes: [])
            let one = try await store.foundFamily(name: "One", founderID: founder.id)
            var began = nowNanos()
            try await Self.oneByOne(store, one.id, file, ties, by: founder.id)
            single.append(Double(nowNanos() - began) / 1e9)
            let all = try await store.foundFamily(name: "All", founderID: founder.id)
            began = nowNanos()
            _ = try await store.importFamily(all.id, people: file, ties: ties, by: founder.id, now: Date())
            batched.append(Double(nowNanos() - began) / 1e9)
        }
        await store.close()
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var r = Report()
        r.add("scenario", "family-import")
        r.add("engine", self.store.engine)
        r.add("people", people)
        r.add("ties", ties.count)
        r.add("rounds", rounds)
        r.add("one_by_one_s", median(single))
        r.add("one_call_s", median(batched))
        r.add("speedup", median(single) / median(batched))
        print(r.line())
    }

    /// A tree as files have them: everyone but the first has a parent, and pairs are siblings.
    static func file(_ count: Int) -> ([FamilyImport.Person], [FamilyImport.Tie]) {
        let people = (0..<count).map {
            FamilyImport.Person(xref: "@I\($0)@", name: "Person \($0)", born: "\(1800 + $0 % 200)", bornPlace: "Lyon")
        }
        var ties = (1..<max(1, count)).map {
            FamilyImport.Tie(from: "@I\(($0 - 1) / 2)@", to: "@I\($0)@", kind: .parent)
        }
        for k in stride(from: 1, to: count - 1, by: 2) {
            ties.append(FamilyImport.Tie(from: "@I\(k)@", to: "@I\(k + 1)@", kind: .sibling))
        }
        return (people, ties)
    }

    /// The import as it was: a transaction per person and per tie.
    static func oneByOne(
        _ store: any Store, _ family: Int64, _ people: [FamilyImport.Person], _ ties: [FamilyImport.Tie],
        by accountID: Int64
    ) async throws {
        var ids: [String: Int64] = [:]
        for person in people {
            ids[person.xref] = try await store.addFamilyPerson(
                FamilyPerson(
                    familyId: family, name: person.name, born: person.born, bornPlace: person.bornPlace,
                    addedBy: accountID)
            ).treeID
        }
        for tie in ties {
            try await store.link(family, from: ids[tie.from]!, to: ids[tie.to]!, kind: tie.kind)
        }
    }
}
