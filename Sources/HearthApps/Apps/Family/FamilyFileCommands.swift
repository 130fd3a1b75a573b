import Foundation
import HearthKit
import HearthStore

/// `!family export [7]|import|today`: the tree as a GEDCOM file (5.5.1, or 7.0) to take to other
/// genealogy programs (Gramps, webtrees) and back, and what happened on this day in earlier years.
enum FamilyFileCommands {
    static let family = BotCommand(
        "family", group: FamilyCommands.group, usage: "export [5.5.1|7] · import · today",
        summary: "your family tree as a GEDCOM file (export, import) and what happened on this day",
        example: "!family today", arity: 0...Int.max, requiresLogin: true
    ) { request in
        // The web's forms name the family by its channel: `!family import #family-12`.
        switch request.words.first?.lowercased() {
        case "export": return try await export(request)
        case "import": return try await importFile(request)
        case "today", nil: return try await FamilyDays.today(request)
        case "new":
            // What people try first: founding lives with the tree's other commands.
            let name = request.words.count > 1 ? request.input.text(after: 1) : "NAME"
            throw BotError("a family is founded with !tree new \(name) (!family is for export, import and today)")
        case let other? where treeWords.contains(other):
            throw request.usageError("\(other) is not a !family command — did you mean !tree \(other)?")
        case let other?: throw request.usageError("\(other) is not a !family command")
        }
    }

    static let all: [BotCommand] = [family]

    /// `!tree`'s subcommands someone may say to `!family` instead.
    static let treeWords: Set<String> = [
        "invite", "invites", "join", "members", "link", "how", "leave", "remove", "role", "independent", "use",
        "families", "image",
    ]

    /// The family a subcommand names by its channel after the subcommand, else the current one.
    static func target(_ request: BotRequest) async throws -> (AccountRef, Stored<FamilyRecord>) {
        guard request.words.count > 1, let id = FamilyCommands.familyID(channel: request.words[1]) else {
            return try await FamilyCommands.current(request)
        }
        let me = try request.account()
        guard let family = try await FamilyCommands.visibleFamily(request.services.store, viewer: me.id, id) else {
            throw BotError("you are not in \(request.words[1]) — !tree families lists yours")
        }
        return (me, family)
    }

    /// The file's address (a new one each time, so no copy kept along the way is an old tree);
    /// `version=7` asks for GEDCOM 7.0, else 5.5.1.
    static func exportPath(
        _ family: Stored<FamilyRecord>, at now: Date, version: FamilyGEDCOM.Version = .v551
    ) -> String {
        "/family/\(family.id)/tree.ged?at=\(Int(now.timeIntervalSince1970))" + (version == .v7 ? "&version=7" : "")
    }

    static func export(_ request: BotRequest) async throws -> BotResponse {
        let (_, family) = try await target(request)
        // `!family export [#family-N] [5.5.1|7]`: a word after the channel that is no version is a mistake.
        let rest = request.words.dropFirst().filter { FamilyCommands.familyID(channel: $0) == nil }
        guard rest.count <= 1, let version = rest.first.map(FamilyGEDCOM.Version.init(word:)) ?? .v551 else {
            throw request.usageError("!family export takes 5.5.1 or 7 (the GEDCOM version), or nothing for 5.5.1")
        }
        let tree = try await FamilyTree.read(request.services.store, family)
        let now = request.services.clock.now()
        guard let url = request.services.pageURL(exportPath(family, at: now, version: version)) else {
            throw BotError("this server has no web pages to download the file from")
        }
        // Said in another channel, the answer is private (`FamilyPrivacy`): the link is the family's.
        return BotResponse([
            "\(family.name) as a GEDCOM \(version.rawValue) file (\(tree.nodes.count) people, for Gramps, "
                + "webtrees and others): \(url)"
        ])
    }

    /// The file, for `tree.ged`: members only (the page's rule).
    static func file(
        _ store: Store, _ family: Stored<FamilyRecord>, now: Date, version: FamilyGEDCOM.Version = .v551
    ) async throws -> String {
        let tree = try await FamilyTree.read(store, family)
        let founder = try await store.account(id: family.founderId)?.name ?? family.name
        return FamilyGEDCOM.export(tree, familyName: family.name, submitter: founder, now: now, version: version)
    }

    static func importFile(_ request: BotRequest) async throws -> BotResponse {
        let (me, family) = try await target(request)
        let store = request.services.store
        let role = try await store.familyRole(family.id, accountID: me.id)
        guard role == .founder || role == .admin else {
            throw BotError("only the founder or an admin of \(family.name) imports a file")
        }
        guard !request.input.block.isEmpty else {
            let link = request.services.pageURL("/family/\(family.id)#import").map { ": \($0)" } ?? ""
            return BotResponse([
                "Chat carries no files: upload the .ged file on \(Words.possessive(family.name)) page\(link)"
            ])
        }
        let text = request.input.block.joined(separator: "\n")
        let plan: FamilyGEDCOM.Plan
        do { plan = try FamilyGEDCOM.plan(Array(text.utf8)) } catch { throw BotError("not imported: " + error.message) }
        return BotResponse([try await apply(plan, store, family, by: me.id, now: request.services.clock.now())])
    }

    /// Adds the plan's people (those not in the tree already: the same name and birth date)
    /// and their ties; a tie the tree refuses (one making someone their own ancestor) is
    /// counted, not kept. Nothing is written when the family would hold too many people. One
    /// store call, one transaction (`FamilyStore.importFamily`), however large the file.
    static func apply(
        _ plan: FamilyGEDCOM.Plan, _ store: Store, _ family: Stored<FamilyRecord>, by accountID: Int64, now: Date
    ) async throws -> String {
        let outcome: FamilyImport.Outcome
        do {
            outcome = try await store.importFamily(
                family.id, people: plan.people, ties: plan.ties, by: accountID, now: now)
        } catch FamilyPersonError.tooManyToImport(let count, let adding) {
            throw BotError(
                "not imported: \(family.name) holds \(count) people and the file adds \(adding); "
                    + "a family holds at most \(FamilyPersonRules.maxPeople)")
        }
        let (added, refused) = (outcome.tiesAdded, outcome.refused)
        var parts = [
            "Imported into \(family.name): \(Words.counted(outcome.peopleAdded, "person", plural: "people")) added, "
                + "\(plan.people.count - outcome.peopleAdded) already in the tree, \(Words.counted(added, "tie")) added"
        ]
        if refused > 0 { parts.append("\(refused) refused (someone would be their own ancestor)") }
        if plan.approximated > 0 {
            parts.append(
                "\(Words.counted(plan.approximated, "date")) approximated (ABT, BEF, BET …: the first date kept)")
        }
        if plan.droppedDates > 0 { parts.append("\(Words.counted(plan.droppedDates, "date")) not kept") }
        if plan.shortened > 0 { parts.append("\(plan.shortened) names or places shortened") }
        if let ignored = plan.ignoredText { parts.append(ignored) }
        return parts.joined(separator: "; ") + "."
    }
}
