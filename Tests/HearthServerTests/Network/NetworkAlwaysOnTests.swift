import Foundation
import HearthTesting
import Testing

/// Always-on accounts in a network: the stand-in of an account whose devices all left is in its
/// channels on every node (a node started later included), lines said on another node are
/// replayed to the device that comes back, and a KICK or a server ban from any node ends it.
@Suite(.serialized) struct NetworkAlwaysOnTests {
    /// ann's laptop on `node` (her account made there first): always-on, in #den.
    static func laptop(on node: NetworkTests.Node) async throws -> TestClient {
        try await NetworkEditTests.account("ann", on: node).close()
        return try await AlwaysOnTests.alwaysOnInDen(port: node.port, nick: "ann", login: "ann@laptop")
    }

    /// A user of `node` in #den once ann shows there, with away-notify.
    static func watcher(_ nick: String, on node: NetworkTests.Node) async throws -> TestClient {
        let client = try await NetworkTests.user(nick, on: node, caps: ["away-notify"])
        try await NetworkTests.waitUntil(client, sees: "ann", in: "#den")
        try await client.send("JOIN #den")
        try await client.expectNumeric("366")
        return client
    }

    /// WHO #den as `client` sees it: one line per member.
    static func who(_ client: TestClient) async throws -> [String] {
        try await client.send("WHO #den")
        var lines: [String] = []
        while true {
            let line = try await client.expect("WHO") { $0.contains(" 352 ") || $0.contains(" 315 ") }
            if line.contains(" 315 ") { return lines }
            lines.append(line)
        }
    }

    @Test func aStandInIsInItsChannelsOnEveryNodeAndGetsWhatWasSaidOnAnother() async throws {
        try await NetworkTests.withNodes(["alpha", "beta"]) { nodes in
            let (alpha, beta) = (nodes[0], nodes[1])
            let laptop = try await Self.laptop(on: alpha)
            let bob = try await Self.watcher("bob", on: beta)
            try await laptop.expect(":bob!") { $0.contains(" JOIN #den") }

            // The laptop closes: on beta ann goes away and stays in #den.
            await laptop.close()
            try await bob.expect(":ann!") { $0.contains(" AWAY :") }
            let onBeta = try await Self.who(bob)
            #expect(onBeta.contains { $0.contains(" ann G") }, "ann away in #den on beta: \(onBeta)")

            // A node started now learns of her too (from alpha's announcement), away.
            _ = try await NetworkTests.serve("gamma", database: alpha.database, secret: alpha.secret) { gamma in
                let cy = try await NetworkTests.user("cy", on: gamma)
                try await NetworkTests.waitUntil(cy, sees: "ann", in: "#den")
                let onGamma = try await Self.who(cy)
                #expect(onGamma.contains { $0.contains(" ann G") }, "ann away in #den on gamma: \(onGamma)")
                await cy.close()
            }

            // Said on beta while she is away; alpha replays it when the laptop is back.
            try await bob.send("PRIVMSG #den :ann: the soup is on beta")
            // (Beta keeps it in the history a moment after relaying it: CHATHISTORY there waits for it.)
            try await bob.send("CAP REQ :batch server-time message-tags draft/chathistory")
            try await bob.expect("ACK")
            try await bob.send("CHATHISTORY LATEST #den * 1")
            let kept = try await ChathistoryTests.batch(bob)
            #expect(kept.contains { $0.hasSuffix("PRIVMSG #den :ann: the soup is on beta") }, "\(kept)")
            let back = try await AlwaysOnTests.device(port: alpha.port, nick: "ann", login: "ann@laptop")
            try await back.expect("JOIN #den")
            try await back.expect("While you were away: 1 line")
            try await back.expect(":bob!") { $0.hasSuffix(" PRIVMSG #den :ann: the soup is on beta") }
            try await back.expect("End of what you missed.")
            try await bob.expect(":ann!") { $0.hasSuffix(" AWAY") }
        }
    }

    @Test func aServerBanOnAnotherNodeEndsTheStandInOnBoth() async throws {
        try await NetworkTests.withNodes(["alpha", "beta"]) { nodes in
            let (alpha, beta) = (nodes[0], nodes[1])
            let laptop = try await Self.laptop(on: alpha)
            let bob = try await Self.watcher("bob", on: beta)
            let cat = try await Self.watcher("cat", on: alpha)
            try await laptop.expect(":cat!") { $0.contains(" JOIN #den") }
            await laptop.close()
            try await bob.expect(":ann!") { $0.contains(" AWAY :") }

            let oper = try await NetworkChannelStateTests.oper(on: beta, "oper")
            try await oper.send("UBAN ADD ann spam")
            for watcher in [bob, cat] {
                try await watcher.expect(":ann!") { $0.contains(" QUIT ") }
                try await watcher.send("NAMES #den")
                let names = try await watcher.expectNumeric("353")
                #expect(!names.contains("ann"), "\(names)")
            }
        }
    }

    /// An operator on another node KICKs the stand-in: it leaves the channel on its own node
    /// too, and that node's next start does not bring it back in.
    @Test func aStandInKickedFromAnotherNodeStaysOutAfterItsNodeRestarts() async throws {
        try await NetworkTests.withNodes(["beta"]) { nodes in
            let beta = nodes[0]
            let bob = try await NetworkTests.user("bob", on: beta, caps: ["away-notify"])
            try await bob.send("JOIN #den")
            try await bob.expectNumeric("366")
            func alpha(_ body: (NetworkTests.Node) async throws -> Void) async throws {
                _ = try await NetworkTests.serve("alpha", database: beta.database, secret: beta.secret, body)
            }
            try await alpha { alpha in
                let register = try await NetworkEditTests.account("ann", on: alpha)
                await register.close()
                let laptop = try await AlwaysOnTests.device(port: alpha.port, nick: "ann", login: "ann@laptop")
                try await laptop.send("PRIVMSG hearth :set always-on on")
                try await laptop.expect("always-on is now on")
                try await NetworkTests.waitUntil(laptop, sees: "@bob", in: "#den")
                try await laptop.send("JOIN #den")
                try await laptop.expectNumeric("366")
                let cat = try await NetworkTests.user("cat", on: alpha)
                try await cat.send("JOIN #den")
                try await cat.expectNumeric("366")
                await laptop.close()
                try await bob.expect(":ann!") { $0.contains(" AWAY :") }
                try await bob.send("KICK #den ann :not now")
                try await cat.expect(":bob!") { $0.contains(" KICK #den ann :not now") }
                try await cat.send("NAMES #den")
                let names = try await cat.expectNumeric("353")
                #expect(!names.contains("ann"), "ann is out of #den on alpha: \(names)")
            }
            try await alpha { alpha in
                let dee = try await NetworkTests.user("dee", on: alpha)
                try await dee.send("WHOIS ann")
                try await dee.expectNumeric("301")
                try await NetworkTests.waitUntil(dee, sees: "bob", in: "#den")
                try await dee.send("NAMES #den")
                let names = try await dee.expectNumeric("353")
                #expect(!names.contains("ann"), "ann is not back in #den: \(names)")
            }
        }
    }
}
