import Foundation
import HearthAccounts
import HearthCrypto
import HearthTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Nicks in a network of real `hearth serve --node` processes (issue 37): one truth for who
/// holds a nick, through races, a node's stall and the database going away.
@Suite(.serialized) struct NetworkNickTests {
    typealias Node = NetworkTests.Node

    /// Lets `count` tasks go at the same moment: each waits in `arrive` until all are there.
    final class Barrier: Sendable {
        private let state: Mutex<(waiting: Int, continuations: [CheckedContinuation<Void, Never>])>
        init(_ count: Int) { state = Mutex((count, [])) }

        func arrive() async {
            await withCheckedContinuation { continuation in
                let go = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.waiting -= 1
                    state.continuations.append(continuation)
                    return state.waiting == 0 ? state.continuations : []
                }
                for waiter in go { waiter.resume() }
            }
        }
    }

    /// Sends `line` on every client at once (barrier-started).
    static func atOnce(_ clients: [TestClient], _ line: String) async throws {
        let barrier = Barrier(clients.count)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients {
                group.addTask {
                    await barrier.arrive()
                    try await client.send(line)
                }
            }
            try await group.waitForAll()
        }
    }

    /// Asks for `nick` on a new connection to `node` until it is given (001), not 433 or 437.
    static func waitUntilFree(_ nick: String, on node: Node, timeout: Double) async throws {
        let again = try await TestClient.connect(port: node.port)
        try await again.send("USER \(nick) 0 * :\(nick)")
        try await HearthTesting.waitUntil("\(nick) to be free on \(node.name)", timeout: timeout) {
            try await again.send("NICK \(nick)")
            let line = try await again.expect("001, 433 or 437") {
                $0.contains(" 001 ") || $0.contains(" 433 ") || $0.contains(" 437 ")
            }
            return line.contains(" 001 ")
        }
        await again.close()
    }

    /// Issue 37, failure 1: the winner of a nick race is reachable from every node. Each round,
    /// one unregistered connection per node asks for the same nick at once (in half the rounds
    /// two of them hold it before they send USER, as a client still negotiating does): exactly
    /// one gets 001, and every node's watcher sees the winner online (MONITOR), finds it with
    /// WHOIS and reaches it with PRIVMSG.
    @Test func theWinnerOfANickRaceIsReachableFromEveryNode() async throws {
        try await NetworkTests.withNodes(["alpha", "beta", "gamma"]) { nodes in
            var watchers: [TestClient] = []
            for (index, node) in nodes.enumerated() {
                watchers.append(try await NetworkTests.user("watch\(index)", on: node))
            }
            for round in 0..<8 {
                let nick = "yy\(round)"
                for watcher in watchers { try await watcher.send("MONITOR + \(nick)") }
                for watcher in watchers { try await watcher.expectNumeric("731") }
                var racers: [TestClient] = []
                for node in nodes { racers.append(try await TestClient.connect(port: node.port)) }
                var winners: [Int] = []
                var asked = racers.indices
                if round.isMultiple(of: 2) {
                    for racer in racers { try await racer.send("USER r 0 * :r") }
                    try await Self.atOnce(racers, "NICK \(nick)")
                } else {
                    // Two hold the nick while registering; the third registers with it.
                    try await Self.atOnce(Array(racers[1...]), "NICK \(nick)")
                    for racer in racers[1...] { try await racer.sync() }
                    try await racers[0].send("NICK \(nick)")
                    try await racers[0].send("USER r 0 * :r")
                    try await racers[0].expectNumeric("001")
                    (winners, asked) = ([0], 1..<racers.count)
                    try await Self.atOnce(Array(racers[1...]), "USER r 0 * :r")
                }
                for index in asked {
                    let line = try await racers[index].expect("001 or 433") {
                        $0.contains(" 001 ") || $0.contains(" 433 ")
                    }
                    if line.contains(" 001 ") { winners.append(index) }
                }
                #expect(winners.count == 1, "round \(round): \(winners.count) clients got \(nick)")
                guard let winner = winners.first else { continue }
                for (index, watcher) in watchers.enumerated() {
                    try await watcher.expect("round \(round): \(nick) online for watch\(index)") {
                        $0.contains(" 730 ") && $0.contains(":\(nick)!")
                    }
                    try await watcher.send("WHOIS \(nick)")
                    try await watcher.expect(" 312 watch\(index) \(nick) \(nodes[winner].name).hearth ")
                    try await watcher.send("PRIVMSG \(nick) :hello from \(index)")
                    try await racers[winner].expect("PRIVMSG \(nick) :hello from \(index)")
                }
                for racer in racers { await racer.close() }
                for watcher in watchers { try await watcher.expect(" 731 ") }
            }
            for watcher in watchers { await watcher.close() }
        }
    }

    /// Issue 37, failure 3: after a stall long enough for the others to take the node out, the
    /// node claims each user's nick again; a user whose nick was taken meanwhile is renamed
    /// (told why) before the others hear of it, so every node lists one `rcs0`, the one that
    /// took it; a line typed during the stall does not reach a channel it was removed from.
    @Test func aNodeResumingAfterAStallRenamesTheUsersWhoseNickWasTaken() async throws {
        try await NetworkTests.withNodes(["alpha", "beta", "gamma"]) { nodes in
            let stalled = try await NetworkTests.user("rcs0", on: nodes[2])
            let keeper = try await NetworkTests.user("keeper", on: nodes[2])
            let ann = try await NetworkTests.user("ann", on: nodes[0])
            let bob = try await NetworkTests.user("bob", on: nodes[1])
            for user in [ann, bob, stalled, keeper] {
                try await user.send("JOIN #sb")
                try await user.expectNumeric("366")
            }
            for user in [ann, bob] { try await NetworkTests.waitUntil(user, sees: "keeper", in: "#sb") }
            nodes[2].process.send(SIGSTOP)
            let taker: TestClient
            do {
                for user in [ann, bob] {
                    try await user.expect("rcs0's QUIT", timeout: 40) {
                        $0.hasPrefix(":rcs0!") && $0.contains(" QUIT ")
                    }
                }
                taker = try await NetworkTests.user("rcs0", on: nodes[0])
                try await taker.send("JOIN #sb")
                try await taker.expectNumeric("366")
                try await bob.expect(" JOIN #sb")
                try await stalled.send("PRIVMSG #sb :typed in the stall")
            } catch {
                nodes[2].process.send(SIGCONT)  // a stopped node cannot stop
                throw error
            }
            nodes[2].process.send(SIGCONT)
            // The stalled node's user is renamed, and told why, before it is back.
            let renamed = try await stalled.expect("the rename") { $0.hasPrefix(":rcs0!") && $0.contains(" NICK ") }
            let newNick = String(renamed.split(separator: " ").last!.drop { $0 == ":" })
            #expect(newNick != "rcs0")
            try await stalled.expect("was taken")
            for user in [ann, bob] { try await user.expect(":\(newNick)!", timeout: 30) { $0.contains(" JOIN ") } }
            for (index, user) in [ann, bob, keeper].enumerated() {
                try await NetworkTests.waitUntil(user, sees: newNick, in: "#sb")
                try await user.send("NAMES #sb")
                let names = try await user.expect("names") { $0.contains(" 353 ") }
                let listed = names.split(separator: ":").last!.split(separator: " ")
                #expect(listed.filter { $0.hasSuffix("rcs0") }.count == 1, "node \(index): \(names)")
                try await user.send("WHOIS rcs0")
                try await user.expect(" 312 \(["ann", "bob", "keeper"][index]) rcs0 alpha.hearth ")
            }
            try await stalled.send("PRIVMSG #sb :after the stall")
            for user in [ann, bob] {
                try await user.expectNoLine(containing: "typed in the stall", before: "after the stall")
            }
            for user in [ann, bob, taker, stalled, keeper] { await user.close() }
        }
    }

    /// Issue 37, failure 4: with the database stopped, a user quits; its nick is free again
    /// once the database is back (the release is retried). While it is away, registering and
    /// NICK answer at once that the nick cannot be checked now (437), never a false 433.
    @Test func aNickReleasedWhileTheDatabaseIsAwayIsFreeOnceItIsBack() async throws {
        let cluster = try await TestPostgres.Cluster.start()
        do {
            let database = try await cluster.freshDatabase("nicks")
            let secret = Sodium.randomBytes(CodeHasher.keyBytes)
            try await NetworkTests.start(["alpha", "beta"], database: database, secret: secret, started: []) { nodes in
                let leaver = try await NetworkTests.user("leaver", on: nodes[1])
                let ann = try await NetworkTests.user("ann", on: nodes[0])
                try await ann.send("MONITOR + leaver")
                try await ann.expectNumeric("730")
                try await cluster.pause()
                let newcomer = try await TestClient.connect(port: nodes[0].port)
                do {
                    try await leaver.send("QUIT :bye")
                    try await leaver.expectClosed()
                    // A new connection and a NICK to a free nick: an answer that says why, quickly.
                    try await newcomer.send("NICK fresh")
                    try await newcomer.send("USER fresh 0 * :fresh")
                    let answer = try await newcomer.expect("an answer", timeout: 5) { $0.contains(" fresh ") }
                    #expect(answer.contains(" 437 "), "\(answer)")
                    try await ann.send("NICK annie")
                    let renamed = try await ann.expect("an answer", timeout: 5) { $0.contains("annie") }
                    #expect(renamed.contains(" 437 "), "\(renamed)")
                } catch {
                    // Nodes stop only once they have said goodbye through the database.
                    try await cluster.resume()
                    throw error
                }
                try await cluster.resume()
                // Once the database is back, the nick the leaver held is free on every node.
                for node in nodes { try await Self.waitUntilFree("leaver", on: node, timeout: 30) }
                await newcomer.close()
                await ann.close()
            }
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    /// While the database is away, a PASS login is neither granted nor refused: within about
    /// `NetworkNicks.answerWait` the client hears FAIL PASS TEMPORARILY_UNAVAILABLE and 437 (no
    /// false "Password incorrect" after the store's 5-second timeout, as before), and the same
    /// PASS logs in with the next NICK once the database is back. SASL PLAIN answers 904.
    @Test func aPassLoginWhileTheDatabaseIsAwayAnswersQuicklyAndWorksOnceItIsBack() async throws {
        let cluster = try await TestPostgres.Cluster.start()
        do {
            let database = try await cluster.freshDatabase("login")
            let secret = Sodium.randomBytes(CodeHasher.keyBytes)
            try await NetworkTests.start(["alpha"], database: database, secret: secret, started: []) { nodes in
                let ann = try await NetworkTests.user("ann", on: nodes[0])
                try await ann.send("PRIVMSG hearth :!register ann s3cret-pass")
                try await ann.expect("PRIVMSG ann :Welcome")
                try await ann.send("QUIT")
                try await ann.expectClosed()
                try await cluster.pause()
                let phone = try await TestClient.connect(port: nodes[0].port)
                let sasl = try await TestClient.connect(port: nodes[0].port)
                do {
                    try await phone.send("PASS ann:s3cret-pass\r\nNICK ann\r\nUSER ann 0 * :Ann's phone")
                    let fail = try await phone.expect("an answer", timeout: 4) {
                        $0.contains(" ann") || $0.contains("FAIL")
                    }
                    #expect(fail.contains("FAIL PASS TEMPORARILY_UNAVAILABLE"), "\(fail)")
                    try await phone.expect(" 437 ", timeout: 4)
                    // SASL: a clear failure (after the store's own timeout), never silence.
                    try await sasl.send("CAP REQ :sasl\r\nAUTHENTICATE PLAIN")
                    try await sasl.expect("AUTHENTICATE +")
                    let plain = Data("ann\0ann\0s3cret-pass".utf8).base64EncodedString()
                    try await sasl.send("AUTHENTICATE \(plain)")
                    try await sasl.expect(" 904 ", timeout: 10)
                } catch {
                    try await cluster.resume()
                    throw error
                }
                try await cluster.resume()
                // Nothing was decided: the same PASS logs in once the database answers again.
                var welcomed = false
                try await HearthTesting.waitUntil("the phone to log in", timeout: 30) {
                    try await phone.send("NICK ann")
                    let line = try await phone.expect("an answer") {
                        $0.contains(" 001 ") || $0.contains(" 437 ") || $0.contains(" 433 ")
                    }
                    welcomed = line.contains(" 001 ann ")
                    return welcomed
                }
                try await phone.send("WHOIS ann")
                try await phone.expect(" 330 ann ann ann ")
                for client in [phone, sasl] { await client.close() }
            }
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    /// A node given SIGTERM while the database is away exits at once (its goodbye is tried for
    /// `NetworkNode.goodbyeWait`, never until the database is back, where systemd would SIGKILL
    /// it); once the database is back, the others take it for lost and its users' nicks are free.
    @Test func aNodeStoppedWhileTheDatabaseIsAwayExitsAndItsNicksAreFreedLater() async throws {
        let cluster = try await TestPostgres.Cluster.start()
        do {
            let database = try await cluster.freshDatabase("goodbye")
            let secret = Sodium.randomBytes(CodeHasher.keyBytes)
            try await NetworkTests.start(["alpha"], database: database, secret: secret, started: []) { nodes in
                let (_, finished) = try await NetworkTests.serve("beta", database: database, secret: secret) { beta in
                    let stayer = try await NetworkTests.user("stayer", on: beta)
                    try await cluster.pause()
                    beta.process.terminate()
                    // Far past the goodbye's deadline: a node still running then would run until
                    // the database is back; it is killed, and its status says so.
                    do {
                        try await HearthTesting.waitUntil("beta to exit", timeout: 20) { beta.process.ended }
                    } catch {
                        beta.process.kill()
                    }
                    await stayer.close()
                }
                #expect(finished.status == 0, "\(finished.output.suffix(2000))")
                try await cluster.resume()
                // The others take it for lost once its heartbeat is old (15 s after the database is back).
                try await Self.waitUntilFree("stayer", on: nodes[0], timeout: 60)
            }
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    /// An operator's KILL of a user of another node ends that user's session on its own node;
    /// everyone in its channels, on every node, sees its QUIT once.
    @Test func killingAUserOfAnotherNodeEndsItsSession() async throws {
        try await NetworkTests.withNodes(["alpha", "beta"]) { nodes in
            let root = try await NetworkTests.user("root", on: nodes[0])
            try await root.send("OPER root \(NetworkTests.operatorPassword)")
            try await root.expectNumeric("381")
            let victim = try await NetworkTests.user("victim", on: nodes[1])
            let near = try await NetworkTests.user("near", on: nodes[1])
            let far = try await NetworkTests.user("far", on: nodes[0])
            for user in [victim, near, far] {
                try await user.send("JOIN #k")
                try await user.expectNumeric("366")
            }
            try await NetworkTests.waitUntil(far, sees: "victim", in: "#k")
            try await NetworkTests.waitUntil(root, sees: "near", in: "#k")
            try await root.send("KILL victim :spam")
            try await victim.expect("ERROR :Closing Link")
            try await victim.expectClosed()
            for user in [near, far] {
                try await user.expect(":victim!") { $0.contains(" QUIT ") && $0.contains("Killed (root (spam))") }
            }
            for user in [near, far] {
                try await user.send("WHOIS victim")
                try await user.expectNumeric("401")
            }
            try await near.send("PRIVMSG #k :sentinel from near")
            try await far.expectNoLine(containing: "QUIT", before: "sentinel from near")
            try await far.send("PRIVMSG #k :sentinel from far")
            try await near.expectNoLine(containing: "QUIT", before: "sentinel from far")
            for user in [root, near, far] { await user.close() }
        }
    }
}
