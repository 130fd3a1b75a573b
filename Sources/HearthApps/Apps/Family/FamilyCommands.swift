import Foundation
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthProtocol
import HearthStore

/// Family trees (AppleTree): found a family, invite with codes, link relationships, show the
/// tree, leave home and found your own household.
public enum FamilyCommands {
    static let group = "family"
    static let inviteLifetime: TimeInterval = 7 * 24 * 3600
    static let inviteGroups = 3
    static let maxName = 40
    /// Open invites one family may have at once.
    static let maxOpenInvites = 20
    /// Families one account may have founded (each is a private channel it is joined to).
    static let maxFamiliesFounded = 5

    /// Each family's private channel.
    public static func channelName(_ familyID: Int64) -> String { "#family-\(familyID)" }
    /// Nobody makes a `#family-…` channel: only the family's own exists, for its members.
    static let reservedChannels = ReservedChannels(prefix: "#family-", refusal: "it is a family's private channel")

    static func guarded(_ family: Stored<FamilyRecord>, members: Set<Int64>) -> GuardedChannel {
        guarded(id: family.id, name: family.name, members: members)
    }

    static func guarded(id: Int64, name: String, members: Set<Int64>) -> GuardedChannel {
        GuardedChannel(name: channelName(id), members: members, topic: "\(name) — family only", owner: name)
    }

    /// Every family's channel with its members, when the server starts.
    static func guardedChannels(_ services: BotServices) async throws -> [GuardedChannel] {
        let members = try await services.store.allFamilyMembers()
        return try await services.store.allFamilies().map { guarded($0, members: members[$0.id] ?? []) }
    }

    /// Effects after a family's membership changed: its channel's guest list, and joining it.
    static func membershipEffects(_ request: BotRequest, _ family: Stored<FamilyRecord>, joining: Int64?) async throws
        -> [SessionEffect]
    {
        try await membershipEffects(request.services, family, joining: joining)
    }

    static func membershipEffects(_ services: BotServices, _ family: Stored<FamilyRecord>, joining: Int64?)
        async throws -> [SessionEffect]
    {
        let members = try await services.store.familyMemberIDs(family.id)
        var effects: [SessionEffect] = [.guardedChannel(guarded(family, members: members))]
        if let joining { effects.append(.joinChannels(accountID: joining, names: [channelName(family.id)])) }
        return effects
    }

    /// After an account was deleted: each of its families' channels keeps only its members (the
    /// account's connections, now guests, leave), and a new founder is told, there and in person.
    static func onAccountDeleted(_ services: BotServices, _ account: AccountRef, _ deletion: AccountDeletion)
        async throws -> [SessionEffect]
    {
        var effects: [SessionEffect] = []
        for departure in deletion.families {
            let members = departure.removed ? [] : try await services.store.familyMemberIDs(departure.familyId)
            effects.append(.guardedChannel(guarded(id: departure.familyId, name: departure.name, members: members)))
            guard let heir = departure.newFounderId, let name = try await services.store.account(id: heir)?.name
            else { continue }
            effects.append(
                .notify(
                    accountID: heir,
                    text: "\(account.name) deleted their account: you are now the founder of \(departure.name)."))
            effects.append(
                .channelMessage(
                    nameKey: IRCNames.fold(channelName(departure.familyId)),
                    text: "\(account.name) deleted their account; \(name) is now the founder of \(departure.name)."))
        }
        return effects
    }

    /// On login: into every family channel; and today's birthdays there, if not announced yet.
    static func onLogin(_ services: BotServices, _ account: AccountRef) async throws -> [SessionEffect] {
        let families = try await services.store.families(of: account.id)
        if families.isEmpty { return [] }
        return [.joinChannels(accountID: account.id, names: families.map { channelName($0.id) })]
            + (try await FamilyDays.announce(services, only: families))
    }

    static func familyNameProblem(_ name: String) -> String? {
        (2...maxName).contains(name.count) ? nil : "a family name has 2 to \(maxName) characters"
    }

    /// The account setting holding the family chosen with `!tree use` (a family's number).
    static let choiceKey = "family.current"

    /// The caller's current family: the one whose channel the command is said in; else the one
    /// chosen with `!tree use` (while still in it); else the one they joined or founded last.
    static func current(_ request: BotRequest) async throws -> (AccountRef, Stored<FamilyRecord>) {
        let me = try request.account()
        let store = request.services.store
        let families = try await store.families(of: me.id)
        guard let newest = families.first else {
            throw BotError("you are in no family yet — !tree new NAME founds one, !tree join CODE joins one")
        }
        if let channel = request.caller.channel, let id = familyID(channel: channel),
            let here = families.first(where: { $0.id == id })
        {
            return (me, here)
        }
        let choice = try await store.settings(me.id)[choiceKey].flatMap { Int64($0) }
        return (me, families.first { $0.id == choice } ?? newest)
    }

    /// The family a command names by its channel as its first word (`!post #family-12 hi`, what
    /// the web's forms say), else the current one; `skip` is how many words named it.
    static func target(_ request: BotRequest) async throws -> (me: AccountRef, family: Stored<FamilyRecord>, skip: Int)
    {
        guard let first = request.words.first, let id = familyID(channel: first) else {
            let (me, family) = try await current(request)
            return (me, family, 0)
        }
        let me = try request.account()
        guard let family = try await visibleFamily(request.services.store, viewer: me.id, id) else {
            throw BotError("you are not in \(first) — !tree families lists yours")
        }
        return (me, family, 1)
    }

    /// " · page: URL" of the family's page, only where all who read it may open it (the page is
    /// its members'): privately or in the family's own channel; elsewhere nothing.
    static func pageLink(_ request: BotRequest, _ family: Stored<FamilyRecord>) -> String {
        linkable(request, family) ? request.pageLink("/family/\(family.id)") : ""
    }

    static func linkable(_ request: BotRequest, _ family: Stored<FamilyRecord>) -> Bool {
        request.caller.channel.map { familyID(channel: $0) == family.id } ?? true
    }

    /// The family number in a family channel's name (`#family-12`), any case.
    static func familyID(channel: String) -> Int64? {
        let folded = IRCNames.fold(channel)
        guard folded.hasPrefix("#family-"), let id = Int64(folded.dropFirst("#family-".count)), id > 0 else {
            return nil
        }
        return id
    }

    /// Whether `viewer` (nil: someone not logged in) is in the family: the one rule for seeing a
    /// family's tree, feed and places, in chat and on the web.
    static func isMember(_ store: Store, viewer: Int64?, of familyID: Int64) async throws -> Bool {
        guard let viewer else { return false }
        return try await store.familyRole(familyID, accountID: viewer) != nil
    }

    /// A family `viewer` may see (is in): nil when there is none or they are not in it.
    static func visibleFamily(_ store: Store, viewer: Int64?, _ id: Int64) async throws -> Stored<FamilyRecord>? {
        guard try await isMember(store, viewer: viewer, of: id) else { return nil }
        return try await store.family(id: id)
    }

    static func member(_ request: BotRequest, _ family: Stored<FamilyRecord>, _ name: String) async throws
        -> FamilyMember
    {
        let members = try await request.services.store.familyMembers(family.id)
        guard let found = members.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw BotError("\(name) is not in \(family.name) — !tree members lists who is")
        }
        return found
    }

    static let tree = BotCommand(
        "tree", group: group,
        usage:
            "[image · families · use FAMILY · new NAME · invite [as parent|child|partner|sibling] · invites · revoke "
            + "CODE · join CODE · members · link WHO RELATION [of WHO] [married DATE [in PLACE]] · how WHO WHO · "
            + "leave · remove USER · role USER admin|member · independent [NAME]]",
        summary: "your family tree: found one, invite people with codes, link them, leave home",
        example: "!tree invite as child", arity: 0...Int.max, secretSubcommands: ["join", "revoke"]
    ) { request in
        let words = request.words
        switch words.first?.lowercased() {
        case nil: return try await show(request)
        case "new": return try await found(request, name: request.input.text(after: 1), parent: nil)
        case "invite": return try await invite(request)
        case "invites": return try await invites(request)
        case "revoke": return try await revoke(request)
        case "join": return try await join(request)
        case "members": return try await members(request)
        case "link": return try await link(request)
        case "how": return try await how(request)
        case "leave": return try await leave(request)
        case "remove": return try await remove(request)
        case "role": return try await role(request)
        case "independent": return try await independent(request)
        case "image": return try await image(request)
        case "use": return try await use(request)
        case "families": return try await families(request)
        case let other?: throw request.usageError("\(other) is not a !tree command")
        }
    }

    static func found(_ request: BotRequest, name: String, parent: Stored<FamilyRecord>?) async throws -> BotResponse {
        let me = try request.account()
        let name = name.trimmingCharacters(in: .whitespaces)
        if let problem = familyNameProblem(name) { throw request.usageError(problem) }
        let family: Stored<FamilyRecord>
        do {
            family = try await request.services.store.foundFamily(
                name: name, founderID: me.id, parentFamilyID: parent?.id, maxFounded: maxFamiliesFounded,
                now: request.services.clock.now())
        } catch FamilyError.foundedTooMany {
            throw BotError("you founded \(maxFamiliesFounded) families already, the most one account may")
        }
        try await choose(request.services, me.id, family)
        let brought = try await MealPlanCommands.bringOwnList(request.services, accountID: me.id, to: family.id)
        let lines = try await newInvite(request, family, me, relation: nil)
        let lead =
            parent.map { "You left home: \(name) is your own household, still connected to \($0.name)." }
            ?? "You founded \(name)."
        return BotResponse(
            [
                "\(lead) Its private channel is \(channelName(family.id)). "
                    + "Invite people with !tree invite [as parent|child|partner|sibling]."
                    + (request.caller.channel != nil ? " (Your first invite code came privately.)" : "")
            ] + brought,
            privateLines: lines, effects: try await membershipEffects(request, family, joining: me.id))
    }

    static func newInvite(
        _ request: BotRequest, _ family: Stored<FamilyRecord>, _ me: AccountRef, relation: FamilyRelation?
    )
        async throws -> [String]
    {
        let store = request.services.store
        let now = request.services.clock.now()
        if try await store.familyInvites(family.id, now: now).count >= maxOpenInvites {
            throw BotError("\(family.name) has \(maxOpenInvites) open invites; !tree revoke some first")
        }
        let code = SecretCodes.code(groups: inviteGroups)
        let number = try await store.addFamilyInvite(
            FamilyInvite(
                codeHash: request.services.codes.hash(inviteKey(code)), familyId: family.id, inviterId: me.id,
                relation: relation, expiresAt: now.addingTimeInterval(inviteLifetime)), now: now)
        let role = relation.map { " as your \($0.rawValue)" } ?? ""
        return [
            "Invite code for \(family.name)\(role): \(code) — invite #\(number), it works once, for 7 days. "
                + "They type: !tree join \(code)"
        ]
    }

    /// What an invite code is hashed as (the prefix keeps it apart from other kinds of code).
    static func inviteKey(_ code: String) -> String { "family/" + SecretCodes.normalize(code) }

    static func invite(_ request: BotRequest) async throws -> BotResponse {
        let (me, family) = try await current(request)
        var relation: FamilyRelation?
        let words = request.words.dropFirst()
        if !words.isEmpty {
            guard words.count == 2, words.first?.lowercased() == "as",
                let named = FamilyRelation(rawValue: words.last!.lowercased())
            else {
                throw request.usageError("invite as parent, child, partner or sibling (or without a relationship)")
            }
            relation = named
        }
        let lines = try await newInvite(request, family, me, relation: relation)
        return BotResponse(
            request.caller.channel == nil ? [] : ["I sent you the invite code privately."], privateLines: lines)
    }

    static func invites(_ request: BotRequest) async throws -> BotResponse {
        let (_, family) = try await current(request)
        let now = request.services.clock.now()
        let open = try await request.services.store.familyInvites(family.id, now: now)
        if open.isEmpty { return BotResponse(["\(family.name) has no open invites — !tree invite makes one."]) }
        var lines = ["Open invites for \(family.name):"]
        for invite in open {
            let inviter = try await request.services.store.account(id: invite.inviterId)?.name ?? "?"
            let days = Int((invite.expiresAt.timeIntervalSince(now) / 86400).rounded(.up))
            let role = invite.relation.map { " as \($0.rawValue)" } ?? ""
            lines.append(
                "#\(invite.id)\(role) by \(inviter), expires in \(days) day\(days == 1 ? "" : "s") — !tree revoke "
                    + "\(invite.id)"
            )
        }
        return BotResponse(lines)
    }

    static func revoke(_ request: BotRequest) async throws -> BotResponse {
        let (_, family) = try await current(request)
        guard request.words.count == 2 else {
            throw request.usageError("revoke which invite? its number from !tree invites, or its code")
        }
        let word = request.words[1]
        let number = Int64(word.hasPrefix("#") ? String(word.dropFirst()) : word)
        let hashes = number == nil ? request.services.codes.candidates(inviteKey(word)) : []
        guard try await request.services.store.revokeFamilyInvite(id: number, codeHashes: hashes, familyID: family.id)
        else {
            throw BotError("\(family.name) has no open invite \(request.words[1])")
        }
        return BotResponse(["Invite \(request.words[1]) is cancelled."])
    }

    static func join(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        guard request.words.count == 2 else {
            throw request.usageError("join with the code you were given, e.g. !tree join K7QP-M2XD-9FWT")
        }
        return try await join(request.services, me, code: request.words[1], address: request.caller.address)
    }

    /// Uses up an invite code: `me` joins its family (`!tree join`, or `!register` with a code).
    static func join(_ services: BotServices, _ me: AccountRef, code: String, address: String) async throws
        -> BotResponse
    {
        // Guessing codes is slowed down like guessing passwords: per account and per address.
        let throttle = services.throttle
        let attempt: LoginThrottle.Attempt
        do {
            let keys = ["invite:\(me.id)", "addr:" + AddressGroup.key(address)]
            attempt = try await throttle.begin(keys: keys, clearedBySuccess: ["invite:\(me.id)"])
        } catch {
            throw BotError("too many wrong codes; try again in \(error.seconds) s")
        }
        var verdict: Bool?
        defer { throttle.finish(attempt, success: verdict) }
        let hashes = services.codes.candidates(inviteKey(code))
        do {
            let (family, relation, inviter) = try await services.store.joinFamily(
                codeHashes: hashes, accountID: me.id, now: services.clock.now())
            verdict = true
            try await choose(services, me.id, family)
            let brought = try await MealPlanCommands.bringOwnList(services, accountID: me.id, to: family.id)
            let inviterName = try await services.store.account(id: inviter)?.name ?? "someone"
            let role = relation.map { " as \(Words.possessive(inviterName)) \($0.rawValue)" } ?? ""
            return BotResponse(
                [
                    "Welcome to \(family.name)\(role)! !tree shows the family; "
                        + "its private channel is \(channelName(family.id))."
                ] + brought,
                effects: [
                    .notify(
                        accountID: inviter,
                        text: "\(me.name) joined \(family.name)\(relation.map { " as your \($0.rawValue)" } ?? "").")
                ]
                    + (try await membershipEffects(services, family, joining: me.id)))
        } catch FamilyError.notFound {
            verdict = false
            throw BotError("that code is unknown, used or expired — ask for a new one")
        } catch FamilyError.alreadyMember {
            throw BotError("you are in that family already")
        }
    }

    /// An invite code as handed out: three groups of four letters or digits.
    static func looksLikeInvite(_ word: String) -> Bool {
        let groups = word.split(separator: "-", omittingEmptySubsequences: false)
        return groups.count == inviteGroups
            && groups.allSatisfy { $0.count == 4 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    static func show(_ request: BotRequest) async throws -> BotResponse {
        let (_, family) = try await current(request)
        let lines = try await treeLines(request.services.store, family, style: request.style)
        return BotResponse(["\(request.style.bold(family.name))\(pageLink(request, family))"] + lines)
    }

    /// The family as a text tree, then the households connected to it by someone leaving home
    /// (what `!tree` shows under the family's name, and the web page too).
    static func treeLines(_ store: Store, _ family: Stored<FamilyRecord>, style: Style) async throws -> [String] {
        func render(_ family: Stored<FamilyRecord>) async throws -> [String] {
            let tree = try await FamilyTree.read(store, family)
            return FamilyTreeText.render(tree.nodes, links: tree.links)
        }
        var lines = try await render(family)
        // Households connected by someone leaving home.
        if let parentID = family.parentFamilyId, let parent = try await store.family(id: parentID) {
            let founder = try await store.account(id: family.founderId)?.name ?? "?"
            lines.append(style.dim("\(founder) left home from \(parent.name):"))
            lines += try await render(parent).map { "   " + $0 }
        }
        for child in try await store.childFamilies(of: family.id) {
            let founder = try await store.account(id: child.founderId)?.name ?? "?"
            lines.append(style.dim("\(Words.possessive(founder)) own household, \(child.name):"))
            lines += try await render(child).map { "   " + $0 }
        }
        return lines
    }

    static func members(_ request: BotRequest) async throws -> BotResponse {
        let (_, family) = try await current(request)
        let members = try await request.services.store.familyMembers(family.id)
        return BotResponse([
            "\(request.style.bold(family.name)) (\(members.count)): "
                + members.map { $0.role == .member ? $0.name : "\($0.name) (\($0.role.rawValue))" }.joined(
                    separator: ", ")
        ])
    }

    /// `!tree link WHO RELATION [of WHO] [married DATE [in PLACE]]`: WHO is the RELATION of the
    /// second (the caller when not said), e.g. `!tree link bob child` (bob is my child),
    /// `!tree link #3 parent of alice`, `!tree link bob partner of #4 married 1955 in Lyon`.
    static func link(_ request: BotRequest) async throws -> BotResponse {
        let (me, family) = try await current(request)
        let words = Array(request.words.dropFirst())
        let usage =
            "link WHO parent|child|partner|sibling [of WHO] [married DATE [in PLACE]] — e.g. !tree link bob child "
            + "(bob is your child), !tree link #3 parent of alice"
        guard words.count >= 2, let relation = FamilyRelation(rawValue: words[1].lowercased()) else {
            throw request.usageError(usage)
        }
        var rest = words.dropFirst(2)
        var second: String?
        if rest.first?.lowercased() == "of" {
            guard rest.count >= 2 else { throw request.usageError(usage) }
            second = rest.dropFirst().first
            rest = rest.dropFirst(2)
        }
        var (date, place): (String?, String?) = (nil, nil)
        if rest.first?.lowercased() == "married" {
            guard relation == .partner else { throw BotError("only partners marry") }
            let facts = try FamilyPeopleCommands.facts(["born"] + rest.dropFirst(), leadingName: false).get()
            (date, place) = (facts.born, facts.bornPlace)
            rest = []
        }
        guard rest.isEmpty else { throw request.usageError(usage) }
        let tree = try await FamilyTree.read(request.services.store, family)
        let one = try tree.resolve(words[0], me: me.id, familyName: family.name)
        let other = try second.map { try tree.resolve($0, me: me.id, familyName: family.name) } ?? me.id
        let store = request.services.store
        do {
            switch relation {
            case .parent: try await store.link(family.id, from: one, to: other, kind: .parent, date: nil, place: nil)
            case .child: try await store.link(family.id, from: other, to: one, kind: .parent, date: nil, place: nil)
            case .partner:
                try await store.link(family.id, from: one, to: other, kind: .partner, date: date, place: place)
            case .sibling: try await store.link(family.id, from: one, to: other, kind: .sibling, date: nil, place: nil)
            }
        } catch FamilyError.selfLink {
            throw BotError("\(second == nil ? "you can't be your" : "nobody is their") own \(relation.rawValue)")
        } catch FamilyError.wouldCycle {
            throw BotError("that would make someone their own ancestor")
        } catch FamilyError.notMember {
            throw BotError("a member who is a person already is linked by their name")
        }
        let whose = second == nil ? "your" : Words.possessive(tree.name(other))
        let married =
            relation == .partner
            ? tree.marriage(FamilyLink(from: 0, to: 0, kind: .partner, date: date, place: place)) : ""
        return BotResponse(["\(tree.name(one)) is now \(whose) \(relation.rawValue)\(married) in \(family.name)."])
    }

    /// `!tree how A B`: how B is related to A ("eve is alice's daughter-in-law"), with the common
    /// ancestors of a blood relation, or the partner an in-law or step-relation goes through.
    static func how(_ request: BotRequest) async throws -> BotResponse {
        let (me, family) = try await current(request)
        guard request.words.count == 3 else {
            throw request.usageError("how WHO WHO — e.g. !tree how alice eve")
        }
        let tree = try await FamilyTree.read(request.services.store, family)
        let a = try tree.resolve(request.words[1], me: me.id, familyName: family.name)
        let b = try tree.resolve(request.words[2], me: me.id, familyName: family.name)
        guard a != b else { return BotResponse(["That is one person."]) }
        guard let relation = FamilyKinship.relation(of: b, to: a, links: tree.links, sex: tree.sex) else {
            return BotResponse([
                "\(tree.name(a)) and \(tree.name(b)) are not related in \(Words.possessive(family.name)) tree."
            ])
        }
        var line = "\(tree.name(b)) is \(Words.possessive(tree.name(a))) \(relation.term)"
        if let through = relation.through { line += ", through \(tree.name(through))" }
        // Common ancestors other than the two (a grandmother is her grandchild's own ancestor).
        let ancestors = relation.commonAncestors.filter { $0 != a && $0 != b }
        if !ancestors.isEmpty {
            let names = ancestors.map(tree.name)
            line += " — common ancestor\(names.count == 1 ? "" : "s"): " + names.joined(separator: " and ")
        }
        return BotResponse([line + "."])
    }

    static func leave(_ request: BotRequest) async throws -> BotResponse {
        let (me, family) = try await current(request)
        do {
            try await request.services.store.leaveFamily(family.id, accountID: me.id)
        } catch FamilyError.founderMustStay {
            throw BotError("you founded \(family.name), so you stay; !tree independent starts a household of your own")
        }
        return BotResponse(
            ["You left \(family.name)."], effects: try await membershipEffects(request, family, joining: nil))
    }

    static func remove(_ request: BotRequest) async throws -> BotResponse {
        let (me, family) = try await current(request)
        guard request.words.count == 2 else { throw request.usageError("remove whom?") }
        let role = try await request.services.store.familyRole(family.id, accountID: me.id)
        guard role == .founder || role == .admin else {
            throw BotError("only the founder of \(family.name) can remove people")
        }
        let other = try await member(request, family, request.words[1])
        if other.accountId == me.id { throw BotError("to go yourself: !tree leave") }
        do {
            try await request.services.store.leaveFamily(family.id, accountID: other.accountId)
        } catch FamilyError.founderMustStay {
            throw BotError("the founder stays")
        }
        return BotResponse(
            ["\(other.name) is no longer in \(family.name)."],
            effects: [.notify(accountID: other.accountId, text: "\(me.name) removed you from \(family.name).")]
                + (try await membershipEffects(request, family, joining: nil)))
    }

    /// `!tree role [#family-N] USER admin|member`: the founder and admins make a member an admin
    /// (who may then invite, remove and import as they do) or a plain member again; the founder
    /// stays the founder.
    static func role(_ request: BotRequest) async throws -> BotResponse {
        var words = Array(request.words.dropFirst())
        let me = try request.account()
        let store = request.services.store
        let family: Stored<FamilyRecord>
        if let first = words.first, let id = familyID(channel: first) {
            guard let named = try await visibleFamily(store, viewer: me.id, id) else {
                throw BotError("you are not in \(first) — !tree families lists yours")
            }
            (family, words) = (named, Array(words.dropFirst()))
        } else {
            family = try await current(request).1
        }
        guard words.count == 2, let role = FamilyRole(rawValue: words[1].lowercased()), role != .founder else {
            throw request.usageError("role USER admin, or role USER member, e.g. !tree role bob admin")
        }
        let mine = try await store.familyRole(family.id, accountID: me.id)
        guard mine == .founder || mine == .admin else {
            throw BotError("only the founder or an admin of \(family.name) can change who is an admin")
        }
        let other = try await member(request, family, words[0])
        if other.role == .founder { throw BotError("\(other.name) founded \(family.name) and stays its founder") }
        let said = role == .admin ? "an admin" : "a member"
        if other.role == role { return BotResponse(["\(other.name) is \(said) of \(family.name) already."]) }
        guard try await store.setFamilyRole(family.id, accountID: other.accountId, to: role) else {
            throw BotError("\(other.name) is not in \(family.name) — !tree members lists who is")
        }
        let news = role == .admin ? "is now an admin of" : "is a member of \(family.name) again, no longer an admin of"
        return BotResponse(
            ["\(other.name) \(news) \(family.name)."],
            effects: other.accountId == me.id
                ? []
                : [.notify(accountID: other.accountId, text: "\(me.name) made you \(said) of \(family.name).")])
    }

    static func independent(_ request: BotRequest) async throws -> BotResponse {
        let (me, family) = try await current(request)
        let name = request.words.count > 1 ? request.input.text(after: 1) : "\(Words.possessive(me.name)) household"
        return try await found(request, name: name, parent: family)
    }

    /// `!tree families`: the caller's families, the current one marked.
    static func families(_ request: BotRequest) async throws -> BotResponse {
        let (_, current) = try await current(request)
        let me = try request.account()
        let lines = try await request.services.store.families(of: me.id).map { family in
            (family.id == current.id ? "→ " : "  ") + "\(family.name) \(channelName(family.id))"
        }
        return BotResponse(
            lines + [
                request.style.dim("!tree use FAMILY switches; in a family's channel, it is that one")
            ])
    }

    /// `!tree use FAMILY` (its name, number or channel): the family commands act on it from now on.
    static func use(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        let named = request.input.text(after: 1)
        guard !named.isEmpty else { throw request.usageError("use which family? !tree families lists yours") }
        let store = request.services.store
        let families = try await store.families(of: me.id)
        let number = familyID(channel: named) ?? Int64(named.hasPrefix("#") ? String(named.dropFirst()) : named)
        guard
            let family = families.first(where: { $0.id == number })
                ?? families.first(where: { $0.name.lowercased() == named.lowercased() })
        else { throw BotError("you are not in a family called \(named) — !tree families lists yours") }
        try await store.setSetting(me.id, key: choiceKey, value: String(family.id))
        return BotResponse(["Family commands now act on \(family.name)." + pageLink(request, family)])
    }

    /// A family just founded or joined becomes the current one (as before any `!tree use`).
    static func choose(_ services: BotServices, _ accountID: Int64, _ family: Stored<FamilyRecord>) async throws {
        try await services.store.setSetting(accountID, key: choiceKey, value: String(family.id))
    }

    static func image(_ request: BotRequest) async throws -> BotResponse {
        let (_, family) = try await current(request)
        let store = request.services.store
        let media = try PictureCommands.media(request)
        let tree = try await FamilyTree.read(store, family)
        let picture = try await treePicture(store, media: media, family, tree: tree)
        return BotResponse([
            "\(request.style.bold(family.name)) as a picture (\(tree.nodes.count) people): \(media.url(picture))"
                + pageLink(request, family)
        ])
    }

    /// The family tree as a picture, drawn once per tree (names, roles, links) and kept: `!tree
    /// image` and the family's web page show the same one. The founder owns it.
    static func treePicture(_ store: Store, media: MediaLibrary, _ family: Stored<FamilyRecord>, tree: FamilyTree)
        async throws -> ImageRecord
    {
        let links = tree.links
        let roles = Dictionary(tree.members.map { ($0.accountId, $0.role) }, uniquingKeysWith: { a, _ in a })
        let people = tree.nodes.map { node in
            let role = roles[node.id].flatMap { $0 == .member ? nil : $0.rawValue }
            return FamilyTreePicture.Person(
                id: node.id, name: tree.name(node.id), note: role ?? FamilyPeopleCommands.years(tree.facts(node.id)))
        }
        let parents = links.filter { $0.kind == .parent }.map { ($0.from, $0.to) }
        let partners = links.filter { $0.kind == .partner }.map { ($0.from, $0.to) }
        let key = Sodium.hashSecret(
            (["family-tree/v2", String(family.id), family.name]
                + people.map { "\($0.id):\($0.name):\($0.note ?? "")" }
                + parents.map { "p\($0.0)>\($0.1)" } + partners.map { "w\($0.0)-\($0.1)" })
                .joined(separator: "\u{0}"))
        return try await FortuneCommands.cachedPicture(store, media: media, key: key) {
            try await media.familyTree(
                title: family.name, people: people, parents: parents, partners: partners, ownerID: family.founderId)
        }
    }

    static let all: [BotCommand] = [tree]
}
