import Foundation
import HearthAccounts
import HearthCrypto
import HearthTesting
import Testing

/// Channel state (modes, key, limit, topic, lists, member prefixes) has one order across the
/// nodes of a network (issue 37): concurrent changes end the same on every node, and a node
/// that starts late or restarts learns all of it.
@Suite(.serialized) struct NetworkChannelStateTests {
    typealias Net = NetworkTests

    /// Rounds of the race: each node applied its own user's change first and the other's on
    /// arrival, so nearly every round diverged.
    static let rounds = 10

    /// A numeric's parameters, without the server (each node has its own name) and the nick.
    static func params(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: false).dropFirst(3).joined(separator: " ")
    }

    /// What `client` sees of `channel`: modes (with the key: it is a member), topic, bans.
    static func view(_ client: TestClient, _ channel: String) async throws -> String {
        try await client.send("MODE \(channel)")
        let modes = params(try await client.expectNumeric("324"))
        try await client.send("TOPIC \(channel)")
        let topic = params(try await client.expect("topic") { $0.contains(" 332 ") || $0.contains(" 331 ") })
        try await client.send("MODE \(channel) b")
        var bans: [String] = []
        while true {
            let line = try await client.expect("ban list") { $0.contains(" 367 ") || $0.contains(" 368 ") }
            if line.contains(" 368 ") { break }
            bans.append(params(line).split(separator: " ").prefix(2).joined(separator: " "))
        }
        return ([modes, topic] + bans.sorted()).joined(separator: " | ")
    }

    /// `NETSTATE` on `node`, as its operator: the digest of its channels and nicks.
    static func digest(_ root: TestClient) async throws -> String {
        try await root.send("NETSTATE")
        let line = try await root.expect("the NETSTATE notice") {
            $0.contains(" NOTICE ") && $0.contains(":NETSTATE ")
        }
        return String(line[line.range(of: ":NETSTATE ")!.upperBound...])
    }

    /// Waits for lines ending in each of `endings`, in any order (`expect` skips what it passes).
    static func expectAll(_ client: TestClient, _ endings: Set<String>) async throws {
        var left = endings
        while !left.isEmpty {
            let waiting = left
            let line = try await client.expect("\(waiting.sorted())") { line in
                waiting.contains { line.hasSuffix(":" + $0) }
            }
            left = left.filter { !line.hasSuffix(":" + $0) }
        }
    }

    /// Waits until every node shows the same digest.
    static func expectSameDigest(_ roots: [TestClient]) async throws {
        var last: [String] = []
        do {
            try await HearthTesting.waitUntil("every node to show the same state") {
                last = []
                for root in roots { last.append(try await Self.digest(root)) }
                return Set(last).count == 1
            }
        } catch {
            Issue.record("the nodes' digests differ: \(last)")
            throw error
        }
    }

    static func oper(on node: NetworkTests.Node, _ nick: String) async throws -> TestClient {
        let client = try await Net.user(nick, on: node)
        try await client.send("OPER root \(NetworkTests.operatorPassword)")
        try await client.expectNumeric("381")
        return client
    }

    /// Ops on two nodes change a channel's key, limit and topic at the same moment, round after
    /// round; once each node has everything both sent, all three nodes show the same channel.
    @Test func concurrentChannelChangesEndTheSameOnEveryNode() async throws {
        try await Net.withNodes(["alpha", "beta", "gamma"]) { nodes in
            let ann = try await Net.user("ann", on: nodes[0])
            try await ann.send("JOIN #kk")
            try await ann.expectNumeric("366")
            let bob = try await Net.user("bob", on: nodes[1])
            try await Net.waitUntil(bob, sees: "@ann", in: "#kk")
            try await bob.send("JOIN #kk")
            try await bob.expectNumeric("366")
            try await ann.expect(":bob!")
            try await ann.send("MODE #kk +o bob")
            try await bob.expect("MODE #kk +o :bob")
            let cid = try await Net.user("cid", on: nodes[2])
            try await Net.waitUntil(cid, sees: "@bob", in: "#kk")
            try await cid.send("JOIN #kk")
            try await cid.expectNumeric("366")
            try await ann.expect(":cid!")
            try await bob.expect(":cid!")
            for round in 0..<Self.rounds {
                let ops = [("ann", ann, 10), ("bob", bob, 20)]
                // Both ops' lines leave together (a barrier, then one send each).
                let gates = ops.map { _ in AsyncStream<Void>.makeStream() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for ((nick, client, limit), gate) in zip(ops, gates) {
                        group.addTask {
                            for await _ in gate.stream { break }
                            try await client.send(
                                "MODE #kk -k+kl * \(nick)\(round) \(limit + round)\r\n"
                                    + "TOPIC #kk :\(nick) \(round)\r\nMODE #kk +b \(nick)\(round)!*@*\r\n"
                                    + "PRIVMSG #kk :done \(nick) \(round)")
                        }
                    }
                    for gate in gates { gate.continuation.yield() }
                    try await group.waitForAll()
                }
                // A node that has a node's last line has all that node sent before it.
                try await ann.expect("done bob \(round)")
                try await bob.expect("done ann \(round)")
                try await Self.expectAll(cid, ["done ann \(round)", "done bob \(round)"])
                let views = [
                    try await Self.view(ann, "#kk"), try await Self.view(bob, "#kk"),
                    try await Self.view(cid, "#kk"),
                ]
                #expect(Set(views).count == 1, "round \(round): \(views)")
            }
            // Members, prefixes and nicks too: every node's digest is the same.
            // (Each operator is a new nick, so the nodes agree once each has heard of all three.)
            var roots: [TestClient] = []
            for (index, node) in nodes.enumerated() { roots.append(try await Self.oper(on: node, "root\(index)")) }
            try await Self.expectSameDigest(roots)
            for root in roots { await root.close() }
            for client in [ann, bob, cid] { await client.close() }
        }
    }

    /// What a user of `node` must see of #late: the ban, the invite exception, the operator (by
    /// joining first) and the voice, the topic; `banned` is kept out.
    static func expectWholeChannel(on node: NetworkTests.Node, _ tag: String) async throws {
        let cat = try await Net.user("cat\(tag)", on: node)
        try await Net.waitUntil(cat, sees: "@ann", in: "#late")
        try await cat.send("NAMES #late")
        let names = try await cat.expectNumeric("353")
        #expect(names.contains("+vee") && names.contains("@ann"), "\(tag): \(names)")
        try await cat.send("MODE #late b")
        let ban = try await cat.expect("ban list") { $0.contains(" 367 ") || $0.contains(" 368 ") }
        #expect(ban.contains(" 367 ") && ban.contains("banned*!*@*"), "\(tag): \(ban)")
        try await cat.send("MODE #late I")
        let invex = try await cat.expect("invite list") { $0.contains(" 346 ") || $0.contains(" 347 ") }
        #expect(invex.contains(" 346 ") && invex.contains("friend*!*@*"), "\(tag): \(invex)")
        try await cat.send("TOPIC #late")
        try await cat.expect(" 332 cat\(tag) #late :set while away")
        let banned = try await Net.user("banned\(tag)", on: node)
        try await banned.send("JOIN #late")
        try await banned.expectNumeric("474")
        for client in [cat, banned] { await client.close() }
    }

    /// Bans, invite exceptions, voices, the operator status given on join and the topic set while
    /// a node was down reach it when it starts, and again when it restarts after kill -9.
    @Test func aLateOrRestartedNodeLearnsTheWholeChannel() async throws {
        try await Net.withNodes(["alpha", "beta"]) { nodes in
            let ann = try await Net.user("ann", on: nodes[0])
            try await ann.send("JOIN #late")
            try await ann.expectNumeric("366")
            let vee = try await Net.user("vee", on: nodes[1])
            try await Net.waitUntil(vee, sees: "@ann", in: "#late")
            try await vee.send("JOIN #late")
            try await vee.expectNumeric("366")
            try await ann.expect(":vee!")
            try await ann.send(
                "MODE #late +b banned*!*@*\r\nMODE #late +I friend*!*@*\r\nMODE #late +v vee\r\n"
                    + "TOPIC #late :set while away")
            try await vee.expect("TOPIC #late :set while away")
            let database = nodes[0].database
            try await Net.start(["gamma"], database: database, secret: nodes[0].secret, started: []) { late in
                try await Self.expectWholeChannel(on: late[0], "1")
                late[0].process.kill()
            }
            try await Net.start(["gamma"], database: database, secret: nodes[0].secret, started: []) { again in
                try await Self.expectWholeChannel(on: again[0], "2")
            }
            for client in [ann, vee] { await client.close() }
        }
    }

    /// A member's `@` leaves the ordered state with the member: one who parts and joins again
    /// (without `@` on JOIN) does not get it back when the next change is ordered (before, the
    /// database still held it under the member's name, and every node gave it back).
    @Test func aMemberWhoPartsAndRejoinsDoesNotGetItsPrefixBack() async throws {
        try await Net.withNodes(["alpha", "beta"]) { nodes in
            let ann = try await Net.user("ann", on: nodes[0])
            try await ann.send("JOIN #p")
            try await ann.expectNumeric("366")
            let bob = try await Net.user("bob", on: nodes[1])
            try await Net.waitUntil(bob, sees: "@ann", in: "#p")
            try await bob.send("JOIN #p")
            try await bob.expectNumeric("366")
            try await ann.expect(":bob!")
            try await ann.send("MODE #p +o bob")
            try await bob.expect("MODE #p +o :bob")
            try await bob.send("PART #p\r\nJOIN #p")
            try await bob.expectNumeric("366")
            try await ann.expect(" JOIN ")
            // A change ordered after the rejoin, and a line after it: both nodes have applied it.
            try await ann.send("TOPIC #p :after the rejoin\r\nPRIVMSG #p :marker")
            try await bob.expect("marker")
            for client in [ann, bob] {
                try await client.send("NAMES #p")
                let names = try await client.expectNumeric("353")
                #expect(names.contains("@ann") && !names.contains("@bob"), "\(names)")
            }
            for client in [ann, bob] { await client.close() }
        }
    }

    /// Three nodes; on each an operator keeps changing #chaos (key, limit, topic, bans, voices)
    /// while users chat; one node is stopped (SIGSTOP) and resumed, another killed (kill -9) and
    /// started again. At the end every node holds the same channels, members, modes, lists and
    /// nicks, and every line a surviving sender had echoed reached every surviving member once,
    /// in order.
    @Test func aChaosOfChangesStopsAndKillsEndsTheSameOnEveryNode() async throws {
        try await Net.withNodes(["alpha", "beta", "gamma"]) { nodes in try await Self.chaos(nodes) }
    }

    /// The same chaos on a PostgreSQL of its own, which is also restarted (`pg_ctl stop -m fast`,
    /// then started) between the stall and the kill: every node ends the same, no echoed line is
    /// lost or doubled. It failed about 1 run in 12, two ways: a node's publisher waited for good
    /// on a database call cut by the restart (the store's timeout waited for work that ignored
    /// cancellation), so the restarted node never learnt that node's users; and a node whose own
    /// change was confirmed after a later state had arrived kept showing its change on top.
    @Test
    func aChaosWithADatabaseRestartEndsTheSameOnEveryNode() async throws {
        let cluster = try await TestPostgres.Cluster.start()
        do {
            let database = try await cluster.freshDatabase("chaos")
            let secret = Sodium.randomBytes(CodeHasher.keyBytes)
            let names: ArraySlice = ["alpha", "beta", "gamma"]
            try await Net.start(names, database: database, secret: secret, started: []) { nodes in
                try await Self.chaos(nodes) {
                    try await cluster.pause()
                    try await cluster.resume()
                }
            }
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    /// The chaos test's run on `nodes`; `restartDatabase`, when given, runs between the stall
    /// and the kill.
    static func chaos(_ nodes: [Net.Node], restartDatabase: (() async throws -> Void)? = nil) async throws {
        let caps = ["echo-message"]
        var ops: [TestClient] = []
        var talkers: [TestClient] = []
        for (index, node) in nodes.enumerated() {
            let op = try await Net.user("op\(index)", on: node, caps: caps)
            if index > 0 { try await Net.waitUntil(op, sees: "@op0", in: "#chaos") }
            try await op.send("JOIN #chaos")
            try await op.expectNumeric("366")
            ops.append(op)
            for n in 0..<2 {
                let talker = try await Net.user("t\(index)x\(n)", on: node, caps: caps)
                try await talker.send("JOIN #chaos")
                try await talker.expectNumeric("366")
                talkers.append(talker)
            }
        }
        for op in ops.dropFirst() {
            try await ops[0].send("MODE #chaos +o \(op === ops[1] ? "op1" : "op2")")
        }
        for op in ops { try await op.expect("MODE #chaos +o :op2") }
        let stop = ContinuousClock.now + .seconds(20)
        let (opsNow, talkersNow) = (ops, talkers)
        let changing = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, op) in opsNow.enumerated() {
                    group.addTask {
                        var step = 0
                        while ContinuousClock.now < stop {
                            step += 1
                            let change = [
                                "MODE #chaos -k+k * k\(index)x\(step)", "MODE #chaos +l \(10 + step)",
                                "TOPIC #chaos :op\(index) step \(step)", "MODE #chaos +b b\(index)x\(step)!*@*",
                                "MODE #chaos -b b\(index)x\(step - 2)!*@*", "MODE #chaos +v t\((index + 1) % 3)x0",
                                "MODE #chaos -v t\((index + 2) % 3)x0", "MODE #chaos \(step % 2 == 0 ? "+" : "-")m",
                            ][step % 8]
                            try? await op.send(change)
                            try await Task.sleep(for: .milliseconds(150))
                        }
                    }
                }
                for talker in talkersNow {
                    group.addTask {
                        var seq = 0
                        while ContinuousClock.now < stop {
                            seq += 1
                            try? await talker.send("PRIVMSG #chaos :line \(seq)")
                            try await Task.sleep(for: .milliseconds(200))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        try await Task.sleep(for: .seconds(4))
        nodes[1].process.send(SIGSTOP)
        try await Task.sleep(for: .seconds(3))
        nodes[1].process.send(SIGCONT)
        try await Task.sleep(for: .seconds(3))
        try await restartDatabase?()
        nodes[2].process.kill()
        try await Task.sleep(for: .seconds(2))
        try await Net.start(["gamma"], database: nodes[0].database, secret: nodes[0].secret, started: []) {
            again in
            try await changing.value
            // And a last race, ops of two nodes at once: it decides the key, limit and topic.
            let gates = ops.prefix(2).map { _ in AsyncStream<Void>.makeStream() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, (op, gate)) in zip(ops.prefix(2), gates).enumerated() {
                    group.addTask {
                        for await _ in gate.stream { break }
                        try await op.send(
                            "MODE #chaos -k+kl * last\(index) \(50 + index)\r\nTOPIC #chaos :last \(index)")
                    }
                }
                for gate in gates { gate.continuation.yield() }
                try await group.waitForAll()
            }
            let late = try await Net.user("late", on: again[0])
            try await Net.waitUntil(late, sees: "@op0", in: "#chaos")
            try await late.send("JOIN #chaos")
            try await late.expectNumeric("366")
            var roots: [TestClient] = []
            for (index, node) in [nodes[0], nodes[1], again[0]].enumerated() {
                roots.append(try await Self.oper(on: node, "root\(index)"))
            }
            try await Self.expectSameDigest(roots)
            for client in roots + [late] { await client.close() }
        }
        // Lines: every surviving sender's echoed lines reached every surviving member once, in order.
        let survivors = Array(talkers.prefix(4))
        let unread = survivors.map { $0.unread() }
        for (index, _) in survivors.enumerated() {
            let sender = "t\(index / 2)x\(index % 2)"
            let acked = Self.lines(from: sender, in: unread[index])
            #expect(acked.count > 20, "\(sender) was slowed down: \(acked.count)")
            for (member, lines) in unread.enumerated() where member != index {
                let seen = Self.lines(from: sender, in: lines)
                #expect(seen == seen.sorted() && Set(seen).count == seen.count, "\(sender): order or doubles")
                #expect(Set(acked).isSubset(of: Set(seen)), "\(sender): lost \(Set(acked).subtracting(seen).count)")
            }
        }
        for client in ops.prefix(2) + survivors { await client.close() }
    }

    /// The numbers of `sender`'s "line N" messages to #chaos among `lines`.
    static func lines(from sender: String, in lines: [String]) -> [Int] {
        lines.compactMap { line in
            guard line.contains(":\(sender)!"), line.contains("PRIVMSG #chaos :line ") else { return nil }
            return line.split(separator: " ").last.flatMap { Int($0) }
        }
    }
}
