import HearthTesting
import Testing

/// CHGHOST on a network: an operator on one node changes the host of a user of another; every
/// node shows the new host and tells its own users as the capability asks.
@Suite struct NetworkChghostTests {
    @Test func anOperatorChangesTheHostOfAUserOfAnotherNode() async throws {
        try await NetworkTests.withNodes(["alpha", "beta"]) { nodes in
            let (alpha, beta) = (nodes[0], nodes[1])
            let ann = try await NetworkTests.user("ann", on: beta, caps: ["chghost"])
            let bob = try await NetworkTests.user("bob", on: beta, caps: ["chghost"])
            let cy = try await NetworkTests.user("cy", on: alpha)
            for client in [ann, bob, cy] {
                try await client.send("JOIN #den")
                try await client.expectNumeric("366")
            }
            try await NetworkTests.waitUntil(cy, sees: "bob", in: "#den")
            try await NetworkTests.waitUntil(ann, sees: "cy", in: "#den")
            let oper = try await NetworkTests.user("oper", on: alpha)
            try await oper.send("OPER root \(NetworkTests.operatorPassword)")
            try await oper.expectNumeric("381")
            try await oper.send("CHGHOST ann gran.family")
            try await oper.expect("NOTICE oper :ann's displayed host is now gran.family")
            let old = ":ann!~ann@\(beta.localHost)"
            try await cy.expect("\(old) QUIT :Changing hostname")
            try await cy.expect(":ann!~ann@gran.family JOIN #den")
            // ann's own node applied it: the user and its peers there are told, and what ann
            // says carries the new host everywhere.
            try await ann.expect("\(old) CHGHOST ~ann :gran.family")
            try await ann.expect(" 396 ann gran.family :is now your displayed host")
            try await bob.expect("\(old) CHGHOST ~ann :gran.family")
            try await ann.send("PRIVMSG #den :from gran's")
            try await cy.expect(":ann!~ann@gran.family PRIVMSG #den :from gran's")
            try await bob.expect(":ann!~ann@gran.family PRIVMSG #den :from gran's")
            for client in [ann, bob, cy, oper] { await client.close() }
        }
    }
}
