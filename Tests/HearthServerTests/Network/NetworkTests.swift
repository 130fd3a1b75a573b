import Foundation
import HearthAccounts
import HearthCrypto
import HearthStore
import HearthTesting
import Testing

/// Several `hearth serve --node` processes on one throw-away PostgreSQL: to users they are one
/// server. Each node is a real process on its own loopback ports, as an operator runs them.
@Suite(.serialized) struct NetworkTests {
    /// A running node: its name and IRC port.
    struct Node {
        var name: String
        var port: Int
        var process: Programs.Running
        /// The --database it was started with.
        var database: String
        /// The database's name.
        var databaseName: String { String(database.split(separator: "/").last ?? "") }
        /// The server secret every node of the network shares (`secret.key`).
        var secret: [UInt8]
        /// The host users see for a client connected from 127.0.0.1, on every node: its cloak.
        var localHost: String { HostCloak(secret: CodeHasher(key: secret)).host(for: "127.0.0.1") }
    }

    /// Every node has the IRC operator `root` with this password.
    static let operatorPassword = "t0p-secret"

    /// Starts one node per name on a fresh database, runs `body`, stops them all.
    static func withNodes(_ names: [String], _ body: ([Node]) async throws -> Void) async throws {
        let url = try await TestPostgres.freshDatabase("network")
        let database =
            "postgres://\(url.user):\(url.password ?? "")@\(url.host):\(url.port)/\(url.database)"
        let secret = Sodium.randomBytes(CodeHasher.keyBytes)
        try await start(names[...], database: database, secret: secret, started: [], body)
    }

    static func start(
        _ names: ArraySlice<String>, database: String, secret: [UInt8], started: [Node],
        _ body: ([Node]) async throws -> Void
    ) async throws {
        guard let name = names.first else {
            try await body(started)
            return
        }
        _ = try await serve(name, database: database, secret: secret) { node in
            try await start(names.dropFirst(), database: database, secret: secret, started: started + [node], body)
        }
    }

    /// Runs one node while `body` runs, then stops it with SIGTERM and says how it ended.
    static func serve<T: Sendable>(
        _ name: String, database: String, secret: [UInt8], _ body: (Node) async throws -> T
    ) async throws -> (T, Programs.Finished) {
        let flags = [
            "--server-name", "\(name).hearth", "--database", database, "--node", name, "--no-flood-control",
            "--oper", "root:\(operatorPassword)",
        ]
        // Every node gets the same secret, as an operator copies it: it keys codes and host cloaks.
        let directory = TestServer.tempDirectory()
        FileManager.default.createFile(
            atPath: directory + "/" + CodeHasher.fileName, contents: Data(secret),
            attributes: [.posixPermissions: 0o600])
        return try await Programs.serving(dataDirectory: directory, flags) { running, port in
            try await body(Node(name: name, port: port, process: running, database: database, secret: secret))
        }
    }

    /// Asks NAMES until `text` shows in the channel (the other node's events have arrived).
    static func waitUntil(_ client: TestClient, sees text: String, in channel: String) async throws {
        try await HearthTesting.waitUntil("\(text) to show in \(channel)") {
            try await client.send("NAMES \(channel)")
            let line = try await client.expect("NAMES") { $0.contains(" 353 ") || $0.contains(" 366 ") }
            return line.contains(text)
        }
    }

    static func user(_ nick: String, on node: Node, caps: [String] = []) async throws -> TestClient {
        let client = try await TestClient.connect(port: node.port)
        if !caps.isEmpty {
            try await client.send("CAP REQ :\(caps.joined(separator: " "))")
            try await client.send("CAP END")
        }
        try await client.send("NICK \(nick)")
        try await client.send("USER \(nick) 0 * :Real \(nick)")
        try await client.expectNumeric("001")
        try await client.expectNumeric("376")
        return client
    }

    @Test func usersOnDifferentNodesTalkAsOnOneServer() async throws {
        try await Self.withNodes(["alpha", "beta"]) { nodes in
            let ann = try await Self.user("ann", on: nodes[0])
            let bob = try await Self.user("bob", on: nodes[1], caps: ["message-tags", "server-time"])
            // A nick is taken network-wide.
            let copy = try await TestClient.connect(port: nodes[1].port)
            try await copy.send("NICK ann")
            try await copy.send("USER x 0 * :x")
            try await copy.expect(" 433 ")
            // Alpha hears of bob over the bus a moment after his 001 on beta (MONITOR says when).
            try await ann.send("MONITOR + bob")
            try await ann.expect(" 730 ") { $0.contains(" 730 ") && $0.contains(":bob!") }
            // Private messages both ways; WHOIS sees the other node's user.
            try await ann.send("PRIVMSG bob :hello from alpha")
            let line = try await bob.expect("PRIVMSG bob :hello from alpha")
            #expect(line.contains(":ann!~ann@") && line.contains("time="), "\(line)")
            try await bob.send("NOTICE ann :hi from beta")
            try await ann.expect(":bob!~bob@\(nodes[0].localHost) NOTICE ann :hi from beta")
            try await bob.send("WHOIS ann")
            try await bob.expect(" 311 bob ann ~ann \(nodes[0].localHost) * :Real ann")
            try await bob.expect(" 312 bob ann alpha.hearth ")
            try await bob.send("WHO a*")
            try await bob.expect(" 352 bob * ~ann \(nodes[0].localHost) alpha.hearth ann H")
            try await bob.send("LUSERS")
            try await bob.expect(" 251 bob :There are 2 users and 0 invisible on 2 servers")
            try await bob.expect(" 255 bob :I have 1 clients and 1 servers")
            // A channel spanning both nodes: JOIN, NAMES, messages, PART.
            try await ann.send("JOIN #net")
            try await ann.expectNumeric("366")
            // (A channel made on two nodes at the same moment gets an operator on each, as in a
            // netsplit: beta learns of ann's channel before bob joins it.)
            try await Self.waitUntil(bob, sees: "@ann", in: "#net")
            try await bob.send("JOIN #net")
            try await ann.expect(":bob!~bob@\(nodes[0].localHost) JOIN #net")
            let names = try await bob.expectNumeric("353")
            #expect(names.contains("ann") && names.contains("bob"), "\(names)")
            try await ann.send("PRIVMSG #net :one channel, two nodes")
            try await bob.expect("PRIVMSG #net :one channel, two nodes")
            try await bob.send("PRIVMSG #net :agreed")
            try await ann.expect(":bob!~bob@\(nodes[0].localHost) PRIVMSG #net :agreed")
            // The bot answers in the channel for everyone, whichever node asked it.
            try await ann.send("PRIVMSG #net :!whoami")
            try await bob.expect(":hearth!hearth@alpha.hearth PRIVMSG #net :")
            // The channel's operator is on alpha; topic and modes hold on beta too.
            try await ann.send("TOPIC #net :spanning nodes")
            try await bob.expect(":ann!~ann@\(nodes[0].localHost) TOPIC #net :spanning nodes")
            try await bob.send("TOPIC #net :mine now")
            try await bob.expectNumeric("482")
            try await ann.send("MODE #net +m")
            try await bob.expect(":ann!~ann@\(nodes[0].localHost) MODE #net :+m")
            try await bob.send("PRIVMSG #net :can I speak?")
            try await bob.expectNumeric("404")
            try await ann.send("MODE #net +v bob")
            try await bob.expect(":ann!~ann@\(nodes[0].localHost) MODE #net +v :bob")
            try await bob.send("PRIVMSG #net :now I can")
            try await ann.expect("PRIVMSG #net :now I can")
            // AWAY is known on the other node; INVITE reaches across it.
            try await bob.send("AWAY :lunch")
            try await bob.expectNumeric("306")
            var away = false
            for _ in 0..<100 where !away {
                try await ann.send("WHOIS bob")
                away = try await ann.expect("WHOIS") { $0.contains(" 301 ") || $0.contains(" 318 ") }.contains(" 301 ")
                if !away { try await Task.sleep(for: .milliseconds(50)) }
            }
            try await ann.send("PRIVMSG bob :there?")
            try await ann.expect(" 301 ann bob :lunch")
            try await ann.send("MODE #net +i")
            try await bob.expect("MODE #net :+i")
            try await bob.send("PART #net")
            try await ann.expect("PART :#net")
            try await bob.send("JOIN #net")
            try await bob.expectNumeric("473")
            try await ann.send("INVITE bob #net")
            try await bob.expect(":ann!~ann@\(nodes[0].localHost) INVITE bob :#net")
            try await bob.send("JOIN #net")
            try await ann.expect(":bob!~bob@\(nodes[0].localHost) JOIN #net")
            // NICK and QUIT reach the other node's channel members (PART did above).
            try await bob.send("NICK robert")
            try await ann.expect(":bob!~bob@\(nodes[0].localHost) NICK robert")
            try await bob.send("QUIT :done")
            try await ann.expect(":robert!~bob@\(nodes[0].localHost) QUIT :Quit: done")
            // The nick is free again everywhere (once bob's node has released its claim, which
            // may come a moment after ann saw the QUIT).
            let again = try await TestClient.connect(port: nodes[0].port)
            try await again.send("USER robert 0 * :Real robert")
            var welcomed = false
            for _ in 0..<200 where !welcomed {
                try await again.send("NICK robert")
                let answer = try await again.expect("001 or 433") { $0.contains(" 001 ") || $0.contains(" 433 ") }
                welcomed = answer.contains(" 001 ")
                if !welcomed { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(welcomed)
            await again.close()
            await ann.close()
        }
    }

    @Test func twoNodesRacingForOneNickGiveItToExactlyOne() async throws {
        try await Self.withNodes(["alpha", "beta"]) { nodes in
            for round in 0..<5 {
                let nick = "racer\(round)"
                let clients = [
                    try await TestClient.connect(port: nodes[0].port),
                    try await TestClient.connect(port: nodes[1].port),
                ]
                for client in clients { try await client.send("USER r 0 * :r") }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for client in clients { group.addTask { try await client.send("NICK \(nick)") } }
                    try await group.waitForAll()
                }
                var welcomed = 0
                for client in clients {
                    let line = try await client.expect("001 or 433") { $0.contains(" 001 ") || $0.contains(" 433 ") }
                    if line.contains(" 001 ") { welcomed += 1 }
                }
                #expect(welcomed == 1, "round \(round): \(welcomed) clients got \(nick)")
                for client in clients { await client.close() }
            }
        }
    }

    @Test func aNodeThatDiesOrStopsTakesItsUsersAlong() async throws {
        try await Self.withNodes(["alpha", "beta", "gamma"]) { nodes in
            let ann = try await Self.user("ann", on: nodes[0])
            try await ann.send("JOIN #net")
            try await ann.expectNumeric("366")
            let bob = try await Self.user("bob", on: nodes[1])
            let cid = try await Self.user("cid", on: nodes[2])
            for user in [bob, cid] {
                try await user.send("JOIN #net")
                try await user.expectNumeric("366")
            }
            try await ann.expect("JOIN #net")
            try await ann.expect("JOIN #net")
            // SIGTERM: the node says goodbye, so its users leave at once.
            nodes[1].process.terminate()
            try await ann.expect(":bob!~bob@\(nodes[0].localHost) QUIT :beta shut down")
            // kill -9: the others notice the missing heartbeat (within 15 s) and free the nick.
            nodes[2].process.kill()
            try await ann.expect(":cid!~cid@\(nodes[0].localHost) QUIT :gamma was lost", timeout: 30)
            let again = try await Self.user("cid", on: nodes[0])
            let listed = try await Programs.hearth(["nodes", "--database", nodes[0].database])
            #expect(listed.output.contains("alpha") && !listed.output.contains("gamma"), "\(listed.output)")
            await again.close()
            await ann.close()
        }
    }

    @Test func aNodeStartedLaterSeesTheNetworkAsItIs() async throws {
        try await Self.withNodes(["alpha"]) { nodes in
            let ann = try await Self.user("ann", on: nodes[0])
            try await ann.send("JOIN #net")
            try await ann.expectNumeric("366")
            try await ann.send("TOPIC #net :older than beta")
            try await ann.expect("TOPIC #net")
            try await ann.send("MODE #net +k sesame")
            try await ann.expect("MODE #net +k")
            try await Self.start(["beta"], database: nodes[0].database, secret: nodes[0].secret, started: []) { later in
                let bob = try await Self.user("bob", on: later[0])
                // Users and channels that were there before it came.
                try await bob.send("WHOIS ann")
                try await bob.expect(" 312 bob ann alpha.hearth ")
                try await bob.send("JOIN #net")
                try await bob.expectNumeric("475")
                try await bob.send("JOIN #net sesame")
                try await bob.expect(" 332 bob #net :older than beta")
                let names = try await bob.expectNumeric("353")
                #expect(names.contains("@ann") && !names.contains("@bob"), "\(names)")
                try await ann.expect(":bob!~bob@\(nodes[0].localHost) JOIN #net")
                await bob.close()
            }
            await ann.close()
        }
    }

    /// A restarted node rebuilds a channel's bans, exceptions and invite exceptions from the
    /// others' announcements (it once let anyone banned on another node in through it), and
    /// later changes reach it as before.
    @Test func aRestartedNodeKeepsTheChannelsListModes() async throws {
        try await Self.withNodes(["alpha", "beta"]) { nodes in
            let ann = try await Self.user("ann", on: nodes[0])
            try await ann.send("JOIN #net")
            try await ann.expectNumeric("366")
            let old = try await Self.user("old", on: nodes[1])
            try await old.send("JOIN #net")
            try await old.expectNumeric("366")
            for (change, mask) in [("+b", "b*!*@*"), ("+e", "bea!*@*"), ("+I", "cid!*@*")] {
                try await ann.send("MODE #net \(change) \(mask)")
                try await old.expect("MODE #net \(change) :\(mask)")
            }
            nodes[1].process.terminate()
            try await ann.expect(":old!~old@\(nodes[0].localHost) QUIT :beta shut down")
            try await Self.start(["beta"], database: nodes[0].database, secret: nodes[0].secret, started: []) {
                restarted in
                let cat = try await Self.user("cat", on: restarted[0])
                try await cat.send("JOIN #net")
                try await cat.expectNumeric("366")
                let bob = try await Self.user("bob", on: restarted[0])
                try await bob.send("JOIN #net")
                try await bob.expectNumeric("474")
                try await bob.send("MODE #net b")
                let ban = try await bob.expectNumeric("367")
                #expect(ban.contains(" #net b*!*@* ann!~ann@"), "\(ban)")
                let bea = try await Self.user("bea", on: restarted[0])
                try await bea.send("JOIN #net")
                try await bea.expectNumeric("366")
                try await ann.send("MODE #net +i")
                try await cat.expect("MODE #net :+i")
                let cid = try await Self.user("cid", on: restarted[0])
                try await cid.send("JOIN #net")
                try await cid.expectNumeric("366")
                // An unban on alpha is seen by the restarted beta.
                try await ann.send("MODE #net -i")
                try await cat.expect("MODE #net :-i")
                try await ann.send("MODE #net -b b*!*@*")
                try await cat.expect("MODE #net -b :b*!*@*")
                try await bob.send("JOIN #net")
                try await bob.expectNumeric("366")
                for user in [cat, bob, bea, cid] { await user.close() }
            }
            await ann.close()
        }
    }

    @Test func theDatabaseRestartingLosesNothing() async throws {
        try await Self.withNodes(["alpha", "beta"]) { nodes in
            let ann = try await Self.user("ann", on: nodes[0])
            let cat = try await Self.user("cat", on: nodes[0])
            let bob = try await Self.user("bob", on: nodes[1])
            for user in [ann, cat, bob] {
                try await user.send("JOIN #net")
                try await user.expectNumeric("366")
            }
            try await ann.expect(":bob!~bob@\(nodes[0].localHost) JOIN #net")
            try await TestPostgres.cutOff(nodes[0].databaseName)
            // Chat on one node goes on while the database is away.
            try await ann.send("PRIVMSG cat :still here?")
            try await cat.expect("PRIVMSG cat :still here?")
            try await ann.send("PRIVMSG #net :said while the database was away")
            try await cat.expect("PRIVMSG #net :said while the database was away")
            try await bob.send("PRIVMSG #net :bob too")
            try await Task.sleep(for: .seconds(2))
            try await TestPostgres.letIn(nodes[0].databaseName)
            // Across nodes it arrives once the database is back: once, and in order.
            try await bob.expect("PRIVMSG #net :said while the database was away", timeout: 20)
            try await ann.expect("PRIVMSG #net :bob too", timeout: 20)
            try await ann.send("PRIVMSG bob :and after")
            try await bob.expect("PRIVMSG bob :and after", timeout: 20)
            try await ann.send("PRIVMSG #net :sentinel")
            try await bob.expectNoLine(containing: "while the database was away", before: "sentinel")
            await ann.close()
            await cat.close()
            await bob.close()
        }
    }

    /// 300 users on three nodes chat for 30 s while one node is killed and started again: every
    /// line a sender on a surviving node had echoed back (acknowledged) reaches every surviving
    /// member, in the sender's order, once.
    @Test func aSoakWithANodeKilledAndRestartedLosesNothingAcknowledged() async throws {
        let perNode = 100
        let sendersPerNode = 10
        try await Self.withNodes(["alpha", "beta", "gamma"]) { nodes in
            var members: [[TestClient]] = []
            for (index, node) in nodes.enumerated() {
                var here: [TestClient] = []
                for n in 0..<perNode {
                    let client = try await Self.user(
                        "s\(index)x\(n)", on: node, caps: ["echo-message", "message-tags"])
                    try await client.send("JOIN #soak")
                    here.append(client)
                }
                members.append(here)
            }
            for client in members.joined() { try await client.expectNumeric("366", timeout: 30) }
            // Every member sees all 300 before the chat starts.
            for client in members[0] + members[1] {
                try await client.expect("last joiner", timeout: 30) { $0.contains(":s2x\(perNode - 1)!") }
            }
            let senders = (0..<3).flatMap { node in (0..<sendersPerNode).map { (node, $0) } }
            let stop = ContinuousClock.now + .seconds(30)
            let killAt = ContinuousClock.now + .seconds(10)
            // Each sender sends a numbered line every 300 ms until the end.
            let joined = members
            let chatting = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (node, n) in senders {
                        let client = joined[node][n]
                        group.addTask {
                            var seq = 0
                            while ContinuousClock.now < stop {
                                seq += 1
                                try? await client.send("PRIVMSG #soak :s\(node)x\(n) line \(seq)")
                                try await Task.sleep(for: .milliseconds(300))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            try await Task.sleep(until: killAt)
            nodes[2].process.kill()
            try await Task.sleep(for: .seconds(5))
            try await Self.start(["gamma"], database: nodes[0].database, secret: nodes[0].secret, started: []) { _ in
                try await chatting.value
            }
            try await Task.sleep(for: .seconds(3))  // the last lines on their way
            let survivors = members[0] + members[1]
            // What each surviving sender had acknowledged (its echo), in order.
            var acknowledged: [String: [Int]] = [:]
            for (node, n) in senders where node < 2 {
                let nick = "s\(node)x\(n)"
                acknowledged[nick] = Self.lines(from: nick, in: members[node][n].unread())
            }
            for member in survivors {
                let lines = member.unread()
                for (sender, acked) in acknowledged where !acked.isEmpty {
                    let seen = Self.lines(from: sender, in: lines)
                    #expect(seen == seen.sorted() && Set(seen).count == seen.count, "\(sender): order or doubles")
                    #expect(Set(acked).isSubset(of: Set(seen)), "\(sender): lost \(Set(acked).subtracting(seen).count)")
                }
            }
            #expect(acknowledged.values.allSatisfy { $0.count > 50 }, "senders were slowed down")
            for client in members.joined() { await client.close() }
        }
    }

    /// The numbers of `sender`'s "line N" messages to #soak among `lines`.
    static func lines(from sender: String, in lines: [String]) -> [Int] {
        lines.compactMap { line in
            guard line.contains(":\(sender)!"), line.contains("PRIVMSG #soak :\(sender) line ") else { return nil }
            return line.split(separator: " ").last.flatMap { Int($0) }
        }
    }

    @Test func accountsAndBlocksHoldAcrossNodes() async throws {
        try await Self.withNodes(["alpha", "beta"]) { nodes in
            let ann = try await Self.user("ann", on: nodes[0])
            let bob = try await Self.user("bob", on: nodes[1])
            try await ann.send("PRIVMSG hearth :!register ann s3cret-pass")
            try await ann.expect("PRIVMSG ann :Welcome")
            try await bob.send("PRIVMSG hearth :!register bob s3cret-pass")
            try await bob.expect("PRIVMSG bob :Welcome")
            // The other node knows whose account a user speaks for.
            try await bob.send("WHOIS ann")
            try await bob.expect(" 330 bob ann ann ")
            try await bob.send("PRIVMSG hearth :!block ann")
            try await bob.expect("PRIVMSG bob :")
            try await bob.sync()
            // The block on its way to alpha: knocks reach bob until it is there.
            try await HearthTesting.waitUntil("alpha to know of the block") {
                try await ann.send("PRIVMSG bob :knock")
                try await ann.send("PING knocked")
                let answer = try await ann.expect("the refusal or the PONG") {
                    $0.contains("does not accept messages from you") || $0.contains("PONG")
                }
                if !answer.contains("PONG") { try await ann.expect("PONG") }
                return answer.contains("does not accept messages from you")
            }
            try await ann.send("PRIVMSG bob :hello?")
            try await ann.expect("does not accept messages from you")
            try await bob.send("PING end")
            try await bob.expectNoLine(containing: "hello?", before: "PONG")
            await ann.close()
            await bob.close()
        }
    }
    @Test func oneAccountsDevicesOnTwoNodesShareOneNick() async throws {
        try await Self.withNodes(["alpha", "beta"]) { nodes in
            let ann = try await Self.user("ann", on: nodes[0])
            try await ann.send("PRIVMSG hearth :!register ann s3cret-pass")
            try await ann.expect("PRIVMSG ann :Welcome")
            try await ann.send("JOIN #den")
            try await ann.expect("JOIN #den")
            let bob = try await Self.user("bob", on: nodes[1])
            try await bob.send("JOIN #den")
            try await bob.expect("JOIN #den")
            // The join's own NAMES, read now: the NAMES asked below must not find this one (under load
            // beta may not know of ann's join yet, and this one lists only bob).
            try await bob.expect(" 366 ")
            try await ann.expect(":bob!")
            // Her phone, on the other node, logs in as ann: it is ann there too, in her channels.
            let phone = try await TestClient.connect(port: nodes[1].port)
            try await phone.send("PASS ann:s3cret-pass")
            try await phone.send("NICK ann")
            try await phone.send("USER ann 0 * :Ann's phone")
            try await phone.expect(" 001 ann ")
            try await phone.expect(" JOIN #den")  // she sits there on this node too
            try await bob.send("NAMES #den")
            let names = try await bob.expect(" 353 ")
            #expect(names.components(separatedBy: "ann").count == 2, "ann once: \(names)")
            // A private message reaches both devices; what one sends, the other sees.
            try await bob.send("PRIVMSG ann :hi both")
            try await ann.expect("PRIVMSG ann :hi both")
            try await phone.expect("PRIVMSG ann :hi both")
            try await phone.send("PRIVMSG bob :from the phone")
            try await bob.expect(":ann!")
            try await ann.expect("PRIVMSG bob :from the phone")
            try await bob.send("PRIVMSG #den :hello den")
            try await ann.expect("PRIVMSG #den :hello den")
            try await phone.expect("PRIVMSG #den :hello den")
            // Parting on one device parts the user; joining on the other brings both back.
            try await phone.send("PART #den")
            try await ann.expect(" PART ")
            try await bob.expect(" PART ")
            try await ann.send("JOIN #den")
            try await phone.expect(" JOIN ")
            try await bob.expect(" JOIN ")
            // One device leaving is not the user leaving.
            await phone.close()
            try await Task.sleep(for: .milliseconds(500))
            try await bob.send("WHOIS ann")
            try await bob.expect(" 311 bob ann ")
            try await bob.send("PING still")
            try await bob.expectNoLine(containing: "QUIT", before: "PONG")
            await ann.close()
            try await bob.expect(":ann!")  // QUIT
            await bob.close()
        }
    }
    /// A device that registers as a guest and then logs in (`!login`) on another node is one more
    /// device of the user there, not a second "ann" joining; logging out again leaves the user as is.
    @Test func aDeviceLoggingInAfterRegisteringIsOneUserOnTheOtherNode() async throws {
        try await Self.withNodes(["alpha", "beta"]) { nodes in
            let ann = try await Self.user("ann", on: nodes[0])
            try await ann.send("PRIVMSG hearth :!register ann s3cret-pass")
            try await ann.expect("PRIVMSG ann :Welcome")
            let carol = try await Self.user("carol", on: nodes[0])
            for client in [ann, carol] {
                try await client.send("JOIN #den")
                try await client.expect(" 366 ")
            }
            try await carol.sync()
            let phone = try await Self.user("annphone", on: nodes[1])
            try await phone.send("PRIVMSG hearth :!login ann s3cret-pass")
            try await phone.expect(" JOIN #den")  // one more device of ann: in her channels
            try await phone.send("PRIVMSG #den :from the phone")
            // Alpha applies beta's events in order: by the phone's line, the login's are applied.
            try await carol.expectNoLine(containing: " JOIN ", before: "from the phone")
            try await ann.expect("from the phone")
            try await carol.send("NAMES #den")
            let names = try await carol.expect(" 353 ")
            #expect(names.components(separatedBy: "ann").count == 2, "ann once: \(names)")

            // Logged out, the phone is a guest again; ann on alpha keeps her nick and her seat.
            try await phone.send("PRIVMSG hearth :!logout")
            try await phone.expect(" NICK ")
            try await phone.send("PRIVMSG carol :a guest now")
            try await carol.expectNoLine(containing: " NICK ", before: "a guest now")
            try await ann.send("PRIVMSG #den :still ann")
            let still = try await carol.expect("still ann")
            #expect(still.hasPrefix(":ann!"), "\(still)")
            try await carol.send("NAMES #den")
            let after = try await carol.expect(" 353 ")
            #expect(after.components(separatedBy: "ann").count == 2, "ann once: \(after)")
            for client in [ann, carol, phone] { await client.close() }
        }
    }

    @Test func channelsMadeOnTwoNodesAtOnceHaveOneOperatorAndOneHistory() async throws {
        try await Self.withNodes(["alpha", "beta"]) { nodes in
            let caps = ["batch", "server-time", "message-tags", "draft/chathistory"]
            let ann = try await Self.user("ann", on: nodes[0], caps: caps)
            let bob = try await Self.user("bob", on: nodes[1], caps: caps)
            for (user, name) in [(ann, "ann"), (bob, "bob")] {
                try await user.send("PRIVMSG hearth :!register \(name) s3cret-pass")
                try await user.expect("PRIVMSG \(name) :Welcome")
            }
            // Both make the same channels in the same moment, each on its own node.
            let channels = (1...5).map { "#race\($0)" }
            async let annJoined: Void = ann.send("JOIN \(channels.joined(separator: ","))")
            async let bobJoined: Void = bob.send("JOIN \(channels.joined(separator: ","))")
            _ = try await (annJoined, bobJoined)
            for channel in channels {
                try await Self.waitUntil(ann, sees: "bob", in: channel)
                try await Self.waitUntil(bob, sees: "ann", in: channel)
                for user in [ann, bob] {
                    try await user.send("NAMES \(channel)")
                    let names = try await user.expect("NAMES \(channel)") {
                        $0.contains(" 353 ") && $0.contains(" \(channel) :") && $0.contains("ann") && $0.contains("bob")
                    }
                    #expect(names.components(separatedBy: "@").count == 2, "one operator in \(channel): \(names)")
                }
            }
            try await ann.send("PRIVMSG #race1 :from alpha")
            try await bob.expect("PRIVMSG #race1 :from alpha")
            try await bob.send("PRIVMSG #race1 :from beta")
            try await ann.expect("PRIVMSG #race1 :from beta")
            // Either node's history has what was said on both.
            for user in [ann, bob] {
                var texts: [String] = []
                for _ in 0..<100 {
                    try await user.send("CHATHISTORY LATEST #race1 * 10")
                    texts = try await ChathistoryTests.batch(user).map { String($0.split(separator: ":").last!) }
                    if texts.count >= 2 { break }
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(texts == ["from alpha", "from beta"])
            }
            await ann.close()
            await bob.close()
        }
    }
}
