import Foundation
import HearthKit
import HearthStore

/// Sayings users write (`!saying add`): their friends' cookies may draw them (category
/// "friends"), and once proposed and approved by a server operator, everyone's ("community").
enum SayingCommands {
    static let maxLength = 280
    static let maxPerAccount = 20
    /// Proposals waiting for a moderator, server-wide: past it, proposing waits.
    static let maxQueue = 100
    /// How many of the queue one `!saying queue` shows.
    static let queueShown = 10
    /// Sayings drawn from per cookie: the newest of one's friends', and of the approved ones.
    static let friendsPool = 500
    static let communityPool = 1000
    /// Not "friends": Hearth's own sayings have a category of that name (about friendship).
    static let friendsCategory = "by-friends"
    static let communityCategory = "community"
    static let categories = [communityCategory, friendsCategory]
    /// A friend's saying in a cookie: written for friends, so only the cookie's reader reads it.
    static let friendKeyPrefix = "friend-saying/"

    static let saying = BotCommand(
        "saying", group: FortuneCommands.group,
        usage: "add TEXT · propose ID · delete ID · list  ·  moderators: queue · approve ID · reject ID",
        summary: "write sayings for your friends' fortune cookies, and propose them to everyone's",
        example: "!saying add A watched pot boils eventually.", arity: 0...Int.max, requiresLogin: true
    ) { request in
        switch request.words.first?.lowercased() {
        case nil, "list": return try await list(request)
        case "add": return try await add(request)
        case "propose": return try await propose(request)
        case "delete": return try await delete(request)
        case "queue": return try await queue(request)
        case "approve": return try await decide(request, approve: true)
        case "reject": return try await decide(request, approve: false)
        default: throw request.usageError()
        }
    }

    static let all = [saying]

    /// What is wrong with a saying's text, or nil.
    static func problem(_ text: String) -> String? {
        if text.isEmpty { return "write the saying after !saying add" }
        if text.count > maxLength { return "a saying may have \(maxLength) characters; that one has \(text.count)" }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a saying is one line of text"
        }
        return nil
    }

    static func add(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        let text = request.input.text(after: 1).trimmingCharacters(in: .whitespaces)
        if let problem = problem(text) { throw BotError(problem) }
        let record = SayingRecord(accountId: me.id, text: text, now: request.services.clock.now())
        guard let added = try await request.services.store.addSaying(record, maxPerAccount: maxPerAccount) else {
            throw BotError("you have \(maxPerAccount) sayings, the most one may keep; !saying delete ID makes room")
        }
        return BotResponse([
            "Saying #\(added.id) is kept for your friends' cookies (mutual follows)."
                + " !saying propose \(added.id) offers it to everyone's, once a moderator approves."
        ])
    }

    /// One of the caller's own sayings, or why not.
    static func own(_ request: BotRequest, _ me: AccountRef) async throws -> SayingRow {
        guard request.words.count == 2 else { throw request.usageError() }
        let id = try number(request, request.words[1])
        guard let row = try await request.services.store.saying(id: id), row.saying.accountId == me.id else {
            throw BotError("you have no saying #\(id) — !saying list shows yours")
        }
        return row
    }

    static func number(_ request: BotRequest, _ word: String) throws -> Int64 {
        guard let id = Int64(word.drop { $0 == "#" }), id > 0 else {
            throw request.usageError("\(word) is not a saying number")
        }
        return id
    }

    static func propose(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        let row = try await own(request, me)
        let store = request.services.store
        switch row.saying.status {
        case .proposed: throw BotError("saying #\(row.saying.id) is waiting for a moderator already")
        case .approved: throw BotError("saying #\(row.saying.id) is in everyone's cookies already")
        case .friends: break
        }
        switch try await store.proposeSaying(id: row.saying.id, author: me.id, maxProposed: maxQueue) {
        case .proposed: break
        case .queueFull:
            throw BotError("the moderators have \(maxQueue) sayings to read already; propose it again later")
        case .notMovable: throw BotError("saying #\(row.saying.id) changed meanwhile; !saying list shows it")
        }
        return BotResponse([
            "Saying #\(row.saying.id) is proposed; a moderator will read it. Your friends' cookies keep it meanwhile."
        ])
    }

    static func delete(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        let row = try await own(request, me)
        _ = try await request.services.store.deleteSaying(id: row.saying.id, by: me.id)
        return BotResponse(["Saying #\(row.saying.id) is deleted."])
    }

    static func statusText(_ status: SayingRecord.Status) -> String {
        switch status {
        case .friends: "friends"
        case .proposed: "proposed"
        case .approved: "everyone"
        }
    }

    static func list(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        let mine = try await request.services.store.sayings(of: me.id)
        if mine.isEmpty {
            return BotResponse([
                "You have written no sayings yet — !saying add TEXT keeps one for your friends' fortune cookies."
            ])
        }
        var lines = ["\(request.style.bold("Your sayings")) (\(mine.count) of \(maxPerAccount)):"]
        lines += mine.map { "#\($0.id) [\(statusText($0.status))] “\($0.text)”" }
        lines.append(request.style.dim("!saying propose ID offers one to everyone's cookies · !saying delete ID"))
        return BotResponse(lines)
    }

    /// Moderators are the server's operators (IRC `OPER`), signed in.
    static func moderator(_ request: BotRequest) throws -> AccountRef {
        let me = try request.account()
        guard request.caller.isOper else { throw BotError("only a server operator (OPER) moderates sayings") }
        return me
    }

    static func queue(_ request: BotRequest) async throws -> BotResponse {
        _ = try moderator(request)
        let store = request.services.store
        let waiting = try await store.sayings(status: .proposed, limit: queueShown)
        if waiting.isEmpty { return BotResponse(["No sayings are waiting."]) }
        let total = try await store.sayingCount(status: .proposed)
        var lines = ["\(request.style.bold("Sayings proposed")) (\(total), oldest first):"]
        lines += waiting.map { "#\($0.saying.id) by \($0.author): “\($0.saying.text)”" }
        lines.append(request.style.dim("!saying approve ID puts one in everyone's cookies · !saying reject ID"))
        return BotResponse(lines)
    }

    static func decide(_ request: BotRequest, approve: Bool) async throws -> BotResponse {
        let me = try moderator(request)
        guard request.words.count == 2 else { throw request.usageError() }
        let id = try number(request, request.words[1])
        let moved = try await request.services.store.moveSaying(
            id: id, from: [.proposed], to: approve ? .approved : .friends, author: nil, decidedBy: me.id,
            now: request.services.clock.now())
        guard moved else { throw BotError("saying #\(id) is not waiting — !saying queue shows those that are") }
        return BotResponse([
            approve
                ? "Saying #\(id) is approved: everyone's cookies may draw it (category \(communityCategory))."
                : "Saying #\(id) is not taken; it stays with its author's friends."
        ])
    }

    /// The sayings a cookie is drawn from: the catalogue's in `wanted` (nil: all), and users'
    /// when wanted — friends' (credited) and the approved ones.
    static func pool(_ request: BotRequest, _ me: AccountRef, wanted: Set<String>?, catalogue: FortuneCatalogue)
        async throws -> [FortuneCatalogue.Saying]
    {
        var pool: [FortuneCatalogue.Saying]
        if let wanted {
            let files = wanted.subtracting(categories)
            pool = files.isEmpty ? [] : catalogue.sayings(in: files)
        } else {
            pool = catalogue.sayings
        }
        let store = request.services.store
        var seen: Set<Int64> = []
        func add(_ rows: [SayingRow], _ category: String, prefix: String) {
            for row in rows where seen.insert(row.saying.id).inserted {
                pool.append(
                    FortuneCatalogue.Saying(
                        key: prefix + "\(row.saying.id)", text: "\(row.saying.text) — \(row.author)",
                        category: category))
            }
        }
        // Opened in a channel, a cookie is read by everyone there: no friends-only saying in it.
        if wanted?.contains(friendsCategory) ?? true, request.caller.channel == nil {
            add(try await store.friendSayings(of: me.id, limit: friendsPool), friendsCategory, prefix: friendKeyPrefix)
        }
        if wanted?.contains(communityCategory) ?? true {
            add(try await store.sayings(status: .approved, limit: communityPool), communityCategory, prefix: "saying/")
        }
        return pool
    }
}
