import HearthKit
import HearthStore

/// Everyone in one family's tree, read at once: its members, its people who are not users and
/// the links between them. What `!tree`, `!tree image`, `!tree link`, `!tree how`, `!person N`
/// and the family's page name people by.
struct FamilyTree {
    var members: [FamilyMember]
    var people: [FamilyPerson]
    var links: [FamilyLink]

    static func read(_ store: Store, _ family: Stored<FamilyRecord>) async throws -> FamilyTree {
        FamilyTree(
            members: try await store.familyMembers(family.id), people: try await store.familyPeople(family.id),
            links: try await store.familyLinks(family.id))
    }

    /// People who are not users (claimed ones are members).
    var unclaimed: [FamilyPerson] { people.filter { $0.accountId == nil } }

    /// The facts kept for someone in the tree (a member's own, or a person's).
    func facts(_ id: Int64) -> FamilyPerson? {
        people.first { $0.treeID == id }
    }

    /// Members first (oldest first), then the people who are not users, as the tree's nodes.
    var nodes: [FamilyTreeText.Node] {
        (members.map(\.accountId) + unclaimed.map(\.treeID)).map { id in
            FamilyTreeText.Node(
                id: id, name: name(id) + (FamilyPeopleCommands.years(facts(id)).map { " (\($0))" } ?? ""))
        }
    }

    func name(_ id: Int64) -> String {
        if let member = members.first(where: { $0.accountId == id }) { return member.name }
        if let person = facts(id) { return person.name }
        return "?"
    }

    var sex: [Int64: FamilyKinship.Sex] {
        var sex: [Int64: FamilyKinship.Sex] = [:]
        for person in people {
            switch person.sex {
            case "F": sex[person.treeID] = .female
            case "M": sex[person.treeID] = .male
            default: break
            }
        }
        return sex
    }

    /// Someone named in a command: `me`, a person's number (`#3` or `3`), a member's name, or
    /// the name of a person who is not a user (when only one has it).
    func resolve(_ word: String, me: Int64, familyName: String) throws -> Int64 {
        if word.lowercased() == "me" { return me }
        if let number = FamilyPeopleCommands.number(word) {
            guard let person = people.first(where: { $0.id == number }) else {
                throw BotError("\(familyName) has no person #\(number) — !person lists them")
            }
            return person.treeID
        }
        if let member = members.first(where: { $0.name.lowercased() == word.lowercased() }) { return member.accountId }
        let named = unclaimed.filter { $0.name.lowercased() == word.lowercased() }
        if named.count == 1 { return named[0].treeID }
        if named.count > 1 {
            throw BotError("several people are called \(word): " + named.map { "#\($0.id)" }.joined(separator: ", "))
        }
        // A first name alone is the usual slip: say what does name someone.
        throw BotError(
            "\(word) is not in \(familyName) — name someone by number (#3) or full name in quotes; "
                + "!person lists the people, !tree members the users")
    }

    /// "parent of alice", "partner of bob (married 1955 in Lyon)", "child of gran": `id`'s links.
    func ties(_ id: Int64) -> [String] {
        links.compactMap { link in
            switch link.kind {
            case .parent where link.from == id: "parent of \(name(link.to))"
            case .parent where link.to == id: "child of \(name(link.from))"
            case .partner where link.from == id || link.to == id:
                "partner of \(name(link.from == id ? link.to : link.from))" + marriage(link)
            case .sibling where link.from == id || link.to == id:
                "sibling of \(name(link.from == id ? link.to : link.from))"
            default: nil
            }
        }
    }

    /// " (married 1955 in Lyon)" for partners with a date or place.
    func marriage(_ link: FamilyLink) -> String {
        guard link.date != nil || link.place != nil else { return "" }
        return " (married" + (link.date.map { " \($0)" } ?? "") + (link.place.map { " in \($0)" } ?? "") + ")"
    }
}
