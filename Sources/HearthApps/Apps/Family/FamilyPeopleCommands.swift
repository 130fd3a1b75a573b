import Foundation
import HearthKit
import HearthStore

/// People in a family's tree who are not users (`!person`): ancestors, the dead, children too
/// young for an account, with their births and deaths; and a member's own facts (`!person me`).
/// A member claims a person as their account with the family's consent: a founder or admin
/// claims at once; anyone else asks, and a founder or admin approves (docs/COMMANDS.md).
enum FamilyPeopleCommands {
    static let person = BotCommand(
        "person", group: FamilyCommands.group,
        usage: "[add NAME FACTS · N [FACTS] · me FACTS · remove N · claim N · approve N] — FACTS: "
            + "[sex f|m] [born DATE [in PLACE]] [died DATE [in PLACE]]",
        summary: "people in your family tree who are not users: ancestors, the dead, young children",
        example: "!person add \"Rose Smith\" born 1931 in Lyon died 2019", arity: 0...Int.max
    ) { request in
        let words = request.words
        switch words.first?.lowercased() {
        case nil: return try await list(request)
        case "add": return try await add(request)
        case "me": return try await me(request)
        case "remove": return try await remove(request)
        case "claim": return try await claim(request)
        case "approve": return try await approve(request)
        case let first?:
            guard let number = number(first) else { throw request.usageError("\(first) is not a !person command") }
            return words.count == 1 ? try await show(request, number) : try await edit(request, number)
        }
    }

    static let all: [BotCommand] = [person]

    /// "3" or "#3": a person's number.
    static func number(_ word: String) -> Int64? {
        Int64(word.hasPrefix("#") ? String(word.dropFirst()) : word).flatMap { $0 > 0 ? $0 : nil }
    }

    /// What `!person` facts say, each nil when not said.
    struct Facts: Equatable {
        var name: String?
        var sex: String?
        var born: String?
        var bornPlace: String?
        var died: String?
        var diedPlace: String?

        func apply(to person: inout FamilyPerson) {
            if let name { person.name = name }
            if let sex { person.sex = sex }
            if let born { person.born = born }
            if let bornPlace { person.bornPlace = bornPlace }
            if let died { person.died = died }
            if let diedPlace { person.diedPlace = diedPlace }
        }
    }

    static let keywords: Set<String> = ["born", "died", "sex", "name"]

    /// Reads `[NAME WORDS] [name NAME] [sex f|m] [born DATE [in PLACE]] [died DATE [in PLACE]]`;
    /// `leadingName`: the words before the first keyword are the name. A problem is a message.
    static func facts(_ words: [String], leadingName: Bool) -> Result<Facts, BotError> {
        var facts = Facts()
        var index = 0
        func upToKeyword() -> String {
            var taken: [String] = []
            while index < words.count, !keywords.contains(words[index].lowercased()) {
                taken.append(words[index])
                index += 1
            }
            return taken.joined(separator: " ")
        }
        if leadingName {
            let name = upToKeyword()
            if !name.isEmpty { facts.name = name }
        }
        while index < words.count {
            let keyword = words[index].lowercased()
            index += 1
            switch keyword {
            case "name":
                facts.name = upToKeyword()
            case "sex":
                guard index < words.count, ["f", "m"].contains(words[index].lowercased()) else {
                    return .failure(BotError("sex is f or m"))
                }
                facts.sex = words[index].uppercased()
                index += 1
            case "born", "died":
                guard index < words.count, let date = FamilyPersonRules.date(words[index]) else {
                    return .failure(BotError("\(keyword) takes a date: 1931, 1931-05 or 1931-05-02"))
                }
                index += 1
                var place: String?
                if index < words.count, words[index].lowercased() == "in" {
                    index += 1
                    place = upToKeyword()
                    if place!.isEmpty || place!.count > FamilyPersonRules.maxPlace {
                        return .failure(BotError("a place has 1 to \(FamilyPersonRules.maxPlace) characters"))
                    }
                }
                if keyword == "born" {
                    (facts.born, facts.bornPlace) = (date, place)
                } else {
                    (facts.died, facts.diedPlace) = (date, place)
                }
            default:
                return .failure(BotError("say born, died, sex or name, not \(words[index - 1])"))
            }
        }
        if let name = facts.name, !(1...FamilyPersonRules.maxName).contains(name.count) {
            return .failure(BotError("a name has 1 to \(FamilyPersonRules.maxName) characters"))
        }
        return .success(facts)
    }

    static func add(_ request: BotRequest) async throws -> BotResponse {
        // The web's form names the family by its channel: `!person add #family-12 NAME …`.
        var words = Array(request.words.dropFirst())
        let (me, family): (AccountRef, Stored<FamilyRecord>)
        if let first = words.first, let id = FamilyCommands.familyID(channel: first) {
            me = try request.account()
            guard let named = try await FamilyCommands.visibleFamily(request.services.store, viewer: me.id, id) else {
                throw BotError("you are not in \(first) — !tree families lists yours")
            }
            (family, words) = (named, Array(words.dropFirst()))
        } else {
            (me, family) = try await FamilyCommands.current(request)
        }
        let facts = try facts(words, leadingName: true).get()
        guard let name = facts.name else {
            throw request.usageError("add whom? e.g. !person add \"Rose Smith\" born 1931 in Lyon died 2019")
        }
        var person = FamilyPerson(
            familyId: family.id, name: name, addedBy: me.id, createdAt: request.services.clock.now())
        facts.apply(to: &person)
        do {
            person = try await request.services.store.addFamilyPerson(person)
        } catch FamilyPersonError.tooMany {
            throw BotError("\(family.name) holds \(FamilyPersonRules.maxPeople) people, the most a family may")
        }
        return BotResponse([
            "\(describe(person)) is person #\(person.id) in \(family.name). Link them: !tree link #\(person.id) "
                + "parent of NAME"
        ])
    }

    static func people(_ request: BotRequest, _ family: Stored<FamilyRecord>) async throws -> [FamilyPerson] {
        try await request.services.store.familyPeople(family.id)
    }

    static func find(_ request: BotRequest, _ family: Stored<FamilyRecord>, _ number: Int64) async throws
        -> FamilyPerson
    {
        guard let found = try await people(request, family).first(where: { $0.id == number }) else {
            throw BotError("\(family.name) has no person #\(number) — !person lists them")
        }
        return found
    }

    static func list(_ request: BotRequest) async throws -> BotResponse {
        let (_, family) = try await FamilyCommands.current(request)
        let people = try await people(request, family).filter { $0.accountId == nil }
        if people.isEmpty {
            return BotResponse(["\(family.name) has no people who are not users — !person add NAME adds one."])
        }
        return BotResponse(["People in \(family.name) who are not users:"] + people.map { "#\($0.id) " + describe($0) })
    }

    static func show(_ request: BotRequest, _ number: Int64) async throws -> BotResponse {
        let (_, family) = try await FamilyCommands.current(request)
        let person = try await find(request, family, number)
        let tree = try await FamilyTree.read(request.services.store, family)
        var line = "#\(person.id) \(describe(person))"
        if let account = person.accountId { line += " — the member \(tree.name(account))" }
        let ties = tree.ties(person.treeID)
        if !ties.isEmpty { line += " · " + ties.joined(separator: ", ") }
        return BotResponse([line])
    }

    static func edit(_ request: BotRequest, _ number: Int64) async throws -> BotResponse {
        let (me, family) = try await FamilyCommands.current(request)
        var person = try await find(request, family, number)
        // A member's own facts are theirs (or the founder's and admins') to change.
        if let owner = person.accountId, owner != me.id,
            !consents(try await request.services.store.familyRole(family.id, accountID: me.id))
        {
            throw BotError("#\(number) is a member: only they, the founder or an admin can change their facts")
        }
        let facts = try facts(Array(request.words.dropFirst()), leadingName: false).get()
        facts.apply(to: &person)
        try await request.services.store.updateFamilyPerson(person)
        return BotResponse(["#\(person.id) is now: \(describe(person))"])
    }

    /// `!person me FACTS`: the caller's own facts in the current family (made on first use).
    static func me(_ request: BotRequest) async throws -> BotResponse {
        let (me, family) = try await FamilyCommands.current(request)
        let facts = try facts(Array(request.words.dropFirst()), leadingName: false).get()
        let store = request.services.store
        if var mine = try await people(request, family).first(where: { $0.accountId == me.id }) {
            facts.apply(to: &mine)
            try await store.updateFamilyPerson(mine)
            return BotResponse(["You in \(family.name): \(describe(mine))"])
        }
        var mine = FamilyPerson(
            familyId: family.id, name: me.name, accountId: me.id, addedBy: me.id,
            createdAt: request.services.clock.now())
        facts.apply(to: &mine)
        mine.name = me.name
        mine = try await store.addFamilyPerson(mine)
        return BotResponse(["You in \(family.name): \(describe(mine))"])
    }

    static func remove(_ request: BotRequest) async throws -> BotResponse {
        let (me, family) = try await FamilyCommands.current(request)
        guard request.words.count == 2, let number = number(request.words[1]) else {
            throw request.usageError("remove which person? their number from !person")
        }
        let person = try await find(request, family, number)
        let role = try await request.services.store.familyRole(family.id, accountID: me.id)
        guard person.addedBy == me.id || role == .founder || role == .admin else {
            throw BotError("only whoever added #\(number), or the founder or an admin, can remove them")
        }
        guard try await request.services.store.removeFamilyPerson(id: number, familyID: family.id) else {
            throw BotError("#\(number) is a member now; they leave with !tree leave")
        }
        return BotResponse(["\(person.name) (#\(number)) is no longer in \(Words.possessive(family.name)) tree."])
    }

    /// Whether `role` may give a person to a member (the family's consent).
    static func consents(_ role: FamilyRole?) -> Bool { role == .founder || role == .admin }

    static func claim(_ request: BotRequest) async throws -> BotResponse {
        let (me, family) = try await FamilyCommands.current(request)
        guard request.words.count == 2, let number = number(request.words[1]) else {
            throw request.usageError("claim which person? their number from !person")
        }
        var person = try await find(request, family, number)
        if person.accountId != nil { throw BotError("#\(number) is someone's account already") }
        if let other = person.claimantId, other != me.id {
            throw BotError("someone else has asked to be #\(number) already; the founder or an admin decides first")
        }
        let store = request.services.store
        let role = try await store.familyRole(family.id, accountID: me.id)
        if consents(role) { return try await give(request, family, person, to: me.id, name: me.name) }
        person.claimantId = me.id
        try await store.updateFamilyPerson(person)
        let deciders = try await store.familyMembers(family.id).filter { consents($0.role) }
        return BotResponse(
            [
                "You asked to be \(person.name) (#\(number)) in \(family.name); the founder or an admin approves "
                    + "with !person approve \(number)."
            ],
            effects: deciders.map {
                .notify(
                    accountID: $0.accountId,
                    text: "\(me.name) asks to be \(person.name) (#\(number)) in \(family.name): "
                        + "!person approve \(number)")
            })
    }

    static func approve(_ request: BotRequest) async throws -> BotResponse {
        let (me, family) = try await FamilyCommands.current(request)
        guard request.words.count == 2, let number = number(request.words[1]) else {
            throw request.usageError("approve which claim? the person's number")
        }
        guard consents(try await request.services.store.familyRole(family.id, accountID: me.id)) else {
            throw BotError("only the founder or an admin of \(family.name) approves claims")
        }
        let person = try await find(request, family, number)
        guard let claimant = person.claimantId,
            let name = try await request.services.store.account(id: claimant)?.name
        else { throw BotError("nobody asked to be #\(number)") }
        var response = try await give(request, family, person, to: claimant, name: name)
        response.effects.append(
            .notify(accountID: claimant, text: "\(me.name) approved: you are \(person.name) in \(family.name)."))
        return response
    }

    static func give(
        _ request: BotRequest, _ family: Stored<FamilyRecord>, _ person: FamilyPerson, to account: Int64, name: String
    ) async throws -> BotResponse {
        do {
            try await request.services.store.claimFamilyPerson(id: person.id, familyID: family.id, accountID: account)
        } catch FamilyPersonError.alreadyAPerson {
            throw BotError("\(name) is another person of \(family.name) already")
        } catch FamilyError.selfLink, FamilyError.wouldCycle {
            throw BotError("\(name) cannot be #\(person.id): they are linked to each other")
        }
        return BotResponse(["\(name) is now \(person.name) (#\(person.id)) in \(Words.possessive(family.name)) tree."])
    }

    /// "Rose Smith (F), born 1931 in Lyon, died 2019".
    static func describe(_ person: FamilyPerson) -> String {
        var parts = [person.name]
        if let born = person.born { parts.append("born \(born)" + (person.bornPlace.map { " in \($0)" } ?? "")) }
        if let died = person.died { parts.append("died \(died)" + (person.diedPlace.map { " in \($0)" } ?? "")) }
        return parts.joined(separator: ", ")
    }

    /// "1931–2019", "b. 1931", "† 2019", or nil: what the tree shows beside a name.
    static func years(_ person: FamilyPerson?) -> String? {
        guard let person else { return nil }
        func year(_ date: String?) -> String? { date.map { String($0.prefix(4)) } }
        switch (year(person.born), year(person.died)) {
        case (let born?, let died?): return "\(born)–\(died)"
        case (let born?, nil): return "b. \(born)"
        case (nil, let died?): return "† \(died)"
        case (nil, nil): return nil
        }
    }
}
