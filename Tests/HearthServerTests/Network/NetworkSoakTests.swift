import Foundation
import HearthTesting
import Testing

/// The network under load while a node is killed: a suite of its own, so that it runs beside
/// NetworkTests' other stories instead of after them (that serialized suite was the node pass's
/// longest, 180 s, 83 of them this test's).
@Suite struct NetworkSoakTests {
    /// 300 users on three nodes chat for 30 s while one node is killed and started again: every
    /// line a sender on a surviving node had echoed back (acknowledged) reaches every surviving
    /// member, in the sender's order, once.
    @Test func aSoakWithANodeKilledAndRestartedLosesNothingAcknowledged() async throws {
        let perNode = 100
        let sendersPerNode = 10
        try await NetworkTests.withNodes(["alpha", "beta", "gamma"]) { nodes in
            var members: [[TestClient]] = []
            for (index, node) in nodes.enumerated() {
                var here: [TestClient] = []
                for n in 0..<perNode {
                    let client = try await NetworkTests.user(
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
            let (database, secret) = (nodes[0].database, nodes[0].secret)
            try await NetworkTests.start(["gamma"], database: database, secret: secret, started: []) { _ in
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
}
