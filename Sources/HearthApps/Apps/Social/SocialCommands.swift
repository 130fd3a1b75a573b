import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// Profiles, bios, follows, friends, people search, blocking and settings.
enum SocialCommands {
    static let group = "friends"
    static let profileGroup = "profile"
    static let maxBioLength = 300
    static let maxFindPrefix = IRCLimits.nickLength

    /// The account called `name`, or an error that helps find the right one.
    static func person(_ request: BotRequest, _ name: String) async throws -> Stored<Account> {
        let key = IRCNames.fold(name)
        guard let account = try await request.services.store.account(nameKey: key) else {
            throw BotError("nobody is called \(name) — try !find \(String(name.prefix(3)))")
        }
        return account
    }

    /// A person other than the caller (following or blocking yourself makes no sense).
    static func other(_ request: BotRequest, _ me: AccountRef, _ name: String) async throws -> Stored<Account> {
        let account = try await person(request, name)
        if account.id == me.id { throw BotError("that's you!") }
        return account
    }

    /// Words of a list command: an optional name and an optional `>cursor`.
    static func listArguments(_ words: [String]) -> (name: String?, after: String?) {
        var name: String?
        var after: String?
        for word in words {
            if word.hasPrefix(">") { after = String(word.dropFirst()) } else { name = word }
        }
        return (name, after)
    }

    static func render(_ title: String, _ page: PeoplePage, more: String, style: Style) -> [String] {
        if page.names.isEmpty { return ["\(title): nobody yet."] }
        var lines = ["\(style.bold(title)): " + page.names.joined(separator: ", ")]
        if let next = page.next { lines.append(style.dim("more: \(more) >\(next)")) }
        return lines
    }

    static let profile = BotCommand(
        "profile", group: profileGroup, usage: "[USER]", summary: "someone's profile (yours without a name)",
        example: "!profile alice", arity: 0...1
    ) { request in
        let store = request.services.store
        var subject: Stored<Account>
        // A name changed with !rename still finds the person, until someone else takes it.
        var formerly: String?
        if let name = request.words.first {
            if let renamed = try await store.account(formerNameKey: IRCNames.fold(name)),
                try await store.account(nameKey: IRCNames.fold(name)) == nil
            {
                (subject, formerly) = (renamed, name)
            } else {
                subject = try await person(request, name)
            }
        } else {
            let me = try request.account()
            subject = try await person(request, me.name)
        }
        let viewer = request.caller.account
        if let viewer, try await store.isBlocked(viewer.id, by: subject.id) {
            // Someone they block is not told their new name.
            if let formerly { _ = try await person(request, formerly) }
            throw BotError("\(Words.possessive(subject.name)) profile is not available to you")
        }
        let counts = try await store.profileTally(of: subject.id)
        let since = subject.createdAt.formatted(.iso8601.year().month().day())
        var relation = ""
        if let viewer, viewer.id != subject.id {
            let iFollow = try await store.follows(viewer.id, subject.id)
            let theyFollow = try await store.follows(subject.id, viewer.id)
            relation =
                iFollow && theyFollow
                ? " · friends" : iFollow ? " · you follow them" : theyFollow ? " · follows you" : ""
        }
        let style = request.style
        var lines = [
            "\(style.bold(subject.name)) — joined \(since) · \(counts.followers) "
                + "follower\(counts.followers == 1 ? "" : "s") · \(counts.following) following\(relation)",
            "bio: " + (subject.bio.isEmpty ? style.dim("(none yet — !bio TEXT)") : subject.bio),
        ]
        // What the user set from an IRC client (METADATA), as the web's profile shows it.
        let fields = ProfileFields.shownPairs(try await store.profileFields(subject.id))
        if !fields.isEmpty { lines.append(fields.map { "\($0.label): \($0.value)" }.joined(separator: " · ")) }
        if let formerly { lines.insert("\(formerly) is now \(subject.name).", at: 0) }
        let context = ProfileContext(
            subject: subject, viewer: viewer, store: store, media: request.services.media, tally: counts)
        for app in request.bot.apps {
            if let line = try await app.profileLine?(context) { lines.append(line) }
        }
        return BotResponse(lines)
    }

    static let bio = BotCommand(
        "bio", group: profileGroup, usage: "[TEXT]",
        summary: "set the line about you on your profile (no text: clear it)",
        example: "!bio I bake bread and collect maps", requiresLogin: true
    ) { request in
        let me = try request.account()
        let text = request.input.rest.trimmingCharacters(in: .whitespaces)
        if text.count > maxBioLength {
            throw BotError("a bio can have at most \(maxBioLength) characters; yours has \(text.count)")
        }
        try await request.services.store.setBio(me.id, text)
        return BotResponse([text.isEmpty ? "Your bio is cleared." : "Your bio now reads: \(text)"])
    }

    static let follow = BotCommand(
        "follow", group: group, usage: "USER", summary: "follow someone (mutual follows are friends)",
        example: "!follow alice", arity: 1...1, requiresLogin: true
    ) { request in
        let me = try request.account()
        let target = try await other(request, me, request.words[0])
        switch try await request.services.store.follow(me.id, target.id) {
        case .blocked:
            throw BotError("you can't follow \(target.name)")
        case .alreadyFollowing:
            return BotResponse(["You already follow \(target.name)."])
        case .followed:
            let theirs = UserSettings(stored: try await request.services.store.settings(target.id))
            let back = try await request.services.store.follows(target.id, me.id)
            var effects: [SessionEffect] = []
            if theirs.notify {
                let hint = back ? "you are friends now" : "!follow \(me.name) to follow back"
                effects.append(.notify(accountID: target.id, text: "\(me.name) now follows you — \(hint)."))
            }
            let note = back ? " You follow each other: you are friends." : ""
            return BotResponse(["You now follow \(target.name).\(note)"], effects: effects)
        }
    }

    static let unfollow = BotCommand(
        "unfollow", group: group, usage: "USER", summary: "stop following someone", example: "!unfollow alice",
        arity: 1...1, requiresLogin: true
    ) { request in
        let me = try request.account()
        let target = try await other(request, me, request.words[0])
        let removed = try await request.services.store.unfollow(me.id, target.id)
        return BotResponse([removed ? "You no longer follow \(target.name)." : "You weren't following \(target.name)."])
    }

    /// `!friends`, `!followers`, `!following`, `!blocked`: one list each, keyset-paged.
    static func listCommand(
        _ name: String, list: PeopleList, summary: String, example: String, othersAllowed: Bool
    ) -> BotCommand {
        BotCommand(
            name, group: group, usage: othersAllowed ? "[USER] [>NEXT]" : "[>NEXT]", summary: summary,
            example: example, arity: 0...2, requiresLogin: !othersAllowed
        ) { request in
            let (who, after) = listArguments(request.words)
            let subject: AccountRef
            if let who, othersAllowed {
                let account = try await person(request, who)
                if let viewer = request.caller.account,
                    try await request.services.store.isBlocked(viewer.id, by: account.id)
                {
                    throw BotError("\(Words.possessive(account.name)) lists are not available to you")
                }
                subject = AccountRef(id: account.id, name: account.name)
            } else if who != nil {
                throw request.usageError("this list is only about you")
            } else {
                subject = try request.account()
            }
            let page = try await request.services.store.people(list, of: subject.id, after: after)
            let mine = subject.id == request.caller.account?.id
            let title: String
            switch list {
            case .followers: title = mine ? "Your followers" : "\(Words.possessive(subject.name)) followers"
            case .following: title = mine ? "You follow" : "\(subject.name) follows"
            case .friends: title = mine ? "Your friends" : "\(Words.possessive(subject.name)) friends"
            case .blocked: title = "You block"
            }
            let more = "!\(name)" + (mine || !othersAllowed ? "" : " \(subject.name)")
            return BotResponse(render(title, page, more: more, style: request.style))
        }
    }

    static let find = BotCommand(
        "find", group: group, usage: "PREFIX [>NEXT]", summary: "search people by the start of their name",
        example: "!find ali", arity: 1...2
    ) { request in
        let (prefix, after) = listArguments(request.words)
        guard let prefix, !prefix.isEmpty else { throw request.usageError("give the start of a name") }
        guard prefix.count <= maxFindPrefix else { throw BotError("names are at most \(maxFindPrefix) characters") }
        let page = try await request.services.store.findPeople(prefix: prefix, after: after)
        if page.names.isEmpty { return BotResponse(["Nobody's name starts with \(prefix)."]) }
        return BotResponse(render("People named \(prefix)…", page, more: "!find \(prefix)", style: request.style))
    }

    static let block = BotCommand(
        "block", group: group, usage: "USER",
        summary: "block someone: no private messages or follows from them; follows both ways end",
        example: "!block troll42", arity: 1...1, requiresLogin: true
    ) { request in
        let me = try request.account()
        let target = try await other(request, me, request.words[0])
        let store = request.services.store
        let added = try await store.block(me.id, target.id)
        let blocked = try await store.blockedIDs(by: me.id)
        return BotResponse(
            [
                added
                    ? "You blocked \(target.name). They can't message or follow you, and follows between you are gone."
                    : "You already block \(target.name)."
            ],
            effects: [.blocks(accountID: me.id, blocked: blocked)])
    }

    static let unblock = BotCommand(
        "unblock", group: group, usage: "USER", summary: "stop blocking someone", example: "!unblock troll42",
        arity: 1...1, requiresLogin: true
    ) { request in
        let me = try request.account()
        let target = try await other(request, me, request.words[0])
        let store = request.services.store
        let removed = try await store.unblock(me.id, target.id)
        let blocked = try await store.blockedIDs(by: me.id)
        return BotResponse(
            [removed ? "You unblocked \(target.name)." : "You weren't blocking \(target.name)."],
            effects: [.blocks(accountID: me.id, blocked: blocked)])
    }

    static let settings = BotCommand(
        "settings", group: profileGroup, summary: "your settings, their values and what they can be",
        example: "!settings",
        arity: 0...0, requiresLogin: true
    ) { request in
        let current = request.settings ?? UserSettings(stored: [:])
        let style = request.style
        var lines = ["Your settings (change one with !set KEY VALUE):"]
        for setting in Setting.all {
            lines.append(
                "  \(style.bold(setting.key)) \(current[setting.key]) (\(setting.allowed)) — \(setting.summary)")
        }
        return BotResponse(lines)
    }

    static let set = BotCommand(
        "set", group: profileGroup, usage: "KEY VALUE", summary: "change a setting (see !settings)",
        example: "!set tz Europe/Paris", arity: 2...2, requiresLogin: true
    ) { request in
        let me = try request.account()
        guard let setting = Setting.named(request.words[0]) else {
            let keys = Setting.all.map(\.key)
            let suggestion =
                Suggest.closest(to: request.words[0], in: keys).first.map { " — did you mean \($0)?" } ?? ""
            throw BotError(
                "there is no setting \"\(request.words[0])\"\(suggestion) (settings: \(keys.joined(separator: ", ")))")
        }
        // The fortune categories are the server's catalogue's, which only the app knows.
        let checked =
            setting.key == FortuneCategories.settingKey
            ? FortuneCategories.validate(request.words[1], in: request.services.fortunes)
            : setting.validate(request.words[1])
        switch checked {
        case .failure(let error): throw error
        case .success(let value):
            // The first zone someone sets places the days they were given before (see setFirstZone).
            let store = request.services.store
            let firstZone = setting.key == "tz" ? try await store.setFirstZone(accountID: me.id, zone: value) : false
            if !firstZone { try await store.setSetting(me.id, key: setting.key, value: value) }
            var effects: [SessionEffect] =
                setting.key == "bot" ? [.botFlag(accountID: me.id, isBot: value == "on")] : []
            if setting.key == AlwaysOnRules.settingKey {
                effects.append(.alwaysOn(accountID: me.id, choice: AlwaysOnRules.choice(value)))
            }
            return BotResponse(["\(setting.key) is now \(value) — \(setting.summary)."], effects: effects)
        }
    }

    static let feed = BotCommand(
        "feed", group: group, usage: "[>NEXT]", summary: "what the people you follow did lately",
        example: "!feed", arity: 0...1, requiresLogin: true
    ) { request in
        let me = try request.account()
        let before = request.words.first.flatMap { $0.hasPrefix(">") ? Int64($0.dropFirst()) : nil }
        if let word = request.words.first, before == nil { throw request.usageError("\(word) is not a page marker") }
        let (items, more) = try await request.services.store.feed(for: me.id, before: before)
        if items.isEmpty {
            return BotResponse([
                before == nil ? "Your feed is empty — !follow people to see what they do." : "No older activity."
            ])
        }
        let now = Date()
        var lines = items.map { item in
            let followed = item.subjectName.map { IRCNames.fold($0) == IRCNames.fold(me.name) ? "you" : $0 }
            let what = item.kind == "follow" ? "followed \(followed ?? "someone")" : item.text
            return "\(request.style.bold(item.actor)) \(what) · \(TimeText.ago(from: item.createdAt, to: now))"
        }
        if more, let last = items.last {
            lines.append(request.style.dim("more: !feed >\(last.id)"))
        }
        return BotResponse(lines)
    }

    static let all: [BotCommand] = [
        profile, bio, settings, set,
        follow, unfollow,
        listCommand(
            "friends", list: .friends, summary: "people you follow who follow you back", example: "!friends",
            othersAllowed: false),
        listCommand(
            "followers", list: .followers, summary: "who follows you (or USER)", example: "!followers alice",
            othersAllowed: true),
        listCommand(
            "following", list: .following, summary: "who you (or USER) follow", example: "!following",
            othersAllowed: true),
        find, block, unblock,
        listCommand("blocked", list: .blocked, summary: "people you block", example: "!blocked", othersAllowed: false),
        feed,
    ]
}
