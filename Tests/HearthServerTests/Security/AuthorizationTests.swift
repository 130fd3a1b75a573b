import Foundation
import GRDB
import HearthTesting
import Testing

@testable import HearthServer

// Authorization: for every command and HTTP route that reads or changes something owned by a
// user, a family or a channel, an outsider tries it and must get a refusal, see nothing of the
// owner's, and change nothing (the whole SQLite database, the media files, the live channel and
// the owner's and friend's connections are compared before and after).
//
// The owner ("owner", IRC) has: a bio, an avatar, an uploaded picture (its one-time upload link is
// used), a template made of it, meme #1 with comment #1, recipe #1 with comment #2, a recipe
// draft, fortune #1 (privacy: friends), a friend ("pal") and a private conversation with them, a
// block on "blox", the family "Hush Oaks" with post #1 and channel #family-1, the registered channel
// #owned (+mnt, topic, a message, a read marker) and the secret invite-only channel #hideout.
// Everything private to the owner contains the word "hush": no reply to an outsider may contain it.
//
// Actors: a stranger (logged in, IRC), a user the owner blocks (logged in, IRC), and two logged-out
// connections (IRC registered without an account, and plain `nc`). IRC-only rows skip the nc one.
//
// Covered (see `cases` for the exact wording each actor gets):
//   memes     !meme delete, !meme TEMPLATE|IMAGE with the owner's template/picture, !memes USER,
//             !memes grid USER, !hot; for the blocked user also !meme show, !like, !unlike, !fav,
//             !comment meme, !comments meme, !share meme
//   pictures  !images (per user), !avatar / !template add with the owner's picture, !upload;
//             HTTP GET/PUT/POST /upload/TOKEN after the link was used (404), POST /upload
//             (draft/FILEHOST) without credentials, with the owner's name and the actor's password
//             or resume token, with the actor's name and the owner's password, with a wrong
//             password (401, nothing stored)
//   comments  !comment delete of another's comment
//   recipes   !recipe edit ID (title, photo), !recipe delete ID, !recipe post / cancel (drafts are
//             per user); for the blocked user !recipe ID, !recipes by USER, !up, !down, !save,
//             !comment recipe
//   fortunes  !fortunes USER, !fortune show ID, !fortune map USER, !share fortune (privacy friends)
//   profile   blocked: !profile USER, !follow USER, !followers USER, !following USER; PRIVMSG (531)
//   channels  !channel register|drop|transfer, TOPIC/MODE (-t, +o, +b, +k)/KICK by a non-op in a
//             +t channel, PRIVMSG and !share into a +m channel, INVITE/JOIN/TOPIC/NAMES of a +si
//             channel one is not in, JOIN of a family channel, REDACT of another user's channel
//             message, of a private message between two others, of a channel one is not in
//   history   !history NICK / #channel, CHATHISTORY LATEST/AROUND/TARGETS of a conversation between
//             two others and of a channel one is not in
//   markers   MARKREAD of the owner's channel returns the actor's own marker; guests are refused
//   accounts  !account delete, !passwd, !rename, !register, !login, !recover against the owner;
//             NICK owner, MODE owner +B, KILL owner
//   family    !tree, !famfeed, !post, !where, !like post, !comments post (the full family matrix
//             is FamilyAuthorizationTests.outsidersAreRefusedEverywhere)
//   logged out: every command that needs an account answers "NAME: you need to log in first".
//
// Intentionally public (not refusals, so not in the table): !meme show / !comments / !like / !fav
// / !share of a meme, !recipe ID, !recipes, !search, !comments recipe, !up/!down/!save of a recipe
// for anyone not blocked (votes and saves are the voter's own); !profile USER, !followers /
// !following USER, !find, !channel info, !top points, !templates; a stranger following the owner
// (and then seeing their activity in !feed, as documented); MODE #chan without changes and the
// ban-list query (RFC behaviour); GET /i/ID.EXT (unguessable 128-bit links) and /health.

@Suite struct AuthorizationTests {
    static let caps =
        "batch server-time message-tags echo-message draft/chathistory draft/read-marker draft/message-redaction"
    static let ownerPassword = "owner-pass-1"
    static let actorPassword = "s3cret-pass"
    /// Everything private to the owner contains this word.
    static let secret = "hush"

    enum Role: String, Sendable {
        case stranger, blocked
        case loggedOut = "logged out"
    }

    /// One outsider connection.
    struct Outsider: Sendable {
        let role: Role
        let label: String
        let nick: String
        let client: TestClient
        let isIRC: Bool
        let password: String?
        let token: String?
    }

    /// What an actor gets: one of these refusal texts, the login refusal, or nothing to test.
    enum Outcome: Sendable {
        case refused([String])
        /// `NAME: you need to log in first` for the bot command NAME.
        case login
        /// Same as the stranger's column.
        case asStranger
        /// Allowed for this actor (or not applicable): not a case.
        case skip
    }

    struct Case: Sendable, CustomStringConvertible {
        enum Via: Sendable { case bot, irc, http }
        let via: Via
        let command: String
        let stranger: Outcome
        let blocked: Outcome
        let loggedOut: Outcome
        /// More texts that must not appear before the refusal (besides the secret word).
        var leaks: [String] = []

        var description: String { command }

        static func bot(
            _ command: String, _ stranger: Outcome, blocked: Outcome = .asStranger, loggedOut: Outcome = .login,
            leaks: [String] = []
        ) -> Case {
            Case(via: .bot, command: command, stranger: stranger, blocked: blocked, loggedOut: loggedOut, leaks: leaks)
        }

        static func irc(
            _ command: String, _ stranger: Outcome, blocked: Outcome = .asStranger, loggedOut: Outcome = .asStranger,
            leaks: [String] = []
        ) -> Case {
            Case(via: .irc, command: command, stranger: stranger, blocked: blocked, loggedOut: loggedOut, leaks: leaks)
        }

        static func http(
            _ command: String, _ stranger: Outcome, blocked: Outcome = .asStranger, loggedOut: Outcome = .asStranger
        ) -> Case {
            Case(via: .http, command: command, stranger: stranger, blocked: blocked, loggedOut: loggedOut)
        }

        /// The refusal texts expected from `role`, or nil when this is not a case for it.
        func expected(for role: Role) -> [String]? {
            var outcome: Outcome
            switch role {
            case .stranger: outcome = stranger
            case .blocked: outcome = blocked
            case .loggedOut: outcome = loggedOut
            }
            if case .asStranger = outcome { outcome = stranger }
            switch outcome {
            case .refused(let texts): return texts
            case .login:
                let name = command.dropFirst().prefix { $0 != " " }
                return ["\(name): you need to log in first"]
            case .skip, .asStranger: return nil
            }
        }
    }

    static func r(_ texts: String...) -> Outcome { .refused(texts) }

    static let notOp = "You're not channel operator"
    static let wrongPassword = ["wrong name or password", "too many failed attempts"]
    static let usedLink = "HTTP 404 This upload link has expired or was used already"
    static let notAccepted = "HTTP 401 That name and password were not accepted."

    /// Placeholders: {me} the actor's nick, {pic} the owner's picture id, {msgid} the owner's line in
    /// #owned, {pmid} the owner's private message to pal, {hideid} the owner's line in #hideout,
    /// {link} the owner's used upload link, {password}/{token} the actor's own credentials.
    static let cases: [Case] = [
        // memes
        .bot("!meme delete 1", r("meme: you have no meme #1")),
        .bot("!meme show 1", .skip, blocked: r("meme: there is no meme #1"), loggedOut: .skip),
        .bot("!like 1", .skip, blocked: r("like: there is no meme #1")),
        .bot("!unlike 1", .skip, blocked: r("unlike: there is no meme #1")),
        .bot("!fav 1", .skip, blocked: r("fav: there is no meme #1")),
        .bot("!comment meme 1 nice one", .skip, blocked: r("comment: there is no meme #1")),
        .bot("!comments meme 1", .skip, blocked: r("comments: there is no meme #1"), loggedOut: .skip),
        .bot("!memes owner", r("memes: owner shares memes with friends only"), loggedOut: .asStranger),
        .bot("!memes grid owner", r("memes: owner shares memes with friends only"), loggedOut: .asStranger),
        .bot("!hot", r("Nothing is trending yet"), loggedOut: .asStranger),
        .bot("!meme ownertpl mine | now", r("meme: there is no template or picture \"ownertpl\"")),
        .bot("!meme {pic} mine | now", r("meme: you have no picture {pic}")),
        .bot("!memes", .skip),
        .bot("!favs", .skip),
        // pictures
        .bot("!images", r("You have no pictures yet")),
        .bot("!avatar {pic}", r("avatar: you have no picture {pic}")),
        .bot("!template add mine {pic}", r("template: you have no picture {pic}")),
        .bot("!upload", .skip),
        .http("GET {link}", r(usedLink)),
        .http("PUT {link}", r(usedLink)),
        .http("POST {link}", r(usedLink)),
        .http("POST /upload", r("HTTP 401 Log in with HTTP Basic")),
        .http("POST /upload owner:{password}", r(notAccepted), loggedOut: .skip),
        .http("POST /upload owner:{token}", r(notAccepted), loggedOut: .skip),
        .http("POST /upload {me}:\(ownerPassword)", r(notAccepted)),
        .http("POST /upload owner:wrong-pass-1", r(notAccepted)),
        // comments
        .bot("!comment delete 1", r("comment: you have no comment #1")),
        .bot("!comment delete 2", r("comment: you have no comment #2")),
        .bot("!share meme 1 #owned", r("share: you can't share in #owned"), blocked: r("share: there is no meme #1")),
        // recipes
        .bot("!recipe 1", .skip, blocked: r("recipe: there is no recipe #1"), loggedOut: .skip),
        .bot(
            "!recipes by owner", .skip, blocked: r("recipes: owner's recipes are not available to you"),
            loggedOut: .skip),
        .bot("!recipe edit 1 title Mine now", r("recipe: you have no recipe #1")),
        .bot("!recipe edit 1 photo {pic}", r("recipe: you have no recipe #1")),
        .bot("!recipe delete 1", r("recipe: you have no recipe #1")),
        .bot("!recipe post", r("recipe: you have no draft — start one with !recipe new")),
        .bot("!recipe cancel", r("recipe: you have no draft")),
        .bot("!recipe new", .skip),
        .bot("!up 1", .skip, blocked: r("up: there is no recipe #1")),
        .bot("!down 1", .skip, blocked: r("down: there is no recipe #1")),
        .bot("!save 1", .skip, blocked: r("save: there is no recipe #1")),
        .bot("!comment recipe 1 tasty", .skip, blocked: r("comment: there is no recipe #1")),
        .bot("!saved", .skip),
        .bot("!prefs cuisine thai", .skip),
        .bot("!edamam soup", .skip),
        // fortunes
        .bot("!fortunes owner", r("fortunes: owner shares fortunes with friends only"), loggedOut: .asStranger),
        .bot("!fortune show 1", r("fortune: there is no fortune #1 you can see")),
        .bot("!fortune map owner", r("fortune: owner shares fortunes with friends only")),
        .bot("!share fortune 1 pal", r("share: there is no fortune #1 you can see")),
        .bot("!fortune", .skip),
        .bot("!fortune stats", .skip),
        .bot("!fortunes", .skip),
        .bot("!points", .skip),
        .bot("!top points friends", .skip),
        // profile, friends, settings
        .bot("!profile owner", .skip, blocked: r("profile: owner's profile is not available to you"), loggedOut: .skip),
        .bot("!follow owner", .skip, blocked: r("follow: you can't follow owner")),
        .bot(
            "!followers owner", .skip, blocked: r("followers: owner's lists are not available to you"), loggedOut: .skip
        ),
        .bot(
            "!following owner", .skip, blocked: r("following: owner's lists are not available to you"), loggedOut: .skip
        ),
        .irc(
            "PRIVMSG owner :let me in", .skip, blocked: r("owner does not accept messages from you"), loggedOut: .skip),
        .bot("!profile", .skip),
        .bot("!bio mine now", .skip),
        .bot("!settings", .skip),
        .bot("!set privacy public", .skip),
        .bot("!unfollow owner", .skip),
        .bot("!block owner", .skip),
        .bot("!unblock owner", .skip),
        .bot("!friends", .skip),
        .bot("!followers", .skip),
        .bot("!blocked", .skip),
        .bot("!feed", .skip),
        // registered and private channels
        .bot("!channel register #owned", r("channel: #owned is registered already")),
        .bot("!channel drop #owned", r("channel: only the owner of #owned can do that")),
        .bot("!channel transfer #owned {me}", r("channel: only the owner of #owned can do that")),
        .irc("TOPIC #owned :mine now", r("You're not channel operator (the topic is locked with +t)")),
        .irc("MODE #owned -t", r(notOp)),
        .irc("MODE #owned +o {me}", r(notOp)),
        .irc("MODE #owned +b owner!*@*", r(notOp)),
        .irc("MODE #owned +k hijack", r(notOp)),
        .irc("KICK #owned owner", r(notOp)),
        .irc("PRIVMSG #owned :hi all", r("Cannot send to channel (+m)")),
        .irc("INVITE pal #hideout", r("You're not on that channel")),
        .irc("JOIN #hideout", r("Cannot join channel (+i)")),
        .irc("TOPIC #hideout", r("You're not on that channel")),
        .irc("TOPIC #hideout :mine now", r("You're not on that channel")),
        .irc("NAMES #hideout", r("End of /NAMES list"), leaks: ["owner"]),
        .irc("JOIN #family-1", r("it is a family's private channel")),
        .irc("MODE #hideout", r("403"), leaks: ["324"]),
        .irc("MODE #hideout b", r("403"), leaks: ["368"]),
        .irc("MODE #family-1", r("403"), leaks: ["324"]),
        .irc("REDACT #owned {msgid}", r("FAIL REDACT REDACT_FORBIDDEN")),
        .irc("REDACT pal {pmid}", r("FAIL REDACT UNKNOWN_MSGID"), loggedOut: r("FAIL REDACT INVALID_TARGET")),
        .irc("REDACT owner {pmid}", r("FAIL REDACT UNKNOWN_MSGID"), loggedOut: r("FAIL REDACT INVALID_TARGET")),
        .irc("REDACT #hideout {hideid}", r("FAIL REDACT INVALID_TARGET")),
        // history and read markers
        .bot("!history pal", r("Nothing kept for you and pal yet.")),
        .bot("!history owner", r("Nothing kept for you and owner yet.")),
        .bot("!history #hideout", r("history: join #hideout to read its history"), loggedOut: .asStranger),
        .irc("CHATHISTORY LATEST pal * 10", r("BATCH -"), loggedOut: r("FAIL CHATHISTORY INVALID_TARGET")),
        .irc("CHATHISTORY LATEST owner * 10", r("BATCH -"), loggedOut: r("FAIL CHATHISTORY INVALID_TARGET")),
        .irc("CHATHISTORY AROUND pal msgid={pmid} 10", r("BATCH -"), loggedOut: r("FAIL CHATHISTORY INVALID_TARGET")),
        .irc("CHATHISTORY LATEST #hideout * 10", r("FAIL CHATHISTORY INVALID_TARGET")),
        .irc(
            "CHATHISTORY TARGETS timestamp=2000-01-01T00:00:00.000Z timestamp=2100-01-01T00:00:00.000Z 10",
            r("BATCH -"),
            leaks: ["TARGETS pal", "TARGETS owner", "TARGETS #hideout"]),
        .irc(
            "MARKREAD #owned", r("MARKREAD #owned *"),
            leaks: ["timestamp="]),
        // accounts
        .bot("!account delete \(ownerPassword)", .refused(wrongPassword.map { "account: " + $0 })),
        .bot("!passwd \(ownerPassword) hijacked-pass-1", .refused(wrongPassword.map { "passwd: " + $0 })),
        .bot("!rename owner", r("rename: someone online is using the nick owner")),
        .bot(
            "!register owner \(actorPassword)", r("register: you are already logged in as"),
            loggedOut: r("register: someone online is using the nick owner")),
        .bot("!login owner wrong-pass-1", .refused(wrongPassword.map { "login: " + $0 }), loggedOut: .asStranger),
        .bot(
            "!recover owner AAAA-BBBB-CCCC n3w-s3cret-pass",
            r("recover: that name and recovery code don't match", "recover: too many failed attempts"),
            loggedOut: .asStranger),
        .bot("!logout", .skip),
        .irc("NICK owner", r("Nickname is already in use", "Nickname is reserved")),
        .irc("MODE owner +B", r("Can't change mode for other users")),
        .irc("KILL owner :bye", r("Permission Denied")),
        // family
        .bot("!tree", r("tree: you are in no family yet")),
        .bot("!famfeed", r("famfeed: you are in no family yet")),
        .bot("!post hello family", r("post: you are in no family yet")),
        .bot("!where", r("where: you are in no family yet")),
        .bot("!like post 1", r("like: there is no post #1 in your families")),
        .bot("!comments post 1", r("comments: there is no post #1 in your families")),
    ]

    // MARK: helpers

    /// Creates an account from a plain connection (then closed); returns its resume token.
    static func account(_ server: TestServer, _ name: String, _ password: String) async throws -> String {
        let nc = try await TestClient.plain(server)
        try await nc.send("!register \(name) \(password)")
        try await nc.expect("Welcome to Hearth, \(name)!")
        let line = try await nc.expect("Your resume token (keep it secret): ")
        try await nc.send("/quit")
        try await nc.expect("Bye!")
        return String(try #require(line.split(separator: " ").last))
    }

    static func irc(_ server: TestServer, _ nick: String, password: String?) async throws -> TestClient {
        let login = password.map { ["PASS \(nick):\($0)"] } ?? []
        return try await TestClient.irc(
            server, nick: nick, extra: ["CAP LS 302", "CAP REQ :\(caps)"] + login + ["CAP END"])
    }

    /// A bot command from an IRC client, privately; waits for a line containing `reply`.
    @discardableResult
    static func tell(_ client: TestClient, _ command: String, _ reply: String) async throws -> String {
        try await client.send("PRIVMSG hearth :\(command)")
        return try await client.expect(reply)
    }

    /// Waits until everything sent to `client` so far has been answered; returns the lines that
    /// arrived meanwhile that contain one of `leaks` (case-insensitive).
    static func settle(_ client: TestClient, isIRC: Bool, leaks: [String] = []) async throws -> [String] {
        let token = "settle\(UInt32.random(in: 0...UInt32.max))"
        try await client.send(isIRC ? "PING \(token)" : "!find \(token)")
        var leaked: [String] = []
        let lowered = leaks.map { $0.lowercased() }
        _ = try await client.expect("the answer to \(token)") { line in
            if !line.contains(token), lowered.contains(where: { line.lowercased().contains($0) }),
                !leaked.contains(line)
            {
                leaked.append(line)
            }
            return line.contains(token)
        }
        return leaked
    }

    /// Every row of every table, as text (sorted within a table).
    static func snapshot(_ server: TestServer) async throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for table in try await server.sql.tables() { result[table] = try await server.sql.rowsAsText(table) }
        return result
    }

    /// Polls the store until `sql` counts `count` rows (history and saves are written in batches).
    static func waitForRows(_ server: TestServer, _ sql: String, _ count: Int) async throws {
        try await waitUntil("\(count) rows: \(sql)") { try await server.sql.int(sql) == count }
    }

    struct Fixture: Sendable {
        var pictureID: String
        var pictureURL: URL
        var uploadLink: URL
        var msgid: String
        var pmid: String
        var hideid: String
    }

    func substitute(_ text: String, _ actor: Outsider, _ f: Fixture) -> String {
        text.replacingOccurrences(of: "{me}", with: actor.nick)
            .replacingOccurrences(of: "{pic}", with: String(f.pictureID.prefix(8)))
            .replacingOccurrences(of: "{msgid}", with: f.msgid)
            .replacingOccurrences(of: "{pmid}", with: f.pmid)
            .replacingOccurrences(of: "{hideid}", with: f.hideid)
            .replacingOccurrences(of: "{link}", with: f.uploadLink.path)
            .replacingOccurrences(of: "{password}", with: actor.password ?? "")
            .replacingOccurrences(of: "{token}", with: actor.token ?? "")
    }

    /// An HTTP case: `METHOD PATH [NAME:SECRET]`; answers `HTTP STATUS BODY`.
    func http(_ command: String, server: TestServer) async throws -> String {
        let words = command.split(separator: " ").map(String.init)
        let url = try #require(URL(string: "http://127.0.0.1:\(server.httpPort)\(words[1])"))
        var headers: [String: String] = [:]
        if words.count > 2 { headers["Authorization"] = "Basic " + Data(words[2].utf8).base64EncodedString() }
        let body = words[0] == "GET" ? nil : Web.samplePNG()
        let (data, response) = try await Web.fetch(url, method: words[0], body: body, headers: headers)
        return "HTTP \(response.statusCode) " + String(decoding: data, as: UTF8.self)
    }

    // MARK: the test

    @Test func outsidersAreRefusedAndNothingChanges() async throws {
        try await withServer { server in

            // The owner and what they own.
            _ = try await Self.account(server, "owner", Self.ownerPassword)
            let strangerToken = try await Self.account(server, "stran", Self.actorPassword)
            let blockedToken = try await Self.account(server, "blox", Self.actorPassword)
            let pal = try await TestClient.user(server, "pal")
            let owner = try await Self.irc(server, "owner", password: Self.ownerPassword)

            try await Self.tell(owner, "!set privacy friends", "privacy is now friends")
            try await Self.tell(owner, "!follow pal", "You now follow pal.")
            try await pal.send("!follow owner")
            try await pal.expect("You follow each other: you are friends.")
            try await Self.tell(owner, "!block blox", "You blocked blox.")
            try await Self.tell(owner, "!bio hush bio", "Your bio now reads: hush bio")

            try await owner.send("PRIVMSG hearth :!upload")
            let uploadLink = try Web.link(in: try await owner.expect("curl -T photo.jpg"))
            let (uploaded, created) = try await Web.fetch(uploadLink, method: "PUT", body: Web.samplePNG())
            #expect(created.statusCode == 201, "\(String(decoding: uploaded, as: UTF8.self))")
            let location = try #require(created.value(forHTTPHeaderField: "Location"))
            let pictureURL = try #require(URL(string: location))
            let pictureID = String(pictureURL.lastPathComponent.prefix { $0 != "." })
            let pic = String(pictureID.prefix(8))
            try await owner.expect("Your picture \(pic) is uploaded")
            try await Self.tell(owner, "!avatar \(pic)", "Your profile picture is now")
            try await Self.tell(owner, "!template add ownertpl \(pic)", "Template ownertpl is ready")
            try await Self.tell(owner, "!meme \(pic) hush top | hush bottom", "meme #1 by owner: http")
            try await Self.tell(owner, "!comment meme 1 hush comment", "Comment #1 added to meme #1.")

            try await Self.tell(owner, "!recipe new", "What is the recipe called?")
            for line in ["Hush soup", "1 hush secret", ".", "Stir gently.", ".", "-", "-"] {
                try await owner.send("PRIVMSG hearth :\(line)")
            }
            try await owner.expect("“Hush soup” is ready")
            try await Self.tell(owner, "!recipe post", "Recipe #1 “Hush soup” is posted")
            try await Self.tell(owner, "!comment recipe 1 hush recipe note", "Comment #2 added to recipe #1.")
            try await Self.tell(owner, "!recipe new", "What is the recipe called?")
            try await owner.send("PRIVMSG hearth :Hush stew")
            try await owner.expect("Ingredients, one per line")

            try await Self.tell(owner, "!fortune @48.85,2.35 Hushville", "Your fortune for")
            try await Self.tell(owner, "!tree new Hush Oaks", "Invite code for Hush Oaks: ")
            try await Self.tell(owner, "!post hush family news", "Posted #1")

            try await owner.send("JOIN #owned")
            try await owner.expectNumeric("366")
            try await owner.send("TOPIC #owned :owner's topic")
            try await owner.expect("TOPIC #owned :owner's topic")
            try await owner.send("MODE #owned +m")
            try await owner.expect(" MODE #owned ")
            try await Self.tell(owner, "!channel register #owned", "#owned is yours now")
            try await owner.send("JOIN #hideout")
            try await owner.expectNumeric("366")
            try await owner.send("MODE #hideout +si")
            try await owner.expect(" MODE #hideout ")

            // The outsiders.
            let stranger = try await Self.irc(server, "stran", password: Self.actorPassword)
            let blocked = try await Self.irc(server, "blox", password: Self.actorPassword)
            let lurker = try await Self.irc(server, "lurker", password: nil)
            let nc = try await TestClient.plain(server)
            try await nc.send("!whoami")
            let ncNick = String(try await nc.expect("not logged in").split(separator: " ")[2].dropLast())
            let actors = [
                Outsider(
                    role: .stranger, label: "stranger", nick: "stran", client: stranger, isIRC: true,
                    password: Self.actorPassword, token: strangerToken),
                Outsider(
                    role: .blocked, label: "blocked", nick: "blox", client: blocked, isIRC: true,
                    password: Self.actorPassword, token: blockedToken),
                Outsider(
                    role: .loggedOut, label: "logged-out IRC", nick: "lurker", client: lurker, isIRC: true,
                    password: nil, token: nil),
                Outsider(
                    role: .loggedOut, label: "logged-out nc", nick: ncNick, client: nc, isIRC: false, password: nil,
                    token: nil),
            ]
            for actor in actors where actor.isIRC {
                try await actor.client.send("JOIN #owned")
                try await actor.client.expectNumeric("366")
            }

            // Lines the owner wrote: in the registered channel, in the secret one, to a friend.
            try await owner.send("PRIVMSG #owned :hello from owner")
            let msgid = ChathistoryTests.msgid(try await owner.expect("PRIVMSG #owned :hello from owner"))
            try await owner.send("PRIVMSG #hideout :hush hideout")
            let hideid = ChathistoryTests.msgid(try await owner.expect("PRIVMSG #hideout :hush hideout"))
            try await owner.send("PRIVMSG pal :hush plan")
            let pmid = ChathistoryTests.msgid(try await owner.expect("PRIVMSG pal :hush plan"))
            try await pal.expect("hush plan")
            try await owner.send("MARKREAD #owned timestamp=2026-01-01T00:00:00.000Z")
            try await owner.expect("MARKREAD #owned timestamp=2026-01-01T00:00:00.000Z")
            try await Self.waitForRows(
                server, "SELECT COUNT(*) FROM history WHERE text IN ('hello from owner', 'hush hideout', 'hush plan')",
                3)
            try await Self.waitForRows(server, "SELECT COUNT(*) FROM readMarker", 1)
            let fixture = Fixture(
                pictureID: pictureID, pictureURL: pictureURL, uploadLink: uploadLink, msgid: msgid, pmid: pmid,
                hideid: hideid)

            // Everyone has heard everything so far.
            for actor in actors { _ = try await Self.settle(actor.client, isIRC: actor.isIRC) }
            _ = try await Self.settle(owner, isIRC: true)
            _ = try await Self.settle(pal, isIRC: false)
            let before = try await Self.snapshot(server)
            let mediaBefore = Set(MemeTests.mediaFiles(server))

            // The table, for every outsider.
            var tried = 0
            for actor in actors {
                for item in Self.cases {
                    guard var expected = item.expected(for: actor.role) else { continue }
                    if item.via == .irc && !actor.isIRC { continue }
                    expected = expected.map { substitute($0, actor, fixture) }
                    let command = substitute(item.command, actor, fixture)
                    let what = "\(actor.label): \(command)"
                    let leaks = [Self.secret] + item.leaks
                    tried += 1
                    if item.via == .http {
                        let answer = try await http(command, server: server)
                        #expect(expected.contains { answer.hasPrefix($0) }, "\(what) → \(answer)")
                        #expect(!answer.lowercased().contains(Self.secret), "\(what) → \(answer)")
                        continue
                    }
                    switch (item.via, actor.isIRC) {
                    case (.bot, true): try await actor.client.send("PRIVMSG hearth :\(command)")
                    default: try await actor.client.send(command)
                    }
                    let reply = try await actor.client.expect("a refusal of \(what)") { line in
                        expected.contains { line.contains($0) }
                            || leaks.contains { line.lowercased().contains($0.lowercased()) }
                    }
                    #expect(expected.contains { reply.contains($0) }, "\(what) leaked: \(reply)")
                    let later = try await Self.settle(actor.client, isIRC: actor.isIRC, leaks: leaks)
                    #expect(later.isEmpty, "\(what) leaked: \(later)")
                }
            }
            #expect(tried > 250)

            // Nothing changed: the database, the files, the channel, the owner's and pal's connections.
            let after = try await Self.snapshot(server)
            #expect(Set(before.keys) == Set(after.keys))
            for (table, rows) in before where after[table] != rows {
                let added = Set(after[table] ?? []).subtracting(rows)
                let removed = Set(rows).subtracting(after[table] ?? [])
                Issue.record("table \(table) changed: added \(added), removed \(removed)")
            }
            #expect(Set(MemeTests.mediaFiles(server)) == mediaBefore)
            let ownerHeard = try await Self.settle(owner, isIRC: true, leaks: ["stran", "blox", "lurker", ncNick])
            #expect(ownerHeard.isEmpty, "the owner was reached: \(ownerHeard)")
            let palHeard = try await Self.settle(pal, isIRC: false, leaks: ["stran", "blox", "lurker", ncNick])
            #expect(palHeard.isEmpty, "pal was reached: \(palHeard)")

            try await owner.send("TOPIC #owned")
            try await owner.expect("#owned :owner's topic")
            try await owner.send("MODE #owned")
            try await owner.expect("324 owner #owned :+mnt")
            try await owner.send("NAMES #owned")
            let names = try await owner.expectNumeric("353")
            #expect(
                names.contains("@owner") && !names.contains("@stran") && !names.contains("@blox")
                    && !names.contains("@lurker"), "\(names)")
            #expect(names.contains("stran") && names.contains("blox") && names.contains("lurker"), "\(names)")
            try await owner.send("NAMES #hideout")
            #expect(try await owner.expectNumeric("353").hasSuffix(":@owner"))
            try await Self.tell(owner, "!channel info #owned", "#owned — owner owner")
            try await Self.tell(owner, "!images", "Your pictures (1):")
            try await Self.tell(owner, "!meme show 1", "“hush top | hush bottom”")
            try await owner.expect("♥ 0 likes · ★ 0 favourites · 1 comment")
            try await Self.tell(owner, "!whoami", "You are owner, logged in as owner")
            let (_, picture) = try await Web.fetch(fixture.pictureURL)
            #expect(picture.statusCode == 200)

            // The refusals were not for lack of things to see: the friend and the owner see them.
            try await pal.send("!memes owner")
            try await pal.expect("hush top | hush bottom")
            try await pal.send("!fortunes owner")
            try await pal.expect("Hushville")
            try await pal.send("!history owner")
            try await pal.expect("<owner> hush plan")
            try await Self.tell(owner, "!recipe 1", "#1 Hush soup by owner")
            try await Self.tell(owner, "!comments meme 1", "#1 owner: hush comment")
            try await Self.tell(owner, "!recipe new", "You have your draft “Hush stew”")
            // A stranger may look at a meme (memes are public by their number), the blocked user may not.
            try await Self.tell(stranger, "!meme show 1", "hush top | hush bottom")
        }
    }
}
